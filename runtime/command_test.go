package runtime

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
)

// unevenTree is a topology file whose four daemons stand at depths 1, 2, 3 and 3.
const unevenTree = "fe:0 => d:0 c:0 ;\nc:0 => d:1 c:1 ;\nc:1 => d:2 d:3 ;\n"

func launchUneven(t *testing.T, costs *Costs, args ...string) *App {
	t.Helper()
	path := filepath.Join(t.TempDir(), "uneven.top")
	if err := os.WriteFile(path, []byte(unevenTree), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Launch(Options{Exe: loopELF, Args: args, Nodes: 32, PerIO: 8, Topology: path, Costs: costs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// TestCommandArrivalGrowsWithDepth sends one command to every rank of a tree whose
// daemons stand at different depths: it reaches each daemon later the deeper it is, by
// the hops it crossed, and the job's clock does not move while it is out.
func TestCommandArrivalGrowsWithDepth(t *testing.T) {
	a := launchUneven(t, nil, "1")
	before := a.Job.Now()
	if _, err := a.ReadMemory(nil, a.region.Start, 4); err != nil {
		t.Fatal(err)
	}
	if a.Job.Now() != before {
		t.Fatalf("the job's clock moved from %d to %d during a command", before, a.Job.Now())
	}
	rep := a.LastCommand()
	if rep.Op != OpRead || rep.Daemons != 4 || len(rep.Arrivals) != 4 {
		t.Fatalf("report %+v", rep)
	}
	at := rep.Arrivals
	c := a.Costs()
	hop := c.ns(commRecv) + c.ns(commFwd) + c.ns(commLatency) // one comm node more on the way
	if at[1].Arrived-at[0].Arrived < hop || at[2].Arrived-at[1].Arrived < hop {
		t.Errorf("arrivals at depths 1, 2, 3: %d %d %d ns: want each deeper one at least %d ns later",
			at[0].Arrived, at[1].Arrived, at[2].Arrived, hop)
	}
	// comm node 1 sends to its two daemons one after the other.
	if at[3].Arrived-at[2].Arrived != c.ns(commFwd) {
		t.Errorf("daemons 2 and 3 under one comm node: arrivals %d and %d ns", at[2].Arrived, at[3].Arrived)
	}
	if rep.Down != at[3].Applied || rep.RoundTrip <= rep.Down {
		t.Errorf("down %d, round trip %d, last applied %d", rep.Down, rep.RoundTrip, at[3].Applied)
	}
}

// TestCommandQueuesBehindData issues a command while probe packets are still queued at
// the daemons (each takes 200 virtual microseconds there): it is carried out only after
// them, whereas on an idle tree it is carried out as it arrives.
func TestCommandQueuesBehindData(t *testing.T) {
	slow, _ := NamedCosts("default")
	if err := slow.Set("daemon_recv_ns", 2e5); err != nil {
		t.Fatal(err)
	}
	idle := launchUneven(t, slow, "100000")
	if _, err := idle.ReadMemory(nil, idle.region.Start, 4); err != nil {
		t.Fatal(err)
	}
	base := idle.LastCommand()

	a := launchUneven(t, slow, "100000")
	h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	a.Start()
	for {
		b, err := a.Step(context.Background(), ^uint64(0))
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Messages) > 0 || b.Reason != bgl.StopPaused {
			break
		}
	}
	if _, err := a.ReadMemory(nil, a.region.Start, 4); err != nil {
		t.Fatal(err)
	}
	busy := a.LastCommand()
	for i, d := range busy.Arrivals {
		took, alone := d.Applied-d.Arrived, base.Arrivals[i].Applied-base.Arrivals[i].Arrived
		if took <= alone+slow.ns(daemonRecv) {
			t.Errorf("I/O node %d: applied %d ns after arriving behind packets, %d ns on an idle tree", d.IONode, took, alone)
		}
	}
	if busy.RoundTrip <= base.RoundTrip {
		t.Errorf("round trip %d ns behind packets, %d ns on an idle tree", busy.RoundTrip, base.RoundTrip)
	}
}
