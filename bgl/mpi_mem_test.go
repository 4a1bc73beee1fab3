package bgl_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
)

// runMisuseMem runs mpimisuse.elf MODE on 2 ranks of 16 MiB each.
func runMisuseMem(t *testing.T, mode string) (*bgl.RunResult, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	res, err := bgl.RunContext(ctx, bgl.JobConfig{Exe: "testdata/bin/mpimisuse.elf", Args: []string{mode},
		Nodes: 2, MemoryMB: 16, Stdout: &out, Stderr: &errb})
	if ctx.Err() != nil {
		t.Fatalf("%s did not end; stderr:\n%s", mode, errb.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, out.String(), errb.String()
}

// TestMPIMemoryFlood: requests nobody completes and messages nobody receives count
// against the node's memory, so a flood of MPI_Isend or MPI_Irecv ends the job with
// MPI_ERR_NO_MEM (34) and one line naming the rank, the call, the message and the memory
// figures, instead of growing the host without bound.
func TestMPIMemoryFlood(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"isendflood", "dpclsh: rank 1: MPI_Isend at pc 0x%: out of memory for a message of 16384 bytes to rank 0: " +
			"~ more bytes exceed the node's memory (~ KiB held by MPI for this rank, ~ KiB committed of 16 MiB) " +
			"(MPI_ERR_NO_MEM): ending the job"},
		{"irecvflood", "dpclsh: rank 1: MPI_Irecv at pc 0x%: out of memory for a receive request from rank 0: " +
			"256 more bytes exceed the node's memory (~ KiB held by MPI for this rank, ~ KiB committed of 16 MiB) " +
			"(MPI_ERR_NO_MEM): ending the job"},
	} {
		res, _, stderr := runMisuseMem(t, tt.mode)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if len(lines) != 1 || !matchMisuse(lines[0], tt.want) {
			t.Errorf("%s: stderr %q, want one line like %q", tt.mode, stderr, tt.want)
		}
		for r, s := range res.Status {
			if s != 34 {
				t.Errorf("%s: rank %d status %d, want 34 (MPI_ERR_NO_MEM)", tt.mode, r, s)
			}
		}
	}
}

// TestMPIMemoryChurn: a correct exchange of 64 MiB in 16 KiB messages fits in 16 MiB
// per node, since a message's memory is given back when it is received and a request's
// when it completes.
func TestMPIMemoryChurn(t *testing.T) {
	res, stdout, stderr := runMisuseMem(t, "churn")
	if st := res.ExitStatus(); st != 0 || stderr != "" {
		t.Fatalf("churn: status %d, stderr %q", st, stderr)
	}
	if !strings.Contains(stdout, "churn: 2048 of 2048 rounds intact\n") {
		t.Errorf("churn: stdout %q, want every round intact", stdout)
	}
}
