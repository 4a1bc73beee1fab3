package main

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// TestShardsUnderMpiexecAreByteIdentical builds dpclsh with -tags mpi and runs one exec
// command line as mpiexec -n 2 and -n 4 shards, on loopback: stdout, stderr (--stats'
// summary included) and the status must be those of the one-process run. The per-process
// lines of --stats (host time) are the only difference allowed.
func TestShardsUnderMpiexecAreByteIdentical(t *testing.T) {
	mpiexec := oracletest.Require(t, oracletest.MPIExec)
	oracletest.Require(t, "pkg-config")
	tagged := filepath.Join(t.TempDir(), "dpclsh-mpi")
	if out, err := exec.Command("go", "build", "-tags", "mpi", "-o", tagged, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags mpi: %v\n%s", err, out)
	}
	job := []string{"exec", "--quiet", "--stats", "--nodes", "32", "--per-io", "8", "--label", "../../bgl/testdata/bin/staggered.elf"}
	run := func(name string, args ...string) (stdout, stderr string, status int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
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
	wantOut, wantErr, wantStatus := run(binary, job...)
	wantErr = withoutHostTime(wantErr)
	if !strings.Contains(wantOut, "31: rank 31 step 0 done") || wantStatus != 2 {
		t.Fatalf("the one-process run printed %q, status %d", wantOut, wantStatus)
	}
	for _, n := range []int{2, 4} {
		args := append([]string{"-n", fmt.Sprint(n), tagged, "--shards"}, job...)
		out, errOut, status := run(mpiexec, args...)
		shards := strings.Count(errOut, fmt.Sprintf(" of %d: psets ", n))
		if out != wantOut || withoutHostTime(errOut) != wantErr || status != wantStatus || shards != n {
			t.Errorf("mpiexec -n %d: status %d (want %d), %d shard lines\nstdout %q\nwant   %q\nstderr %q\nwant   %q",
				n, status, wantStatus, shards, out, wantOut, withoutHostTime(errOut), wantErr)
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
