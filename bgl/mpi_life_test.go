package bgl_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/bgl"
)

// runMisuse runs mpimisuse.elf in mode on ranks ranks. A job that has not ended after a
// minute of host time is a livelock: the test cancels it and fails instead of hanging.
func runMisuse(t *testing.T, mode string, ranks int) (*bgl.RunResult, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	res, err := bgl.RunContext(ctx, bgl.JobConfig{Exe: "testdata/bin/mpimisuse.elf", Args: []string{mode},
		Nodes: ranks, PerIO: 8, Stdout: &out, Stderr: &errb})
	if ctx.Err() != nil {
		t.Fatalf("%s on %d ranks did not end (livelock); stderr:\n%s", mode, ranks, errb.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return res, out.String(), errb.String()
}

// TestMPILifeCycle: MPI calls before MPI_Init, a second MPI_Init and calls after
// MPI_Finalize end the job with an MPI-style error naming rank and call, as MPICH does.
func TestMPILifeCycle(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"noinit", "rank 0: MPI_Send at pc"},
		{"noinit", "MPI_Send called before MPI_Init (MPI_ERR_OTHER)"},
		{"init2", "MPI_Init called a second time"},
		{"afterfin", "MPI_Barrier called after MPI_Finalize (MPI_ERR_OTHER)"},
	} {
		for _, ranks := range []int{2, 7} {
			res, _, stderr := runMisuse(t, tt.mode, ranks)
			if res.ExitStatus() == 0 || !strings.Contains(stderr, tt.want) {
				t.Errorf("%s on %d ranks: status %d, stderr %q; want an error with %q", tt.mode, ranks, res.ExitStatus(), stderr, tt.want)
			}
		}
	}
}

// TestFinalizeWithUnreceivedMessages: rank 0 sends two messages rank 1 never receives and
// both call MPI_Finalize. MPICH finishes; the engine used to wake rank 1 at the same
// virtual time forever. Now the job ends normally with one warning naming the messages.
func TestFinalizeWithUnreceivedMessages(t *testing.T) {
	for _, ranks := range []int{2, 7} {
		res, out, stderr := runMisuse(t, "unreceived", ranks)
		if res.ExitStatus() != 0 {
			t.Errorf("%d ranks: status %d, stderr %q", ranks, res.ExitStatus(), stderr)
		}
		if strings.Count(out, "unreceived returned") != ranks {
			t.Errorf("%d ranks: output %q", ranks, out)
		}
		want := "dpclsh: warning: MPI_Finalize: 2 message(s) sent but never received: " +
			"rank 0 -> rank 1 (tag 7, 16 bytes), rank 0 -> rank 1 (tag 8, 8 bytes)\n"
		if strings.Count(stderr, "warning") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%d ranks: stderr %q, want %q once", ranks, stderr, want)
		}
	}
}
