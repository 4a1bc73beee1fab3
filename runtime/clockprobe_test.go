package runtime

import (
	"context"
	"slices"
	"testing"

	"github.com/dpclsh/dpclsh/probes"
)

// TestMeasureClocksByRoundTrips: every daemon's offset, found by probes down and back on
// each link of a b:2 tree (three comm levels), is within 10% of the seeded skew range
// (1 ms) of the truth at the median, twice that at worst, with the tree idle and while
// probe data flows. The readings include queueing (a parent busy with one child's
// answer takes the other's late), so the error is not zero.
func TestMeasureClocksByRoundTrips(t *testing.T) {
	a, err := Launch(Options{Exe: loopELF, Args: []string{"200"}, Nodes: 128, PerIO: 8, Topology: "b:2",
		Clocks: ClockSkew{Seed: 5, MaxNS: 1_000_000}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	truth := map[int]int64{}
	for _, n := range a.TreeNodes() {
		if n.Kind == "daemon" {
			truth[n.Index] = n.OffsetNS
		}
	}
	check := func(what string, bound int64) {
		got, err := a.MeasureClocks()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(truth) {
			t.Fatalf("%s: %d daemons measured, %d in the tree", what, len(got), len(truth))
		}
		var errs []int64
		for io, off := range truth {
			e := got[io] - off
			errs = append(errs, max(e, -e))
		}
		slices.Sort(errs)
		if errs[len(errs)-1] == 0 {
			t.Errorf("%s: every offset exact: the readings cannot have come from round trips with queueing", what)
		}
		if med := errs[len(errs)/2]; med > bound || errs[len(errs)-1] > 2*bound {
			t.Errorf("%s: median error %d ns, worst %d (bound %d)", what, med, errs[len(errs)-1], bound)
		}
	}
	check("idle tree", 100_000)
	h, err := a.Install(points(t, a, "step", probes.PointEntry), probes.Send(probes.IntConst(1)), InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h.Activate()
	a.Start()
	for range 20 {
		if _, err := a.Step(context.Background(), a.Job.Now()+20_000); err != nil {
			t.Fatal(err)
		}
	}
	check("data in flight", 100_000) // 10% of the 1 ms range
}
