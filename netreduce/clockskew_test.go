package netreduce

import "testing"

// TestClockSkewErrorIsHalfTheLinksAsymmetry: with symmetric links the round trips cancel
// every delay and the offsets come out exact; with jitter each link's error is at most
// half its worst asymmetry, so a back-end's is bounded by its depth times that.
func TestClockSkewErrorIsHalfTheLinksAsymmetry(t *testing.T) {
	topo, err := Generate("b:4^3")
	if err != nil {
		t.Fatal(err)
	}
	exact := ClockHosts{Seed: 3, RangeNs: 1_200_000, LinkNs: 50_000, SendNs: 10_000}
	truth := exact.Offsets(topo)
	for b, got := range exact.MeasureClocks(topo, 1) {
		if got != truth[b] {
			t.Errorf("symmetric links: back-end %d measured %d ns, seeded %d ns", b, got, truth[b])
		}
	}
	noisy := exact
	noisy.JitterNs = 40_000
	bound := int64(topo.Depth()) * noisy.JitterNs / 2
	off := 0
	for b, got := range noisy.MeasureClocks(topo, 3) {
		d := got - truth[b]
		if d < -bound || d > bound {
			t.Errorf("back-end %d: measured %d ns, seeded %d ns, beyond the %d ns bound", b, got, truth[b], bound)
		}
		if d != 0 {
			off++
		}
	}
	if off == 0 {
		t.Errorf("with jitter every back-end came out exact: the readings were not used")
	}
}

// TestClockSkewMoreRoundsNoWorse: the estimator keeps each link's least-delayed probe.
func TestClockSkewMoreRoundsNoWorse(t *testing.T) {
	topo, err := Generate("flat:32")
	if err != nil {
		t.Fatal(err)
	}
	h := ClockHosts{Seed: 9, RangeNs: 1_200_000, LinkNs: 50_000, SendNs: 10_000, JitterNs: 100_000}
	truth := h.Offsets(topo)
	sum := func(rounds int) (s int64) {
		for b, got := range h.MeasureClocks(topo, rounds) {
			s += max(got-truth[b], truth[b]-got)
		}
		return s
	}
	if one, eight := sum(1), sum(8); eight >= one {
		t.Errorf("total error %d ns over 8 rounds, %d ns over 1: more probes did not help", eight, one)
	}
}
