package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
)

func init() {
	registerSubcommand(subcommand{
		name:  "exec",
		usage: "exec [--nodes N] [--per-io K] [--partition N] [--mapping ORDER|FILE] [--mapfile FILE] [--label] [--workdir DIR] [--seed S] [--memory MIB] [--disk-quota MIB] [--env NAME=VALUE]... [--export NAME]... [--stats] [--interp] [--quiet|--progress] [--trace FILE.json] [--listen HOST:PORT [--secret-file FILE] [--wait-for-tool]] PROGRAM.elf [ARGS...]",
		brief: "run a static PowerPC ELF on a simulated Blue Gene/L partition (no tool); exit status: the highest rank status",
		help: `options:
  --nodes N        compute nodes (ranks), 1..65536 (default 1)
  --per-io K       compute nodes per I/O node, 8..64 (default 64)
  --partition N    compute nodes in the block, at least --nodes (default: --nodes)
  --mapping M      where the ranks sit: XYZT or TXYZ (rank r on node r, X fastest; one
                   task per node makes T's place moot) or a map file
  --mapfile FILE   a map file: line i is rank i's torus coordinate "X Y Z T" (T = 0);
                   each I/O node's ranks must be consecutive
  --label          prefix output lines with the rank, like srun --label
  --workdir DIR    directory the job's file calls are confined to (default .); the
                   ranks see it as /job (getcwd answers /job; /job/F is the file F)
  --seed S         seed of AT_RANDOM and getrandom (default 0)
  --memory MIB     memory per compute node; brk/mmap past it get ENOMEM, and an MPI call
                   whose requests or unreceived messages would pass it ends the job
                   with MPI_ERR_NO_MEM (default 512)
  --disk-quota MIB how much the job may grow its workdir's files; past it EDQUOT (default 512)
` + envHelp(19) + `  --stats          a summary line on stderr (instructions, virtual time, memory per rank,
                   the environment's size and sha256), the same on every run of one command
                   line, then a line with the host's wall time and the share of
                   instructions that ran as translated amd64 code; under --shards,
                   then a line per process (psets, ranks, instructions, windows, bytes
                   exchanged, host time waiting at window ends)
  --interp         run every rank in the PowerPC interpreter only, never translated
                   code (results are identical; only the host's speed differs)
  --quiet          no progress line (shown on stderr when it is a terminal: ranks loaded,
                   ranks ended, virtual time, simulated instructions per second)
  --progress       the progress line even when stderr is not a terminal
  --listen H:P     publish the job's MPIR proctable and debug interface on H:P (port 0:
                   any; the address is printed on stderr) so that a tool attaches to it
                   while it runs: dpcl.attach("H:P", {secret_file = FILE}) in another
                   dpclsh. The tool attaches at the end of the job's current 10 us quantum
                   of virtual time; the job's output is the same with or without it.
  --secret-file F  the secret a tool must prove (hex, at least 16 bytes; default: the
                   DPCLSH_COMM_SECRET environment variable); others are refused
  --wait-for-tool  with --listen: the job starts only when a tool has attached (at virtual
                   time 0), so a job shorter than the tool's start cannot end before it
  --trace FILE     run under the tool (limpio.trace) and write a Chrome/Perfetto trace:
                   a track per rank grouped by I/O node, a slice per MPI call with its
                   bytes, peer, tag, communicator and callsite file:line, an arrow per
                   point-to-point message; a summary line on stderr. Not with --label,
                   --stats, --interp, --progress or --listen

A rank killed by a signal gets one line on stderr naming the code and its callers (from
the ELF's symbols and DWARF lines; build with -g for file:line), wrapped here:
  dpclsh: rank 3: uncaught signal 11 (Segmentation fault) at pc 0x100004f8 in deref
  (src/mpicrash.c:8); called from step (src/mpicrash.c:16) <- main (src/mpicrash.c:26) <- ...

example:
  dpclsh exec --nodes 64 --per-io 8 --label examples/apps/bin/ring.elf 16 10
`,
		run: runExec,
	})
}

const execUsage = "usage: dpclsh exec [--nodes N] [--per-io K] [--partition N] [--mapping ORDER|FILE] [--mapfile FILE] [--label] [--workdir DIR] [--seed S] [--memory MIB] [--disk-quota MIB] [--env NAME=VALUE]... [--export NAME]... [--stats] [--interp] [--quiet|--progress] [--trace FILE.json] [--listen HOST:PORT [--secret-file FILE] [--wait-for-tool]] PROGRAM.elf [ARGS...]\n"

func runExec(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nodes := fs.Int("nodes", 1, "compute nodes (ranks), 1..65536")
	perIO := fs.Int("per-io", bgl.DefaultPerIO, "compute nodes per I/O node, 8..64")
	partition := fs.Int("partition", 0, "compute nodes in the block, at least --nodes")
	mapping := fs.String("mapping", "", "XYZT, TXYZ or a map file")
	fs.StringVar(mapping, "mapfile", "", "a map file: one \"X Y Z T\" line per rank")
	label := fs.Bool("label", false, "prefix output lines with the rank, like srun --label")
	workdir := fs.String("workdir", ".", "directory the job's file calls are confined to")
	seed := fs.Uint64("seed", 0, "seed of AT_RANDOM and getrandom")
	memory := fs.Int("memory", bgl.DefaultMemoryMB, "MiB of memory per compute node (brk/mmap past it get ENOMEM, MPI calls MPI_ERR_NO_MEM)")
	quota := fs.Int("disk-quota", bgl.DefaultDiskQuotaMB, "MiB the job may grow its workdir's files by (writes past it get EDQUOT)")
	stats := fs.Bool("stats", false, "print a summary line (instructions, virtual time, memory per rank) on stderr")
	quiet := fs.Bool("quiet", false, "no progress line, even on a terminal")
	progress := fs.Bool("progress", false, "the progress line even when stderr is not a terminal")
	interp := fs.Bool("interp", false, "run the interpreter only, never translated code")
	listen := fs.String("listen", "", "publish the job on HOST:PORT for tools to attach")
	secretFile := fs.String("secret-file", "", "file holding the secret attaching tools must prove (hex)")
	waitTool := fs.Bool("wait-for-tool", false, "with --listen: start the job only when a tool has attached")
	trace := fs.String("trace", "", "run under the tool and write a Chrome/Perfetto trace of every MPI call to this JSON file")
	var envs envFlags
	envs.register(fs)
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		if err != nil {
			fmt.Fprintf(stderr, "dpclsh exec: %s\n", optionError(fs, err))
		}
		fmt.Fprint(stderr, execUsage)
		return exitUsage
	}
	env, err := envs.env()
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n%s", err, execUsage)
		return exitUsage
	}
	block := *partition
	if block == 0 {
		block = *nodes
	}
	place, err := bgl.Place(*mapping, *nodes, block)
	if err == nil {
		_, err = bgl.NewPlacedPartition(*nodes, block, *perIO, place)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n%s", err, execUsage)
		return exitUsage
	}
	if *trace != "" {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if err := traceConflicts(set); err != nil {
			fmt.Fprintf(stderr, "dpclsh exec: %v\n%s", err, execUsage)
			return exitUsage
		}
		return runTracedExec(ctx, tracedExec{exe: fs.Arg(0), trace: *trace, args: fs.Args()[1:], env: env,
			nodes: *nodes, perIO: *perIO, partition: block, mapping: *mapping, workdir: *workdir,
			seed: *seed, memoryMB: *memory, quota: *quota}, stdout, stderr)
	}
	cfg := bgl.JobConfig{
		Exe: fs.Arg(0), Args: fs.Args()[1:], Env: env,
		Nodes: *nodes, PerIO: *perIO, Partition: block, Place: place, Label: *label, Workdir: *workdir, Seed: *seed, MemoryMB: *memory, DiskQuotaMB: *quota,
		Stdin: stdin, Stdout: stdout, Stderr: stderr, Interp: *interp, Shard: shardOf(ctx),
	}
	if cfg.Shard == nil && (*progress || !*quiet && isTerminal(stderr)) {
		p := &bgl.Progress{}
		pl := script.StartProgress(stderr, p, "run")
		cfg.Progress, cfg.Stdout, cfg.Stderr = p, pl.Writer(stdout), pl.Writer(stderr)
		defer pl.Stop()
	}
	if *listen != "" {
		pub, err := publishJob(*listen, *secretFile, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "dpclsh exec: %v\n%s", err, execUsage)
			return exitUsage
		}
		defer pub.Close()
		if *waitTool {
			pub.HoldForTool()
			fmt.Fprintf(stderr, "dpclsh: the job waits for a tool to attach\n")
		}
		cfg.Drive = pub.Drive(ctx)
	} else if *secretFile != "" || *waitTool {
		fmt.Fprintf(stderr, "dpclsh exec: --secret-file and --wait-for-tool go with --listen\n%s", execUsage)
		return exitUsage
	}
	res, err := bgl.RunContext(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n", err)
		switch {
		case res == nil:
			return exitError
		case ctx.Err() != nil:
			return interruptedStatus(ctx) // 130 for SIGINT, 143 for SIGTERM, as a shell says
		}
		return max(exitError, res.ExitStatus())
	}
	if *stats {
		fmt.Fprintf(stderr, "dpclsh exec: %s\ndpclsh exec: wall %.2f s, %.1f%% of instructions translated\n",
			res.Summary(), res.Wall.Seconds(), 100*float64(res.Translated)/float64(max(res.Instructions, 1)))
		for _, s := range res.Shards {
			fmt.Fprintf(stderr, "dpclsh exec: %v\n", s)
		}
	}
	return res.ExitStatus()
}

// publishJob listens on addr for tools that know the secret and says where on stderr.
func publishJob(addr, secretFile string, stderr io.Writer) (*runtime.Publisher, error) {
	secret, err := netreduce.LoadSecret(secretFile)
	if err != nil {
		return nil, fmt.Errorf("--listen: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--listen: %w", err)
	}
	pub := runtime.Publish(ln, secret, stderr)
	fmt.Fprintf(stderr, "dpclsh: tools attach at %s\n", pub.Addr())
	return pub, nil
}

// setMemoryLimit gives the collector a soft limit of 3/4 of physical memory unless
// GOMEMLIMIT is set: a 65,536-node job, run by exec or from Lua, lives close to the
// machine's size (DESIGN.md §4).
func setMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kib int64
		if n, _ := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kib); n == 1 {
			debug.SetMemoryLimit(kib << 10 / 4 * 3)
			return
		}
	}
}
