package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/script"
)

func init() {
	registerSubcommand(subcommand{
		name:  "exec",
		usage: "exec [--nodes N] [--per-io K] [--label] [--workdir DIR] [--seed S] [--stats] [--quiet|--progress] PROGRAM.elf [ARGS...]",
		brief: "run a static PowerPC ELF on a simulated Blue Gene/L partition (no tool); exit status: the highest rank status.\n" +
			"On a terminal, progress (ranks loaded/running/exited, virtual time, simulated instructions per second)\n" +
			"is shown on stderr; with --nodes 1 the output bytes and status are those of qemu-ppc -cpu 440epx.",
		flags: func() *flag.FlagSet { fs, _ := execFlags(); return fs },
		example: `dpclsh exec --nodes 64 --per-io 8 --label examples/apps/bin/ring.elf 16 10
dpclsh exec --nodes 1024 --stats examples/apps/bin/jacobi.elf 32 200`,
		run: runExec,
	})
}

// execOptions are exec's flags.
type execOptions struct {
	nodes, perIO    *int
	label, stats    *bool
	quiet, progress *bool
	workdir         *string
	seed            *uint64
}

func execFlags() (*flag.FlagSet, execOptions) {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o execOptions
	o.nodes = fs.Int("nodes", 1, "compute nodes (ranks), 1..65536")
	o.perIO = fs.Int("per-io", bgl.DefaultPerIO, "compute nodes per I/O node, 8..64")
	o.label = fs.Bool("label", false, "prefix output lines with the rank, like srun --label")
	o.workdir = fs.String("workdir", ".", "directory the job's file calls are confined to")
	o.seed = fs.Uint64("seed", 0, "seed of AT_RANDOM and getrandom")
	o.stats = fs.Bool("stats", false, "print a summary line (instructions, virtual time, memory per rank) on stderr")
	o.quiet = fs.Bool("quiet", false, "no progress display, even on a terminal")
	o.progress = fs.Bool("progress", false, "show progress on stderr even when it is not a terminal")
	return fs, o
}

func runExec(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, o := execFlags()
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		if errors.Is(err, flag.ErrHelp) {
			writeSubcommandHelp(stdout, subcommands["exec"])
			return exitOK
		}
		if err == nil {
			err = errors.New("no PROGRAM.elf")
		}
		return usageError(stderr, "exec", err)
	}
	nodes, perIO := o.nodes, o.perIO
	if _, err := bgl.NewPartition(*nodes, *perIO); err != nil {
		return usageError(stderr, "exec", err)
	}
	cfg := bgl.JobConfig{
		Exe: fs.Arg(0), Args: fs.Args()[1:], Env: os.Environ(),
		Nodes: *nodes, PerIO: *perIO, Label: *o.label, Workdir: *o.workdir, Seed: *o.seed,
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
	}
	if *o.progress || !*o.quiet && isTerminal(stderr) {
		p := &bgl.Progress{}
		pl := script.StartProgress(stderr, p, "run")
		cfg.Progress, cfg.Stdout, cfg.Stderr = p, pl.Writer(stdout), pl.Writer(stderr)
		defer pl.Stop()
	}
	res, err := bgl.RunContext(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n", err)
		switch {
		case res == nil:
			return exitError
		case ctx.Err() != nil:
			return 128 + 2 // interrupted, as a shell reports SIGINT
		}
		return max(exitError, res.ExitStatus())
	}
	if *o.stats {
		fmt.Fprintf(stderr, "dpclsh exec: %s\n", res.Summary())
	}
	return res.ExitStatus()
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
