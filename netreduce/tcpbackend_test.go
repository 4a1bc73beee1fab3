package netreduce

import (
	"os"
	"testing"
)

// backendPIDs runs one concat wave and returns the values, checking that there are
// want of them, all distinct and none the front-end's process id.
func backendPIDs(t *testing.T, s *Stream, want int) []any {
	t.Helper()
	s.Send(FirstAppTag, "%d", 0)
	p := recvWithin(t, s)
	pids := map[int64]bool{}
	for _, v := range p.Values {
		pids[v.(int64)] = true
	}
	if len(p.Values) != want || len(pids) != want || pids[int64(os.Getpid())] {
		t.Fatalf("back-ends answered with process ids %v; the front-end is %d: want %d others", p.Values, os.Getpid(), want)
	}
	return p.Values
}

// TestTCPBackendProcesses: with TCP.Backend every back-end is a process of its own that
// connected to its parent (the front-end in a flat tree, comm processes in b:2^3) and
// authenticated: the back-ends answer with as many process ids, none of them the
// front-end's, and a killed one is reported lost while the others go on.
func TestTCPBackendProcesses(t *testing.T) {
	for _, spec := range []string{"flat:8", "b:2^3"} {
		topo, err := Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		// The in-process handler would answer with this process's id: it must not run.
		n, err := New(topo, Options{Transport: tcpWithBackendProcesses("pid"), Backend: BackendBehaviours["pid"]})
		if err != nil {
			t.Fatal(err)
		}
		s, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "concat"}})
		if err != nil {
			t.Fatal(err)
		}
		backendPIDs(t, s, 8)
		if err := n.Kill(3); err != nil {
			t.Fatal(err)
		}
		backendPIDs(t, s, 7)
		if lost := n.Lost(); len(lost) != 1 || lost[0] != 3 {
			t.Fatalf("%s: lost back-ends %v, want only 3", spec, lost)
		}
		n.Close()
	}
}
