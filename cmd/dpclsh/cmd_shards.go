package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// shardsFlag, first on the command line, makes this process one of a sharded run started
// by mpiexec or srun (a build with -tags mpi): `mpiexec -n 4 dpclsh --shards exec ...`.
const shardsFlag = "--shards"

const shardsUsage = "usage: mpiexec -n P dpclsh --shards exec [OPTIONS] PROGRAM.elf [ARGS...] (a build with -tags mpi)\n"

// runShards joins the launcher's run and runs the subcommand as one shard of it. Process
// 0 has the streams; the others run their psets silently, so a message is said once.
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
	status := exitUsage
	if len(args) > 0 && args[0] == "exec" {
		ctx, stop := signalContext()
		status = runExec(withShard(ctx, ex), args[1:], os.Stdin, stdout, stderr)
		stop()
	} else {
		fmt.Fprintf(stderr, "dpclsh %s: only exec runs sharded so far\n%s", shardsFlag, shardsUsage)
	}
	if err := ex.Close(); err != nil {
		fmt.Fprintf(stderr, "dpclsh %s: %v\n", shardsFlag, err)
		status = max(status, exitError)
	}
	return status
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
