package netreduce

import (
	"os"
	"strings"
	"testing"
)

// TestTCPBackendProcesses: with TCP.Backend every back-end of a flat tree is a process
// of its own that connected to the front-end and authenticated: eight back-ends answer
// with eight process ids, none of them the front-end's, and a killed one is reported
// lost while the others go on.
func TestTCPBackendProcesses(t *testing.T) {
	topo, err := Generate("flat:8")
	if err != nil {
		t.Fatal(err)
	}
	// The in-process handler would answer with this process's id: it must not run.
	n, err := New(topo, Options{Transport: tcpWithBackendProcesses("pid"), Backend: BackendBehaviours["pid"]})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	s, err := n.NewStream(n.Broadcast(), StreamConfig{Up: &FilterSpec{Name: "concat"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Send(FirstAppTag, "%d", 0)
	p := recvWithin(t, s)
	pids := map[int64]bool{}
	for _, v := range p.Values {
		pids[v.(int64)] = true
	}
	if len(p.Values) != 8 || len(pids) != 8 || pids[int64(os.Getpid())] {
		t.Fatalf("back-ends answered with process ids %v; the front-end is %d: want 8 others", p.Values, os.Getpid())
	}
	if err := n.Kill(3); err != nil {
		t.Fatal(err)
	}
	s.Send(FirstAppTag, "%d", 0)
	if p := recvWithin(t, s); len(p.Values) != 7 {
		t.Fatalf("after killing back-end 3: %d answers %v, want 7", len(p.Values), p.Values)
	}
	if lost := n.Lost(); len(lost) != 1 || lost[0] != 3 {
		t.Fatalf("lost back-ends %v, want only 3", lost)
	}
}

// TestTCPBackendProcessesNeedFlatTree: a back-end process connects to the front-end, so
// a tree whose back-ends hang under comm nodes is refused, naming the back-end.
func TestTCPBackendProcessesNeedFlatTree(t *testing.T) {
	topo, _ := Generate("b:2^2")
	_, err := New(topo, Options{Transport: tcpWithBackendProcesses("rank")})
	if err == nil || !strings.Contains(err.Error(), "back-end 0's parent is rank") {
		t.Fatalf("b:2^2 with back-end processes: %v", err)
	}
}
