package bgl_test

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
)

// runMPIWin runs mpiwin.c on 3 ranks and returns its stdout.
func runMPIWin(t *testing.T) string {
	t.Helper()
	var out, errb bytes.Buffer
	res, err := bgl.Run(bgl.JobConfig{Exe: "testdata/bin/mpiwin.elf", Nodes: 3, PerIO: 8, Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	if st := res.ExitStatus(); st != 0 {
		t.Fatalf("status %d\nstdout:\n%s\nstderr:\n%s", st, out.String(), errb.String())
	}
	return out.String()
}

// TestMPIWinSemantics: a Put reaches the target at the fence or unlock that completes it
// and not before; Post/Start/Complete/Wait delivers by Wait; accumulates, fetch-and-op
// and compare-and-swap from every rank are atomic, with derived datatypes at the target;
// errors on a window with MPI_ERRORS_RETURN return their classes (MPI_ERR_RMA_RANGE,
// MPI_ERR_RMA_SYNC, and MPI_ERR_RMA_FLAVOR for a shared window wider than a node); a Put
// may run across adjacent regions of a dynamic window, not past them.
func TestMPIWinSemantics(t *testing.T) {
	out := runMPIWin(t)
	for _, want := range []string{
		"visible: rank 1 before the fence: 0",
		"visible: rank 1 after the fence: 1 2 3 4",
		"visible: rank 2 before the unlock: 0",
		"visible: rank 2 after the unlock: 40",
		"pscw: rank 0 after wait: 8 10",
		"atomics: counter 3, strided sums 30 300, swapped in 1",
		"atomics: rank 0 fetched 0, read back 30 300",
		"atomics: rank 1 fetched 1, read back 30 300",
		"atomics: rank 2 fetched 2, read back 30 300",
		"errors: rank 1 put past the window: 55",
		"errors: rank 2 unlock without a lock: 50",
		"errors: rank 0 shared window over 3 ranks: 58",
		"dynamic: rank 1 put past the regions: 55",
		"dynamic: rank 0 regions hold 5 6 7 8",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("no line %q in\n%s", want, out)
		}
	}
}

// TestMPIWinCost: the unlock that completes a 4096-byte Put pays a torus round trip and
// the bytes at TorusNSPerByte, and the run's times do not change from one run to the next.
func TestMPIWinCost(t *testing.T) {
	re := regexp.MustCompile(`cost: unlock of 4096 bytes took (\d+) ns`)
	m := re.FindStringSubmatch(runMPIWin(t))
	if m == nil {
		t.Fatal("no cost line")
	}
	ns, _ := strconv.Atoi(m[1])
	low := 2*bgl.TorusLatencyNS + 4096*bgl.TorusNSPerByte + bgl.MPICallNS
	if ns < low || ns > low+2*bgl.TorusLatencyNS {
		t.Errorf("unlock took %d ns, want %d..%d", ns, low, low+2*bgl.TorusLatencyNS)
	}
	if again := re.FindStringSubmatch(runMPIWin(t)); again == nil || again[1] != m[1] {
		t.Errorf("second run: %v, first %s ns", again, m[1])
	}
}
