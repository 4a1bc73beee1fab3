package bgl

import (
	"io"
	"os"
	"path"
	"path/filepath"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/bgl/shard"
	"github.com/dpclsh/dpclsh/ppc"
)

// Timing of the machine model (virtual ns).
const (
	// TreeLatencyNS is one way over the collective (tree) network between a compute node
	// and its I/O node: function shipping and ais_send packets pay it.
	TreeLatencyNS = 2500
	// DefaultWindowNS is the scheduler's window: no larger than the smallest latency.
	DefaultWindowNS = 2000
	// pidBase: the process on rank r has pid pidBase+r (pid 1 is the CIOD).
	pidBase = 100
)

// JobConfig describes a job: what to run and on what partition.
type JobConfig struct {
	Exe string // static PPC32 ELF; argv[0] is this path as given
	// Image is Exe already loaded (ppc.LoadELF), so that a tool and the machine share one
	// parse of it; nil: Launch loads Exe.
	Image *ppc.Image
	Args  []string // argv[1:]
	Env   []string
	Nodes int // ranks, 1..65536 (default 1)
	PerIO int // compute nodes per I/O node, 8..64 (default 64)
	// Partition is the block's compute nodes, at least Nodes (0: Nodes); Place puts rank
	// r on compute node Place[r] (nil: rank r on node r; see PlaceOrder, ParseMapFile).
	Partition int
	Place     []int
	Workdir   string // the directory CIOD confines file calls to (default: current directory)

	Stdin          io.Reader // delivered to rank 0's fd 0; nil: EOF
	Stdout, Stderr io.Writer // the front-end's merged streams (nil: discarded)
	Label          bool      // prefix each line with its rank, like srun --label
	Capture        bool      // keep each rank's output for Output(rank)

	Stopped bool // launch with every node held (the tool continues them)
	// Interp runs every rank in ppc's interpreter only, never in translated code: the
	// reference the translator is checked against, and the only path on hosts other than
	// linux/amd64. Results are the same either way; only the host's speed differs.
	Interp   bool
	Seed     uint64 // seeds AT_RANDOM and getrandom per rank
	Epoch    int64  // CLOCK_REALTIME at virtual time 0, in seconds
	WindowNS uint64 // scheduler window; 0: DefaultWindowNS

	// MemoryMB is each compute node's memory (0: DefaultMemoryMB, BG/L's 512 MiB): brk and
	// mmap past it get ENOMEM. HostPoolMB bounds what all nodes together commit beyond
	// 16 MiB each (0: half the Go memory limit when set, else 8 GiB), so many large ranks
	// fail their allocations instead of exhausting the host.
	MemoryMB   int
	HostPoolMB int
	// DiskQuotaMB is how much the job may grow the files of its working directory
	// (0: DefaultDiskQuotaMB): writes past it get EDQUOT.
	DiskQuotaMB int

	Progress *Progress // counters for a progress display (nil: none)

	// Shard makes this process one of a sharded run's (shard_run.go): it creates and runs
	// only the ranks of its psets, and only process 0's Stdout and Stderr get output. Every
	// process of the run launches the same JobConfig. nil: one process, no exchanges.
	Shard shard.Exchanger
	// Drive, when set, runs the launched and started job in Run's place (RunContext): a
	// job that tools may attach to while it runs is driven by whoever serves them. It
	// returns as Run does; a Pause from RunContext's context must end it.
	Drive func(j *Job) StopReason
}

// ProcEntry is one row of the MPIR proctable.
type ProcEntry struct {
	Rank, Node, IONode, Pid int
	Exe                     string
}

// Job is a launched program on a simulated partition: the compute nodes, their I/O nodes
// and the scheduler that advances them. A Job is driven by one goroutine (Run, RunUntil,
// the Debug calls, callbacks); Pause may be called from any goroutine.
type Job struct {
	cfg    JobConfig
	part   *Partition
	img    *ppc.Image
	exe    string // absolute path
	tool   string // the tool attached in this process (SetTool)
	nodes  []*node
	ionode []*IONode
	sb     *sandbox
	fe     *frontEnd

	queue   msgQueue
	runs    runSet // the nodes a window may run (sched_set.go)
	ioSeq   []uint64
	now     uint64 // virtual ns: no event can happen earlier any more
	window  uint64
	pause   atomic.Bool
	intr    chan struct{} // a token when Pause is called: ends host waits (stdin)
	running atomic.Bool
	onEvent []func(Event)
	sym     ppc.Symbolizer // names code in fault backtraces; nil: the image
	live    int            // nodes neither exited nor faulted
	closed  bool

	progressSteps uint64 // windows since launch, for Progress sampling

	sh *shardRun // this process's part of a sharded job; nil: the whole job is here
}

// Launch loads the executable once and creates every rank's process, sharing the image's
// pages copy-on-write.
func Launch(cfg JobConfig) (*Job, error) {
	cfg = withDefaults(cfg)
	part, err := NewPlacedPartition(cfg.Nodes, cfg.Partition, cfg.PerIO, cfg.Place)
	if err != nil {
		return nil, err
	}
	if err := checkMemoryMB(cfg.MemoryMB); err != nil {
		return nil, err
	}
	if err := checkDiskQuotaMB(cfg.DiskQuotaMB); err != nil {
		return nil, err
	}
	img, exe, err := loadImage(cfg.Exe, cfg.Image)
	if err != nil {
		return nil, err
	}
	sb, err := newSandbox(cfg.Workdir)
	if err != nil {
		return nil, err
	}
	sb.quota.limit = int64(cfg.DiskQuotaMB) << 20
	j := &Job{cfg: cfg, part: part, img: img, exe: exe, sb: sb, window: cfg.WindowNS}
	var console Console
	if cfg.Shard != nil {
		j.sh = newShardRun(cfg.Shard, part)
		console = shardConsole{j.sh}
		if cfg.Shard.Rank() != 0 {
			cfg.Stdout, cfg.Stderr = io.Discard, io.Discard
		}
	}
	j.fe = newFrontEnd(cfg, part.Tasks())
	if console == nil {
		console = j.fe
	}
	j.ionode = make([]*IONode, part.IONodes())
	j.ioSeq = make([]uint64, len(j.ionode))
	j.intr = make(chan struct{}, 1)
	stdin := newStdinPump(cfg.Stdin, j.intr)
	for i := range j.ionode {
		j.ionode[i] = newIONode(i, sb, console, stdin)
	}
	if err := j.createNodes(); err != nil {
		sb.close()
		return nil, err
	}
	return j, nil
}

func withDefaults(cfg JobConfig) JobConfig {
	if cfg.Nodes == 0 {
		cfg.Nodes = 1
	}
	if cfg.PerIO == 0 {
		cfg.PerIO = DefaultPerIO
	}
	if cfg.Workdir == "" {
		cfg.Workdir = "."
	}
	if cfg.DiskQuotaMB == 0 {
		cfg.DiskQuotaMB = DefaultDiskQuotaMB
	}
	if cfg.MemoryMB == 0 {
		cfg.MemoryMB = DefaultMemoryMB
	}
	if cfg.WindowNS == 0 {
		cfg.WindowNS = DefaultWindowNS
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Stderr == nil {
		cfg.Stderr = io.Discard
	}
	return cfg
}

func loadImage(path string, img *ppc.Image) (*ppc.Image, string, error) {
	if img == nil {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", errorf("launch: %w", err)
		}
		defer f.Close()
		if img, err = ppc.LoadELF(f); err != nil {
			return nil, "", errorf("launch %s: %w", path, err)
		}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", errorf("launch %s: %w", path, err)
	}
	return img, abs, nil
}

// splitmix scrambles the job seed per rank so ranks get independent streams.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func (j *Job) createNodes() error {
	argv := append([]string{j.cfg.Exe}, j.cfg.Args...)
	layout := addrLayout{mmapTop: j.img.Stack.Start - abi.PageSize, reserved: j.img.Reserved(),
		fixed: imageBytes(j.img)}
	pool := newHostPool(j.cfg.HostPoolMB)
	j.nodes = make([]*node, j.part.Tasks())
	if p := j.cfg.Progress; p != nil {
		p.Ranks.Store(int64(len(j.nodes)))
	}
	for r := range j.nodes {
		if j.sh != nil && !j.sh.owns(j.part, r) {
			continue
		}
		seed := splitmix(j.cfg.Seed ^ uint64(r)<<32)
		cpu, err := j.img.NewProcess(ppc.ProcessConfig{Args: argv, Env: j.cfg.Env, Seed: seed})
		if err != nil {
			return errorf("launch rank %d: %w", r, err)
		}
		io := j.ionode[j.part.IONodeOfRank(r)]
		if j.cfg.Interp {
			cpu.SetTranslation(false)
		}
		n := &node{rank: r, cpu: cpu, io: io, held: j.cfg.Stopped}
		n.proc = Proc{Rank: r, Size: j.part.Tasks(), IONode: io.Index, Pid: pidBase + r, Exe: rankExePath(j.cfg.Exe),
			Mem: cpu.Mem, Cycles: n.clock, Epoch: j.cfg.Epoch, brk: j.img.Brk(), brkStart: j.img.Brk(),
			layout: layout, rng: splitmix(seed), memLimit: uint64(j.cfg.MemoryMB) << 20, pool: pool}
		io.attach(r)
		j.nodes[r] = n
		j.live++
		if p := j.cfg.Progress; p != nil {
			p.Loaded.Store(int64(r + 1))
		}
	}
	return nil
}

// Partition returns the job's partition.
func (j *Job) Partition() *Partition { return j.part }

// Image returns the loaded executable (symbols, text, instrumentation region).
func (j *Job) Image() *ppc.Image { return j.img }

// Size returns the number of ranks.
func (j *Job) Size() int { return len(j.nodes) }

// Config returns the configuration the job was launched with, defaults filled in, without
// its streams and its driver: what a tool attaching to the job needs to know of it.
func (j *Job) Config() JobConfig {
	c := j.cfg
	c.Stdin, c.Stdout, c.Stderr, c.Progress, c.Drive = nil, nil, nil, nil, nil
	c.Image, c.Exe = nil, j.exe
	c.Args = append([]string(nil), c.Args...)
	c.Env = append([]string(nil), c.Env...)
	c.Place = append([]int(nil), c.Place...)
	return c
}

// Now returns the virtual time (ns) the machine has reached.
func (j *Job) Now() uint64 { return j.now }

// Proctable returns the MPIR proctable: one entry per rank, 0-based.
func (j *Job) Proctable() []ProcEntry {
	out := make([]ProcEntry, len(j.nodes))
	for r := range out {
		out[r] = ProcEntry{Rank: r, Node: j.part.NodeOf(r), IONode: j.part.IONodeOfRank(r), Pid: pidBase + r, Exe: j.exe}
	}
	return out
}

// OnEvent registers a front-end listener for every event, called on the driving goroutine
// at window ends in (time, rank, sequence) order.
func (j *Job) OnEvent(fn func(Event)) { j.onEvent = append(j.onEvent, fn) }

// Done reports whether every rank has exited or faulted.
func (j *Job) Done() bool { return j.live == 0 }

// Output returns what a rank wrote to stdout and stderr (JobConfig.Capture).
func (j *Job) Output(rank int) (stdout, stderr []byte) { return j.fe.captured(rank) }

// ErrClosed is returned by a closed job's methods.
var ErrClosed = errorf("job is closed")

// Close ends the job: files the ranks left open are closed, output is flushed.
func (j *Job) Close() error {
	if j.closed {
		return nil
	}
	j.closed = true
	for _, io := range j.ionode {
		for r := range io.procs {
			io.detach(r)
		}
	}
	j.fe.flushAll()
	return j.sb.close()
}

// rankExePath is the program's path as a rank sees it (readlink of /proc/self/exe): the
// command line's path taken from the job's directory /job, so it depends on what the user
// typed and never on where the host keeps the file (glibc's startup reads it, and its
// length would otherwise change the ranks' timing from one checkout to another).
func rankExePath(given string) string {
	given = filepath.ToSlash(given)
	if path.IsAbs(given) {
		return path.Clean(given)
	}
	return path.Join(jobDir, given)
}
