package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/dpclsh/dpclsh/bgl"
)

func init() {
	registerSubcommand(subcommand{
		name:  "exec",
		usage: "exec [--nodes N] [--per-io K] [--label] PROGRAM.elf [ARGS...]",
		brief: "run a static PowerPC ELF on a simulated Blue Gene/L partition (no tool); exit status: the highest rank status",
		run:   runExec,
	})
}

const execUsage = "usage: dpclsh exec [--nodes N] [--per-io K] [--label] [--workdir DIR] [--seed S] [--stats] PROGRAM.elf [ARGS...]\n"

func runExec(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	nodes := fs.Int("nodes", 1, "compute nodes (ranks), 1..65536")
	perIO := fs.Int("per-io", bgl.DefaultPerIO, "compute nodes per I/O node, 8..64")
	label := fs.Bool("label", false, "prefix output lines with the rank, like srun --label")
	workdir := fs.String("workdir", ".", "directory the job's file calls are confined to")
	seed := fs.Uint64("seed", 0, "seed of AT_RANDOM and getrandom")
	stats := fs.Bool("stats", false, "print a summary line (instructions, virtual time, memory per rank) on stderr")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		if err != nil {
			fmt.Fprintf(stderr, "dpclsh exec: %v\n", err)
		}
		fmt.Fprint(stderr, execUsage)
		return exitUsage
	}
	if _, err := bgl.NewPartition(*nodes, *perIO); err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n%s", err, execUsage)
		return exitUsage
	}
	cfg := bgl.JobConfig{
		Exe: fs.Arg(0), Args: fs.Args()[1:], Env: os.Environ(),
		Nodes: *nodes, PerIO: *perIO, Label: *label, Workdir: *workdir, Seed: *seed,
		Stdin: stdin, Stdout: stdout, Stderr: stderr,
	}
	res, err := bgl.RunContext(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n", err)
		if res == nil {
			return exitError
		}
	}
	if *stats {
		fmt.Fprintf(stderr, "dpclsh exec: %s\n", res.Summary())
	}
	return res.ExitStatus()
}
