package runtime

import (
	"io"
	"os"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/bgl/shard"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/ppc"
	"github.com/dpclsh/dpclsh/probes"
)

// Options describe a job to launch under the tool.
type Options struct {
	Exe          string
	Args         []string
	Nodes, PerIO int // ranks (default 1) and compute nodes per I/O node (default 64)
	// Topology shapes the tree above the I/O-node daemons: "b:F" is a balanced tree of
	// fan-out F (default b:16); any other netreduce generator spec ("b:4^2", "k:2@7",
	// "g:...") or an MRNet topology file path must have one back-end per I/O node, and
	// each of its back-ends becomes that I/O node's daemon.
	Topology string
	// Partition is the block's compute nodes, at least Nodes (0: Nodes); Mapping places
	// the ranks in it: "XYZT" or "TXYZ" (rank r on node r, X fastest: one task per node
	// makes T's place moot) or an mpirun map file, one "X Y Z T" line per rank. Each I/O
	// node's ranks must be consecutive; I/O nodes without ranks get no daemon.
	Partition int
	Mapping   string
	// Costs is the cost model of the tool's processes and links (nil: "default").
	Costs *Costs
	// Clocks gives every tool process but the front-end a clock offset, drawn from a
	// seeded generator (zero value: every clock exact).
	Clocks         ClockSkew
	Workdir        string
	Env            []string // every rank's environment: "NAME=value" strings in this order
	Stdout, Stderr io.Writer
	Seed           uint64
	MemoryMB       int // each compute node's memory (default bgl.DefaultMemoryMB, 512)
	DiskQuotaMB    int // how much the job may grow its workdir's files (default 512)
	// QuantumNS is how much virtual time the machine runs between checks for packets to
	// deliver (default DefaultQuantumNS); callbacks run at most this late.
	QuantumNS uint64
	// Progress, when set, receives the machine's counters for a progress display.
	Progress *bgl.Progress
	// Shard makes this process one of a sharded run's (bgl.JobConfig.Shard): every
	// process launches with the same options and runs the same session, and the job's
	// ranks, with the debug calls and packets that concern them, are spread over the
	// processes (machine_shard.go). nil: the whole job is in this process.
	Shard shard.Exchanger
}

// DefaultQuantumNS is the default delivery quantum: five scheduler windows.
const DefaultQuantumNS = 10_000

// Layout of the instrumentation region (same addresses on every node).
const (
	varArea   = 1 << 20 // probe variables, arrays, stacks and the recursion guard word come first
	trampLign = 16
)

// App is one MPI job under the tool, as DPCL's POE application: the machine, a tool
// daemon per I/O node, the reduction tree whose leaves are the ranks, and the probes.
// An App is used from one goroutine (the session's); the machine advances only in Step.
type App struct {
	opts Options
	// Job is the machine when it runs in this process (nil when the tool attached to a job
	// in another process); the tool drives it through m either way.
	Job    *bgl.Job
	m      machine
	attach *attachment // how the tool attached, nil when it launched the job (attach.go)
	// sharded is the machine when the job is sharded over processes (Options.Shard).
	sharded *shardJob
	Prog    *probes.Program
	tree    *toolTree
	region  ppc.Region

	quantum  uint64
	timeouts int // handles whose waves close on virtual time
	slots    *probes.Slots
	faults   faultTable // fault fixups of probe snippets, on every node
	guard    uint32
	next     uint32 // next free trampoline address
	seq      uint64 // command sequence
	points   map[uint32]*pointState
	spans    map[uint32]*spanUse // trampoline memory in use, by base
	free     []span              // trampoline memory nobody holds any more
	linked   map[uint32]uint32   // patched address -> base of the piece it branches to
	reused   int
	// handles by id (the tag their sends carry); ids start at 1.
	handles []*Handle
	phases  []*Phase  // periodic snippets, in creation order
	modules []*Module // C probe modules, in loading order
	// profiles and watches are the sampling profiles and watchpoints made, so that Detach
	// can stop them all.
	profiles []*Profile
	watches  []*WatchHandle

	byStream      map[uint32]*Handle
	rejected      []Rejected // packets the daemons dropped, for the next batch
	rejectedTotal int
	lastCmd       CommandReport
	inst          Instantiation // how the tool's processes were created, before time 0

	started, suspended, terminated, closed bool
	ended                                  map[int]bgl.Event // exit or fault per rank
	kills                                  []bgl.Event       // ended ranks not yet forgotten by the region
	events                                 []bgl.Event       // events for the next batch
}

// Launch starts the job stopped at its entry point, with a daemon in every I/O node's
// slot and the tree built in BG/L's shape.
func Launch(o Options) (*App, error) {
	if o.Nodes == 0 {
		o.Nodes = 1
	}
	if o.PerIO == 0 {
		o.PerIO = bgl.DefaultPerIO
	}
	if o.Costs == nil {
		o.Costs, _ = NamedCosts("default")
	}
	img, err := loadImage(o.Exe)
	if err != nil {
		return nil, err
	}
	place, err := placement(o)
	if err != nil {
		return nil, err
	}
	job, err := bgl.Launch(bgl.JobConfig{Exe: o.Exe, Image: img, Args: o.Args, Env: o.Env, Nodes: o.Nodes, PerIO: o.PerIO,
		Partition: o.Partition, Place: place,
		Workdir: o.Workdir, Stdout: o.Stdout, Stderr: o.Stderr, Stopped: true, Seed: o.Seed, MemoryMB: o.MemoryMB,
		DiskQuotaMB: o.DiskQuotaMB, Progress: o.Progress, Shard: o.Shard})
	if err != nil {
		return nil, err
	}
	var m machine = localJob{job}
	var sharded *shardJob
	if o.Shard != nil {
		sharded = newShardJob(job, o.Shard)
		m = sharded
	}
	a, err := newApp(o, m, img, sharded)
	if err != nil {
		job.Close()
		return nil, err
	}
	a.Job = job
	if sharded != nil {
		sharded.ready = a.take
	}
	return a, nil
}

// newApp puts the tool on machine m running img: the variable window, the tree with a
// daemon in every I/O node's slot, and the listeners.
func newApp(o Options, m machine, img *ppc.Image, sharded *shardJob) (*App, error) {
	a := &App{opts: o, m: m, sharded: sharded, Prog: probes.NewProgram(img), region: img.InstrRegion, points: map[uint32]*pointState{},
		ended: map[int]bgl.Event{}, byStream: map[uint32]*Handle{},
		spans: map[uint32]*spanUse{}, linked: map[uint32]uint32{}}
	a.quantum = o.QuantumNS
	if a.quantum == 0 {
		a.quantum = DefaultQuantumNS
	}
	a.slots = probes.NewSlots(a.region.Start, varArea)
	g, err := a.slots.Alloc("dpcl_guard", probes.Int)
	if err != nil {
		return nil, err
	}
	a.guard, a.next = g.Addr, a.region.Start+varArea
	if err := a.buildTree(); err != nil {
		return nil, err
	}
	m.OnEvent(a.onEvent)
	m.SetSymbolizer(codeNames{a})
	return a, nil
}

// loadImage parses the executable once: the machine runs this image and probes read
// its symbols, code and DWARF.
func loadImage(path string) (*ppc.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("launch: %w", err)
	}
	defer f.Close()
	img, err := ppc.LoadELF(f)
	if err != nil {
		return nil, errorf("launch %s: %w", path, err)
	}
	return img, nil
}

// buildTree makes the tool's tree (leaves = ranks, level 2 = the I/O-node daemons, the
// topology's levels above) and puts a daemon in each I/O node's slot.
func (a *App) buildTree() error {
	ios, counts := ioGroups(a.m.Partition())
	topo, err := jobTopology(a.opts.Topology, counts, a.opts.PerIO)
	if err != nil {
		return err
	}
	a.tree = newToolTree(topo, ios, a.opts.Costs, func(io int, n *netreduce.Node) *Daemon {
		if s := a.sharded; s != nil {
			d := NewDaemon(io, a.opts.Nodes, s.machineOf(io), a.region.Contains, n)
			d.sharded = s
			a.m.SetDaemon(io, shardSlot{s, d})
			return d
		}
		d := NewDaemon(io, a.opts.Nodes, a.m.Debug(io), a.region.Contains, n)
		a.m.SetDaemon(io, slot{a, d})
		return d
	})
	a.tree.skewClocks(a.opts.Clocks)
	a.inst = a.tree.instantiate()
	return nil
}

// slot is a daemon as the machine sees it: the machine hands it what its ranks sent
// and their events; the slot carries out what the daemon returns (its Ready): packets
// go up the tree at once, rejections into the next batch.
type slot struct {
	a *App
	d *Daemon
}

func (s slot) Packet(_ *bgl.Debug, p bgl.Packet) { s.a.take(s.d.Packet(p)) }

// take carries out what a daemon made of a packet.
func (a *App) take(rd Ready) {
	for _, o := range rd.Up {
		a.inject(o)
	}
	a.rejected = append(a.rejected, rd.Rejected...)
	a.rejectedTotal += len(rd.Rejected)
}

func (s slot) Event(_ *bgl.Debug, ev bgl.Event) { s.d.Event(ev) }

func (a *App) onEvent(ev bgl.Event) {
	if a.attach != nil && a.attach.detached {
		return // a job this tool attached to and left; its listener cannot be removed
	}
	if ev.Kind == bgl.EventExit || ev.Kind == bgl.EventFault {
		a.ended[ev.Rank] = ev
		a.kills = append(a.kills, ev)
		a.tree.Kill(ev.Rank, int64(ev.Time))
	}
	if ev.Kind == bgl.EventWatch {
		ev.Note = a.whereNote(ev.PC)
	}
	a.events = append(a.events, ev)
	a.m.Pause()
}

// Size is the number of ranks.
func (a *App) Size() int { return a.opts.Nodes }

// IONodeOf is the I/O node serving rank.
func (a *App) IONodeOf(rank int) int { return a.m.Partition().IONodeOfRank(rank) }

// Env is the environment every rank sees (a copy of Options.Env).
func (a *App) Env() []string { return append([]string(nil), a.opts.Env...) }

// Now is the virtual time (ns) the machine has reached.
func (a *App) Now() uint64 { return a.m.Now() }

// Partition is the job's partition.
func (a *App) Partition() *bgl.Partition { return a.m.Partition() }

// Image is the program the job runs.
func (a *App) Image() *ppc.Image { return a.m.Image() }

// Exe is the executable's path as given.
func (a *App) Exe() string { return a.opts.Exe }

// Proctable is the MPIR proctable.
func (a *App) Proctable() []bgl.ProcEntry { return a.m.Proctable() }

// Var allocates a probe variable: one slot per process, at the same address on all.
func (a *App) Var(t probes.Type) (*probes.Var, error) {
	v, err := a.slots.Alloc("", t)
	if err != nil {
		return nil, errorf("var: %w", err)
	}
	return v, nil
}

// Target is the compilation target of probe code in this program (for disassembly).
func (a *App) Target() *probes.Target { return &probes.Target{Resolve: a.Prog.Resolve} }

// Ended reports how rank ended, if it has.
func (a *App) Ended(rank int) (bgl.Event, bool) {
	ev, ok := a.ended[rank]
	return ev, ok
}

// Close ends the job and the tree.
func (a *App) Close() error {
	if a.closed {
		return nil
	}
	if a.attach != nil {
		return a.Detach()
	}
	a.closed = true
	for _, h := range a.handles {
		a.tree.Close(h.stream)
	}
	return a.m.Close()
}

// Started reports whether Start was called.
func (a *App) Started() bool { return a.started }
