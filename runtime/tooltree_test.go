package runtime

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

// sendOnce runs loop.elf on 64 ranks (8 per I/O node) with a probe on step's entry and
// returns the handle's stats.
func sendOnce(t *testing.T, topo string, costs *Costs, filter *netreduce.FilterSpec) Stats {
	t.Helper()
	a, err := Launch(Options{Exe: loopELF, Args: []string{"4"}, Nodes: 64, PerIO: 8, Topology: topo, Costs: costs})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)), InstallOptions{Filter: filter})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	a.Start()
	run(t, a)
	st := h.Stats()
	if st.Sent != 64*4 || st.Delivered != st.Sent {
		t.Fatalf("%s: sent %d, delivered %d", topo, st.Sent, st.Delivered)
	}
	return st
}

// TestTreeShapeAndFilterCostTime checks that where and when data arrives depends on the
// tree: more levels arrive later, the front-end is busy for fewer messages with a sum
// filter, and the costs given are the costs used.
func TestTreeShapeAndFilterCostTime(t *testing.T) {
	flat := sendOnce(t, "b:8", nil, nil)
	deep := sendOnce(t, "b:2", nil, nil)
	if deep.First <= flat.First {
		t.Errorf("first arrival: b:2 (3 comm levels) at %d, b:8 (none) at %d", deep.First, flat.First)
	}
	sum := sendOnce(t, "b:8", nil, &netreduce.FilterSpec{Name: "sum"})
	if sum.Busy*4 > flat.Busy {
		t.Errorf("front-end busy %d ns with sum, %d without: want far less", sum.Busy, flat.Busy)
	}
	slow, _ := NamedCosts("default")
	if err := slow.Set("fe_recv_ns", 1e6); err != nil {
		t.Fatal(err)
	}
	if st := sendOnce(t, "b:8", slow, nil); st.Last-st.First < 255*1e6 {
		t.Errorf("256 messages at 1 ms each at the front-end took %d ns", st.Last-st.First)
	}
}

// TestFrontEndReceiveScansEveryChild: the front-end's event loop polls one connection
// per child on each receive, so the same 256 messages cost it fe_poll_conn_ns more per
// message for each extra child: b:8 puts the 8 daemons under it, b:2 two comm nodes.
func TestFrontEndReceiveScansEveryChild(t *testing.T) {
	c, _ := NamedCosts("default")
	wide := sendOnce(t, "b:8", c, nil)
	narrow := sendOnce(t, "b:2", c, nil)
	poll, _ := c.Get("fe_poll_conn_ns")
	if want := uint64(256 * (8 - 2) * poll); wide.Busy-narrow.Busy != want || want == 0 {
		t.Errorf("front-end busy %d ns with 8 children, %d with 2: want %d more", wide.Busy, narrow.Busy, want)
	}
}

// TestJobTopologyFile reads an MRNet topology file for the levels above the I/O nodes.
func TestJobTopologyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.top")
	text := "fe:0 => c:0 c:1 ;\nc:0 => d:0 d:1 d:2 d:3 ;\nc:1 => d:4 d:5 d:6 d:7 ;\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	st := sendOnce(t, path, nil, nil)
	if st.First == 0 {
		t.Fatal("no arrival time")
	}
	if _, err := Launch(Options{Exe: loopELF, Nodes: 32, PerIO: 8, Topology: path}); err == nil ||
		!strings.Contains(err.Error(), "8 back-ends, but the job has 4 I/O nodes") {
		t.Fatalf("mismatched topology: %v", err)
	}
}

func TestCostsRefuseBadKeys(t *testing.T) {
	c, _ := NamedCosts("ubgl")
	for _, tc := range []struct {
		key string
		v   float64
		why string
	}{{"fe_recv", 1, "unknown parameter"}, {"fe_recv_ns", -1, "not a non-negative"}} {
		err := c.Set(tc.key, tc.v)
		var ce *CostError
		if !errors.As(err, &ce) || ce.Key != tc.key || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("Set(%q, %v) = %v", tc.key, tc.v, err)
		}
	}
	if _, err := NamedCosts("bgq"); err == nil {
		t.Error("unknown set accepted")
	}
}

// TestUnbalancedTopologyNamesDaemonsByIONode: a daemon's number is its I/O node's, also
// when daemons sit at different depths.
func TestUnbalancedTopologyNamesDaemonsByIONode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "u.top")
	if err := os.WriteFile(path, []byte("fe:0 => c:0 d:2 ;\nc:0 => d:0 d:1 ;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Launch(Options{Exe: loopELF, Nodes: 24, PerIO: 8, Topology: path})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	parents := map[string]string{}
	for _, n := range a.TreeNodes() {
		parents[n.Name] = n.Parent
	}
	if parents["daemon of I/O node 2"] != "front-end" || parents["daemon of I/O node 0"] != "comm node 0" {
		t.Fatalf("parents %v", parents)
	}
}
