package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestShardsUnderMpiexecAreByteIdentical builds dpclsh with -tags mpi and runs exec
// command lines (a program without MPI, hello_mpi, jacobi) as mpiexec -n 2 and -n 4
// shards, on loopback: stdout, stderr (--stats' summary included) and the status must be
// those of the one-process run. The per-process lines of --stats (host time) are the only
// difference allowed.
func TestShardsUnderMpiexecAreByteIdentical(t *testing.T) {
	mpiexec, tagged := mpiTagged(t)
	run := commandRunner(t, 90*time.Second)
	for _, tc := range []struct {
		job        []string
		want       string // a line the one-process run prints
		wantStatus int
	}{
		{[]string{"--nodes", "32", "--per-io", "8", "--label", "../../bgl/testdata/bin/staggered.elf"}, "31: rank 31 step 0 done", 2},
		// MPI across shards: messages and collectives cross processes at round ends.
		{[]string{"--nodes", "32", "--per-io", "8", "../../examples/apps/bin/hello_mpi.elf"}, "hello from rank 31 of 32", 0},
		{[]string{"--nodes", "32", "--per-io", "8", "--label", "../../examples/apps/bin/jacobi.elf", "32", "4"}, "0: final: u(", 0},
	} {
		job := append([]string{"exec", "--quiet", "--stats"}, tc.job...)
		wantOut, wantErr, wantStatus := run(binary, job...)
		wantErr = withoutHostTime(wantErr)
		if !strings.Contains(wantOut, tc.want) || wantStatus != tc.wantStatus {
			t.Fatalf("the one-process run of %v printed %q, status %d", tc.job, wantOut, wantStatus)
		}
		for _, n := range []int{2, 4} {
			args := append([]string{"-n", fmt.Sprint(n), tagged, "--shards"}, job...)
			out, errOut, status := run(mpiexec, args...)
			shards := strings.Count(errOut, fmt.Sprintf(" of %d: psets ", n))
			if out != wantOut || withoutHostTime(errOut) != wantErr || status != wantStatus || shards != n {
				t.Errorf("mpiexec -n %d %v: status %d (want %d), %d shard lines\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
					n, tc.job, status, wantStatus, shards, out, wantOut, withoutHostTime(errOut), wantErr)
			}
		}
	}
}

// withoutHostTime drops the lines of --stats that hold host time: the wall line and the
// per-process lines.
func withoutHostTime(stderr string) string {
	var keep []string
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if strings.HasPrefix(l, "dpclsh exec: wall ") || strings.HasPrefix(l, "dpclsh exec: shard ") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "")
}

// mpiTagged finds mpiexec and builds dpclsh with -tags mpi; it skips the test (fails it
// under DPCL_REQUIRE_ORACLES=1) when MPICH is missing.
func mpiTagged(t *testing.T) (mpiexec, tagged string) {
	t.Helper()
	mpiexec = oracletest.Require(t, oracletest.MPIExec)
	oracletest.Require(t, "pkg-config")
	taggedOnce.Do(func() {
		taggedBinary = filepath.Join(filepath.Dir(binary), "dpclsh-mpi")
		if out, err := exec.Command("go", "build", "-tags", "mpi", "-o", taggedBinary, ".").CombinedOutput(); err != nil {
			taggedErr = fmt.Errorf("go build -tags mpi: %v\n%s", err, out)
		}
	})
	if taggedErr != nil {
		t.Fatal(taggedErr)
	}
	return mpiexec, taggedBinary
}

// The tagged binary is built once per test binary, beside the untagged one (TestMain
// removes both): each build takes tens of seconds.
var (
	taggedOnce   sync.Once
	taggedBinary string
	taggedErr    error
)

// commandRunner runs a command to its end (limit at most) and returns its streams and
// status.
func commandRunner(t *testing.T, limit time.Duration) func(name string, args ...string) (stdout, stderr string, status int) {
	return func(name string, args ...string) (stdout, stderr string, status int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		var o, e bytes.Buffer
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("%s %v did not end:\n%s", name, args, e.String())
		}
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return o.String(), e.String(), cmd.ProcessState.ExitCode()
	}
}

// TestShardedScriptUnderMpiexecIsByteIdentical runs the probe-heavy Lua session
// (testdata/shards_probes.lua: a counting probe summed in the tree, a histogram,
// limpio's profile, a one-shot snippet, probe data read back) as mpiexec -n 2 and -n 4
// shards of the mpi-tagged build: stdout, stderr and status must be one process's.
func TestShardedScriptUnderMpiexecIsByteIdentical(t *testing.T) {
	mpiexec, tagged := mpiTagged(t)
	// A debug exchange per daemon and command, and one per quantum: on a loaded two-core
	// box four MPI processes polling in their collectives take minutes.
	run := commandRunner(t, 10*time.Minute)
	// Smaller than the in-process test's run (16 ranks, 2 sweeps): the same probes and
	// tree, a tenth of the exchanges.
	script := []string{shardedScript[0], "16", "2"}
	wantOut, wantErr, wantStatus := run(binary, append([]string{"--quiet"}, script...)...)
	if !strings.Contains(wantOut, "wave 2: 16 calls on 8 ranks") || wantStatus != 0 {
		t.Fatalf("the one-process run printed %q, status %d\n%s", wantOut, wantStatus, wantErr)
	}
	// Two processes: four run in-process in TestShardedProbeScriptIsByteIdentical and under
	// mpiexec for exec in TestShardsUnderMpiexecAreByteIdentical; four MPI processes
	// polling on two cores cost this test most of its time.
	for _, n := range []int{2} {
		args := append([]string{"-n", fmt.Sprint(n), tagged, "--shards"}, script...)
		out, errOut, status := run(mpiexec, args...)
		if out != wantOut || errOut != wantErr || status != wantStatus {
			t.Errorf("mpiexec -n %d %v: status %d (want %d)\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
				n, script, status, wantStatus, out, wantOut, errOut, wantErr)
		}
	}
}
