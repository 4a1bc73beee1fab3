package runtime

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/probes"
)

const pointsO2 = "../probes/testdata/points-O2.elf"

func launchPoints(t *testing.T, out *strings.Builder) *App {
	t.Helper()
	a, err := Launch(Options{Exe: pointsO2, Nodes: 2, PerIO: 8, Stdout: out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// TestLoopRedirectLandsInReservedMemory frees two trampolines, then installs at spin's
// entry (a loop head: its loop branch gets a redirect) and one more probe. The redirect
// must live in memory the allocator handed out, or the next trampoline is written over
// it and the loop branch jumps into foreign code: the program would print other sums.
func TestLoopRedirectLandsInReservedMemory(t *testing.T) {
	var out strings.Builder
	a := launchPoints(t, &out)
	_, inc := counter(t, a)
	var first []*Handle
	for _, fn := range []string{"twice", "clamp_pos"} {
		h, err := a.Install(points(t, a, fn, probes.PointEntry), inc, InstallOptions{})
		check(t, err)
		first = append(first, h)
	}
	for _, h := range first {
		check(t, h.Remove())
	}
	if _, _, free, _ := a.RegionStats(); free < 2 {
		t.Fatalf("want two freed pieces before the loop-head install, have %d", free)
	}
	spin := points(t, a, "spin", probes.PointEntry)
	if !spin[0].BranchTarget {
		t.Fatal("spin's entry is not a loop head")
	}
	hs, err := a.Install(spin, inc, InstallOptions{})
	check(t, err)
	check(t, hs.Activate())
	hf, err := a.Install(points(t, a, "fact", probes.PointEntry), inc, InstallOptions{})
	check(t, err)
	check(t, hf.Activate())
	checkNoOverlap(t, a)
	a.Start()
	run(t, a)
	want, err := os.ReadFile("../probes/testdata/points.out")
	check(t, err)
	var both strings.Builder
	for _, line := range strings.SplitAfter(string(want), "\n") {
		both.WriteString(line + line)
	}
	if out.String() != both.String() {
		t.Errorf("output changed:\n%s\nwant:\n%s", out.String(), both.String())
	}
}

// TestRegionPiecesNeverOverlap makes random installs and removals at random points of
// points-O2 (spin's loop-head entry among them) and checks after each operation that no
// two live pieces of the instrumentation region, and no live piece and a free one, share
// a byte.
func TestRegionPiecesNeverOverlap(t *testing.T) {
	for seed := range uint64(8) {
		var out strings.Builder
		a := launchPoints(t, &out)
		var pts []probes.Point
		for _, fn := range []string{"spin", "gcd", "twice", "clamp_pos", "fact", "classify", "bump"} {
			for _, k := range []probes.PointKind{probes.PointEntry, probes.PointExit} {
				pts = append(pts, points(t, a, fn, k)...)
			}
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		_, inc := counter(t, a)
		var live []*Handle
		for range 120 {
			if len(live) == 0 || rng.IntN(2) == 0 {
				h, err := a.Install([]probes.Point{pts[rng.IntN(len(pts))]}, inc, InstallOptions{})
				check(t, err)
				live = append(live, h)
			} else {
				j := rng.IntN(len(live))
				check(t, live[j].Remove())
				live = slices.Delete(live, j, j+1)
			}
			checkNoOverlap(t, a)
		}
		a.Close()
	}
}

// checkNoOverlap fails when two pieces the region tracks (in use or free) share a byte, or
// when a patched address branches to memory no piece covers.
func checkNoOverlap(t *testing.T, a *App) {
	t.Helper()
	type piece struct {
		base, size uint32
		what       string
	}
	var all []piece
	for base, u := range a.spans {
		all = append(all, piece{base, u.size, "live"})
	}
	for _, f := range a.free {
		all = append(all, piece{f.base, f.size, "free"})
	}
	slices.SortFunc(all, func(x, y piece) int { return int(int64(x.base) - int64(y.base)) })
	for i := 1; i < len(all); i++ {
		p, q := all[i-1], all[i]
		if p.base+p.size > q.base {
			t.Fatalf("%s piece [0x%x,0x%x) overlaps %s piece [0x%x,0x%x)", p.what, p.base, p.base+p.size,
				q.what, q.base, q.base+q.size)
		}
	}
	from := map[uint32]uint32{}
	for addr, base := range a.linked {
		if other, ok := from[base]; ok {
			t.Fatalf("0x%x and 0x%x both branch to the piece at 0x%x", other, addr, base)
		}
		from[base] = addr
		u := a.spans[base]
		if u == nil {
			t.Fatalf("0x%x branches to 0x%x, which no live piece holds", addr, base)
		}
		if base+u.size > a.next {
			t.Fatalf("piece at 0x%x ends beyond the allocated region (0x%x)", base, a.next)
		}
	}
}
