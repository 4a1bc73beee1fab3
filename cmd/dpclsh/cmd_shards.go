package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/dpclsh/dpclsh/bgl/shard"
	"github.com/dpclsh/dpclsh/script"
)

// shardsFlag, first on the command line, makes this process one of a sharded run started
// by mpiexec or srun (a build with -tags mpi): `mpiexec -n 4 dpclsh --shards exec ...`.
const shardsFlag = "--shards"

const shardsUsage = "usage: mpiexec -n P dpclsh --shards exec|profile|trace [OPTIONS] PROGRAM.elf [ARGS...]\n" +
	"       mpiexec -n P dpclsh --shards [-v] [--stats] [-e CHUNK]... SCRIPT.lua [ARGS...]\n" +
	"       (a build with -tags mpi)\n"

// runShards joins the launcher's run and runs the subcommand or the script as one shard
// of it. Process 0 has the streams; the others run their psets silently, so a message is
// said once.
func runShards(args []string) int {
	ex, err := shard.OpenMPI()
	if err != nil {
		fmt.Fprintf(os.Stderr, "dpclsh %s: %v\n", shardsFlag, err)
		return exitError
	}
	var stdout, stderr io.Writer = os.Stdout, os.Stderr
	if ex.Rank() != 0 {
		stdout, stderr = io.Discard, io.Discard
	}
	status := runSharded(ex, args, os.Stdin, stdout, stderr)
	if err := ex.Close(); err != nil {
		fmt.Fprintf(stderr, "dpclsh %s: %v\n", shardsFlag, err)
		status = max(status, exitError)
	}
	return status
}

// shardedSubcommands run as shards of a run: exec by bgl's sharded job; profile, trace
// and exec --trace by a sharded Lua session (their chunk runs whole in every process).
var shardedSubcommands = map[string]bool{"exec": true, "profile": true, "trace": true}

// runSharded runs a subcommand or a Lua script as the shard ex of a run. A script runs whole in
// every process, the same session in each (script.SetShard): every decision it takes
// depends on virtual time and on what the job and the tool's tree hand it, which every
// process has alike, so each launches the same job and sends the same commands.
func runSharded(ex shard.Exchanger, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub, ok := subcommands[args[0]]; ok {
			if !shardedSubcommands[args[0]] {
				fmt.Fprintf(stderr, "dpclsh %s: %s does not run sharded yet: exec, profile, trace and Lua scripts do\n%s", shardsFlag, args[0], shardsUsage)
				return exitUsage
			}
			ctx, stop := signalContext()
			defer stop()
			return sub.run(withShard(ctx, ex), args[1:], stdin, stdout, stderr)
		}
	}
	o, err := parseArgs(args)
	if err == nil {
		err = shardedLuaOptions(o)
	}
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh %s: %v\n%s", shardsFlag, err, shardsUsage)
		return exitUsage
	}
	o.shard, o.quiet = ex, true
	return runLua(o, stdin, stdout, stderr)
}

// shardedLuaOptions refuses what a sharded Lua session cannot be: every process must
// read the same script, and nothing typed at a prompt reaches them all.
func shardedLuaOptions(o options) error {
	switch {
	case o.help || o.version:
		return fmt.Errorf("--help and --version do not run sharded")
	case o.script == "-":
		return fmt.Errorf("a script from standard input does not run sharded (standard input reaches process 0 only): give its file")
	case o.interact || o.script == "" && len(o.chunks) == 0:
		return fmt.Errorf("the interactive shell does not run sharded: give a script")
	case o.progress:
		return fmt.Errorf("--progress does not run sharded")
	}
	return nil
}

type shardKey struct{}

func withShard(ctx context.Context, ex shard.Exchanger) context.Context {
	return context.WithValue(ctx, shardKey{}, ex)
}

// shardOf is the run's Exchanger when this process is a shard, else nil.
func shardOf(ctx context.Context) shard.Exchanger {
	ex, _ := ctx.Value(shardKey{}).(shard.Exchanger)
	return ex
}

// shardSession makes s a process of ctx's sharded run, when there is one: the
// subcommand's chunk then runs whole in every process, its job spread over them.
func shardSession(ctx context.Context, s *script.Session) {
	if ex := shardOf(ctx); ex != nil {
		script.SetShard(s, ex)
	}
}

// processZero reports whether this process speaks for ctx's run: alone, or process 0 of
// a sharded run (the one whose streams get output).
func processZero(ctx context.Context) bool {
	ex := shardOf(ctx)
	return ex == nil || ex.Rank() == 0
}
