package runtime

import (
	"testing"

	"github.com/dpclsh/dpclsh/probes"
)

// TestFaultingAccessesAreCountedAndRecovered: a probe that loads from unmapped memory and
// stores into the program's read-only text, on every rank, leaves every rank running to
// its normal end; the loads yield 0, the stores change nothing, and the handle counts each
// fault. The same probe reads the program global progress.
func TestFaultingAccessesAreCountedAndRecovered(t *testing.T) {
	const iters, n = 7, 16
	a, out := launch(t, n, 8, "7")
	progress, err := a.Prog.Global("progress")
	if err != nil {
		t.Fatal(err)
	}
	main, _ := a.Prog.Lookup("main")
	word, _ := a.Prog.Word(main.Addr)
	e := probes.Seq(
		probes.Send(probes.Load(probes.IntConst(16), probes.MemI32, 0), progress),
		probes.Store(probes.IntConst(int32(main.Addr)), probes.MemI32, 0, probes.IntConst(0)),
	)
	h, err := a.Install(points(t, a, "step", probes.PointEntry), e, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Activate(); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	msgs := run(t, a)
	exited, faulted, _, codes := a.Counts()
	if exited != n || faulted != 0 {
		t.Fatalf("%d exited, %d faulted (codes %v):\n%s", exited, faulted, codes, out)
	}
	if len(msgs) != iters*n {
		t.Fatalf("%d messages, want %d", len(msgs), iters*n)
	}
	seen := map[int]map[int64]bool{}
	for _, m := range msgs {
		if m.Values[0] != int64(0) {
			t.Fatalf("rank %d: a load from address 16 gave %v, want 0", m.Rank, m.Values[0])
		}
		if seen[m.Rank] == nil {
			seen[m.Rank] = map[int64]bool{}
		}
		seen[m.Rank][m.Values[1].(int64)] = true
	}
	for r := range n {
		if len(seen[r]) != iters || !seen[r][0] || !seen[r][iters-1] {
			t.Errorf("rank %d saw progress %v, want 0..%d", r, seen[r], iters-1)
		}
	}
	if got := h.Stats().Faults; got != 2*iters*n {
		t.Errorf("Stats().Faults = %d, want %d (one load and one store per hit)", got, 2*iters*n)
	}
	b, err := a.ReadValues(3, main.Addr, probes.MemU32, 1)
	if err != nil || b[0].I != int64(word) {
		t.Errorf("main's first word is %v (%v), want it unchanged %#x", b, err, word)
	}
}

// TestFixupsLeaveWithTheirTrampoline: the fixups registered are exactly those of the
// trampolines in place once the memory of removed ones is freed, so memory reused by
// other code never inherits a fixup.
func TestFixupsLeaveWithTheirTrampoline(t *testing.T) {
	a, _ := launch(t, 16, 8, "7")
	wild := probes.Send(probes.Load(probes.IntConst(16), probes.MemI32, 0))
	install := func(fn string, e *probes.Exp) *Handle {
		h, err := a.Install(points(t, a, fn, probes.PointEntry), e, InstallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h1 := install("tick", wild)
	if len(a.faults) == 0 {
		t.Fatal("no fixups registered for a probe that loads program memory")
	}
	if err := h1.Remove(); err != nil {
		t.Fatal(err)
	}
	// bigger than the removed probe's freed piece, so placed in fresh memory: the old
	// fixups are not replaced by new ones there, they must go because nobody holds them
	load := probes.Load(probes.IntConst(16), probes.MemI32, 0)
	install("main", probes.Send(load, load, load, load, load, load, load, load))
	want := map[uint32]uint32{}
	for _, ps := range a.points {
		for _, f := range ps.tramp.Fixups {
			want[f.At] = f.Resume
		}
	}
	if len(want) == 0 || len(a.faults) != len(want) {
		t.Errorf("%d fixups registered, the trampolines in place have %d", len(a.faults), len(want))
	}
	for at, to := range a.faults {
		if want[at] != to {
			t.Errorf("fixup 0x%x -> 0x%x belongs to no trampoline in place", at, to)
		}
	}
}
