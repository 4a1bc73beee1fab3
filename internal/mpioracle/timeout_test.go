package mpioracle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunTimeoutEndsTheJob runs the corpus's deadlock program natively on purpose, with a
// short timeout: the run must come back as timed out, with the lines printed before the
// ranks blocked, and leave no rank behind.
func TestRunTimeoutEndsTheJob(t *testing.T) {
	t.Parallel()
	bin := Build(t, "../../bgl/testdata/mpi/deadlock.c", "../../bgl/testdata/mpi")
	res := Run(t, bin, 2, nil, 2*time.Second)
	if !res.TimedOut || res.Status != -1 {
		t.Fatalf("deadlock run: timed out %v, status %d; want a timeout", res.TimedOut, res.Status)
	}
	if got := Canonical(0, res.Lines); !strings.Contains(got, "[1] rank 1: receiving from rank 0 first") {
		t.Errorf("lines before the deadlock missing:\n%s", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for left := processesOf(bin); len(left) > 0; left = processesOf(bin) {
		if time.Now().After(deadline) {
			t.Fatalf("ranks left running after the timeout: pids %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processesOf lists the pids whose executable is bin.
func processesOf(bin string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && exe == bin {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
