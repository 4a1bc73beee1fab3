package runtime

import (
	goruntime "runtime"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
)

// TestInstallHeapPerRank: a probe at hundreds of points on every rank leaves the
// daemons' record of what they placed once per distinct layout, not once per rank. The
// heap an install keeps is measured at two job sizes, after one install not counted, so
// what is kept once per job or process (the trampolines' shared pages) cancels out.
// What stays per rank and point is the CPU's entry mark (~19 bytes); the map entries of
// the point's trampoline and of its owners per rank were ~70 more (88 in all).
func TestInstallHeapPerRank(t *testing.T) {
	const small, large, maxPoints = 64, 320, 400
	kept := map[int]int64{}
	var npts int
	installHeap(t, small, maxPoints) // what the first install in a process keeps for good
	for _, n := range []int{small, large} {
		kept[n], npts = installHeap(t, n, maxPoints)
	}
	perPoint := float64(kept[large]-kept[small]) / float64((large-small)*npts)
	t.Logf("%d points: the install kept %d bytes on %d ranks, %d on %d, %.1f per rank and point",
		npts, kept[small], small, kept[large], large, perPoint)
	if perPoint > 64 {
		t.Errorf("install of %d points kept %.1f bytes per rank and point, want at most 64", npts, perPoint)
	}
}

// installHeap launches loop.elf on n ranks, installs and activates a counting probe at
// the entries of its first functions (up to maxPoints) and returns the live heap the
// install added and the number of points.
func installHeap(t *testing.T, n, maxPoints int) (int64, int) {
	a, err := Launch(Options{Exe: loopELF, Args: []string{"1"}, Nodes: n, PerIO: 64, Topology: "b:4"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var pts []probes.Point
	for _, f := range a.Prog.Funcs {
		if p, err := a.Prog.Points(f, probes.PointEntry); err == nil {
			pts = append(pts, p...)
		}
		if len(pts) >= maxPoints {
			break
		}
	}
	if len(pts) < maxPoints/2 {
		t.Fatalf("%d entry points in loop.elf, want at least %d", len(pts), maxPoints/2)
	}
	_, inc := counter(t, a)
	before := liveHeap()
	h, err := a.Install(pts, inc, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Activate(); err != nil {
		t.Fatal(err)
	}
	kept := liveHeap() - before
	goruntime.KeepAlive(a)
	return kept, len(pts)
}

// liveHeap is the heap's live bytes after a full collection.
func liveHeap() int64 {
	goruntime.GC()
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// TestDaemonLayouts: ranks patched alike hold one layout, and a rank patched apart gets
// its own, which says what it holds: a command that removes a point's trampoline and
// places another there leaves the first unlinked once, its owners kept for packets still
// on their way.
func TestDaemonLayouts(t *testing.T) {
	const point, orig, base1, base2 = 0x1000, 0x7c0802a6, 0x20000, 0x20100
	m := newTwin(0, 1, 2)
	d := NewDaemon(0, 8, m, func(a uint32) bool { return a >= 0x20000 && a < 0x30000 }, nil)
	for r := range 3 {
		m.WriteMem(r, point, wordBytes(orig))
	}
	h1 := HandleRanks{Handle: 1, Stream: 7, Ranks: ranks(t, "0-2")}
	plan := func(base uint32) PointPlan {
		return PointPlan{Addr: point, Orig: orig, Patch: 0x48000000 | (base - point), Base: base, Words: []uint32{1, 2, 3},
			Toggles: []ToggleWord{{Handle: 1, Addr: base + 4, On: 0x60000000, Off: 0x48000008}}}
	}
	send(t, d, m, &Command{Op: OpPatch, Points: []PointPlan{plan(base1)}, Handles: []HandleRanks{h1}}, 1, 0, 1, 2)
	if d.layouts[0] == nil || d.layouts[0] != d.layouts[1] || d.layouts[1] != d.layouts[2] {
		t.Fatalf("ranks patched alike hold layouts %p %p %p, want one", d.layouts[0], d.layouts[1], d.layouts[2])
	}
	shared := d.layouts[0]
	m.regs[2] = bgl.Regs{PC: base1 + 4} // inside the first trampoline: it stays unlinked
	send(t, d, m, &Command{Op: OpPatch, Points: []PointPlan{{Addr: point, Orig: orig}, plan(base2)},
		Handles: []HandleRanks{h1}}, 2, 2)
	if d.layouts[0] != shared || d.layouts[1] != shared || d.layouts[2] == shared {
		t.Fatal("rank 2's patch changed the other ranks' layout, or not its own")
	}
	if got := d.Unlinked(2); got != 1 {
		t.Errorf("rank 2 has %d trampolines unlinked, want 1 (the first, once)", got)
	}
	if s, ok := d.layouts[2].at(point); !ok || s.base != base2 {
		t.Errorf("rank 2's point holds %+v (%v), want the trampoline at %#x", s, ok, base2)
	}
	for _, c := range []struct {
		rank int
		pc   uint32
		up   int
	}{{2, base2 + 8, 1}, {2, base1 + 8, 1}, {0, base1 + 8, 1}, {0, base2 + 8, 0}} {
		if rd := d.Packet(bgl.Packet{Rank: c.rank, PC: c.pc, Data: sendBytes(1, 5)}); len(rd.Up) != c.up {
			t.Errorf("packet of rank %d from %#x: %d forwarded, want %d (%+v)", c.rank, c.pc, len(rd.Up), c.up, rd.Rejected)
		}
	}
}
