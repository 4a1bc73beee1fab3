package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/dpclsh/dpclsh/bgl/shard"
)

// shardedScript is the probe-heavy session of the sharded tests, with its arguments:
// jacobi on 32 ranks (four psets) for 4 sweeps.
var shardedScript = []string{"testdata/shards_probes.lua", "32", "4"}

// runShardedInProcess runs args as a sharded run of p in-process shards (bgl/shard's twin
// of mpiexec) and returns process 0's stdout, stderr and status.
func runShardedInProcess(t *testing.T, p int, args []string) (stdout, stderr string, status int) {
	t.Helper()
	stdout, stderr, status, _ = runShardedInProcessStats(t, p, args)
	return stdout, stderr, status
}

// runShardedInProcessStats is runShardedInProcess that also returns every process's
// exchange counters.
func runShardedInProcessStats(t *testing.T, p int, args []string) (stdout, stderr string, status int, stats []shard.Stats) {
	t.Helper()
	exs := shard.InProcess(p)
	outs, errs := make([]bytes.Buffer, p), make([]bytes.Buffer, p)
	statuses := make([]int, p)
	var wg sync.WaitGroup
	for i := range exs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = runSharded(exs[i], args, strings.NewReader(""), &outs[i], &errs[i])
			exs[i].Close()
		}()
	}
	wg.Wait()
	for i := 1; i < p; i++ {
		if statuses[i] != statuses[0] {
			t.Errorf("%d shards %v: process %d ended with status %d, process 0 with %d", p, args, i, statuses[i], statuses[0])
		}
	}
	for _, ex := range exs {
		stats = append(stats, ex.Stats())
	}
	return outs[0].String(), errs[0].String(), statuses[0], stats
}

// TestShardedProbeScriptIsByteIdentical runs a Lua session with probes through the tool's
// tree (a counting probe summed in the tree, a histogram, limpio's profile probes on
// every MPI function, a one-shot snippet, probe data read from every rank) in one
// process and over 2 and 4 in-process shards: what process 0 prints must be the bytes of
// one process, and the probe data must have crossed shards (waves count ranks of every
// shard).
func TestShardedProbeScriptIsByteIdentical(t *testing.T) {
	var wantOut, wantErr bytes.Buffer
	wantStatus := run(append([]string{"--quiet"}, shardedScript...), strings.NewReader(""), &wantOut, &wantErr)
	want := wantOut.String()
	for _, line := range []string{"wave 1: 32 calls on 16 ranks", "job: 32 exited, 0 faulted", "counting probe: 64 sent, 64 delivered, 4 waves", "#9-14,17-22 "} {
		if !strings.Contains(want, line) || wantStatus != 0 {
			t.Fatalf("one process printed no %q (status %d):\n%s\n%s", line, wantStatus, want, wantErr.String())
		}
	}
	for _, p := range []int{2, 4} {
		out, errOut, status := runShardedInProcess(t, p, shardedScript)
		if out != want || errOut != wantErr.String() || status != wantStatus {
			t.Errorf("%d shards: status %d (want %d)\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
				p, status, wantStatus, out, want, errOut, wantErr.String())
		}
	}
}

// TestShardedRefusesWhatDoesNotRunAcrossShards: what a sharded run cannot do yet says so,
// naming it, and every process stops alike.
func TestShardedRefusesWhatDoesNotRunAcrossShards(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		want       string
		wantStatus int
	}{
		{[]string{"disasm", "x.elf"}, "dpclsh --shards: disasm does not run sharded yet: exec, profile, trace and Lua scripts do", exitUsage},
		{[]string{"-"}, "a script from standard input does not run sharded", exitUsage},
		{[]string{"-i"}, "the interactive shell does not run sharded: give a script", exitUsage},
		{[]string{"-e", `bgl.run("../../examples/apps/bin/hello_mpi.elf")`}, "bgl.run does not run across shards yet (run without --shards)", exitError},
		{[]string{"-e", `dpcl.attach("localhost:1")`}, "dpcl.attach does not run across shards yet (run without --shards)", exitError},
		{[]string{"-e", `local a = dpcl.launch("../../examples/apps/bin/jacobi.elf", {nodes = 16, per_io = 8, args = {"16", "1"}})
			a:sample{hz = 1000}`}, "sampling does not run across shards yet (run without --shards)", exitError},
	} {
		_, errOut, status := runShardedInProcess(t, 2, tc.args)
		if !strings.Contains(errOut, tc.want) || status != tc.wantStatus {
			t.Errorf("2 shards %v: status %d (want %d), stderr %q, want %q in it", tc.args, status, tc.wantStatus, errOut, tc.want)
		}
	}
}
