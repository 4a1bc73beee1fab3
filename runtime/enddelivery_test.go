package runtime

import (
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
)

// TestProbeOnExitDelivers sends from _exit's entry, the last instructions a rank runs:
// every packet must reach the front-end, with and without a filter, and sent must equal
// delivered.
func TestProbeOnExitDelivers(t *testing.T) {
	for _, filter := range []*netreduce.FilterSpec{nil, {Name: "sum"}} {
		const n = 16
		a, _ := launch(t, n, 8, "3")
		h, err := a.Install(points(t, a, "_exit", probes.PointEntry), probes.Send(probes.Rank()), InstallOptions{Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		h.Activate()
		a.Start()
		msgs := run(t, a)
		got := 0
		for _, m := range msgs {
			got += m.Count
		}
		if st := h.Stats(); got != n || st.Sent != n || st.Delivered != n {
			t.Errorf("filter %v: %d of %d ranks' packets delivered; stats %+v", filter, got, n, st)
		}
	}
}

// TestExitPacketsCloseOneWave sends a 200-value row from _exit's entry: a packet that long
// reaches the daemon after the rank's end would have, so the end notice must wait behind
// it; with a filter every rank's row is in the one wave.
func TestExitPacketsCloseOneWave(t *testing.T) {
	for _, filter := range []string{"sum", "eqclass", "concat"} {
		const n = 16
		a, _ := launch(t, n, 8, "3")
		row, err := a.Array(probes.Int64, 200, "row")
		if err != nil {
			t.Fatal(err)
		}
		h, err := a.Install(points(t, a, "_exit", probes.PointEntry), probes.Send(probes.Whole(row)),
			InstallOptions{Filter: &netreduce.FilterSpec{Name: filter}})
		if err != nil {
			t.Fatal(err)
		}
		h.Activate()
		a.Start()
		msgs := run(t, a)
		if len(msgs) != 1 || msgs[0].Count != n {
			counts := []int{}
			for _, m := range msgs {
				counts = append(counts, m.Count)
			}
			t.Errorf("filter %s: %d messages of %v ranks, want one of %d", filter, len(msgs), counts, n)
		}
	}
}
