package probes

import (
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// instrumenter installs, toggles and removes probes in a running test process the way
// the runtime will: one trampoline per point, rebuilt at a fresh address when a probe is
// added, unlinked trampolines freed only once no PC or return address is inside them.
type instrumenter struct {
	t      testing.TB
	p      *process
	prog   *Program
	slots  *Slots
	target *Target
	next   uint32 // next free trampoline address
	guard  uint32 // the recursion guard word
	points map[uint32]*installed
	unlink []*Trampoline // removed or replaced, not yet freed
	freed  int
}

type installed struct {
	pt     Point
	codes  []*Code
	active []bool
	tr     *Trampoline
}

func newInstrumenter(t testing.TB, p *process, name string) *instrumenter {
	prog := openProgram(t, name)
	r := p.img.InstrRegion
	if !p.cpu.Mem.Mapped(r.Start, r.Size) {
		t.Fatalf("instrumentation region %#x+%#x is not mapped", r.Start, r.Size)
	}
	in := &instrumenter{t: t, p: p, prog: prog, slots: NewSlots(r.Start, 0x10000),
		target: &Target{Tag: 1, Resolve: prog.Resolve}, next: r.Start + 0x10000,
		points: map[uint32]*installed{}}
	in.guard = in.variable(Int).Addr
	return in
}

func (in *instrumenter) variable(t Type) *Var {
	v, err := in.slots.Alloc("", t)
	if err != nil {
		in.t.Fatal(err)
	}
	return v
}

func (in *instrumenter) compile(e *Exp) *Code {
	c, err := Compile(e, in.target)
	if err != nil {
		in.t.Fatal(err)
	}
	return c
}

func (in *instrumenter) poke(addr uint32, b []byte) {
	if err := in.p.cpu.Mem.Poke(addr, b); err != nil {
		in.t.Fatal(err)
	}
}

// add appends a snippet to the point's trampoline (building a new one).
func (in *instrumenter) add(pt Point, c *Code, active bool) {
	old := in.points[pt.Addr]
	ins := &installed{pt: pt}
	if old != nil {
		ins.codes, ins.active = append(ins.codes, old.codes...), append(ins.active, old.active...)
	}
	ins.codes, ins.active = append(ins.codes, c), append(ins.active, active)
	tr, err := BuildTrampoline(pt, ins.codes, ins.active, in.next, in.guard)
	if err != nil {
		in.t.Fatal(err)
	}
	in.next += (tr.Size() + 15) &^ 15
	ins.tr = tr
	in.poke(tr.Base, tr.Bytes())
	in.poke(pt.Addr, wordsBytes([]uint32{tr.Patch}))
	if old != nil {
		in.unlink = append(in.unlink, old.tr)
	}
	in.points[pt.Addr] = ins
}

func (in *instrumenter) toggle(addr uint32, i int, on bool) {
	ins := in.points[addr]
	ins.active[i] = on
	w := ins.tr.Toggles[i].Off
	if on {
		w = ins.tr.Toggles[i].On
	}
	in.poke(ins.tr.Toggles[i].Addr, wordsBytes([]uint32{w}))
}

func (in *instrumenter) remove(addr uint32) {
	ins := in.points[addr]
	in.poke(addr, wordsBytes([]uint32{ins.pt.Word}))
	in.unlink = append(in.unlink, ins.tr)
	delete(in.points, addr)
}

// collect frees every unlinked trampoline the process no longer needs, filling it with
// illegal words so that a premature free makes the program fault.
func (in *instrumenter) collect() {
	c := in.p.cpu
	region := in.p.img.InstrRegion
	returns := ReturnAddresses(c.PC, c.LR, c.GPR[1], c.Mem.Read32, region.Contains)
	kept := in.unlink[:0]
	for _, tr := range in.unlink {
		if tr.Busy(c.PC, returns) {
			kept = append(kept, tr)
			continue
		}
		in.poke(tr.Base, make([]byte, tr.Size()))
		in.freed++
	}
	in.unlink = kept
}

func readInt(t testing.TB, p *process, v *Var) int64 {
	if v.T == Int {
		w, err := p.cpu.Mem.Read32(v.Addr)
		if err != nil {
			t.Fatal(err)
		}
		return int64(int32(w))
	}
	w, err := p.cpu.Mem.Read64(v.Addr)
	if err != nil {
		t.Fatal(err)
	}
	return int64(w)
}

func expectedOutput(t testing.TB) string {
	b, err := os.ReadFile("testdata/points.out")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// programCounts are the call counts points.c prints, plus the functions it does not count.
var programCounts = map[string]int64{
	"clamp_pos": 65, "twice": 66, "dispatch": 1, "tail": 40, "fact": 46, "classify": 40, "apply": 40,
	"bump": 40, "gcd": 40, "widen": 1,
}

func TestEntryExitCounts(t *testing.T) {
	for _, name := range []string{"points-O0.elf", "points-O2.elf"} {
		t.Run(name, func(t *testing.T) {
			p := startProcess(t, name)
			in := newInstrumenter(t, p, name)
			entries, exits := map[string]*Var{}, map[string]*Var{}
			for fn := range programCounts {
				entries[fn], exits[fn] = in.variable(Int), in.variable(Int)
				for _, k := range []PointKind{PointEntry, PointExit} {
					v := entries[fn]
					if k == PointExit {
						v = exits[fn]
					}
					code := in.compile(Assign(v, Binary(KAdd, Ref(v), IntConst(1))))
					for _, pt := range points(t, in.prog, fn, k) {
						in.add(pt, code, true)
					}
				}
			}
			// Arguments and return values of clamp_pos travel in sends.
			for _, k := range []PointKind{PointEntry, PointExit} {
				e := Send(IntConst(int32(k)), Arg(0, Int))
				if k == PointExit {
					e = Send(IntConst(int32(k)), Retval(Int))
				}
				for _, pt := range points(t, in.prog, "clamp_pos", k) {
					in.add(pt, in.compile(e), true)
				}
			}
			if out := p.finish(t); out != expectedOutput(t) {
				t.Fatalf("output changed:\n%s", out)
			}
			for fn, want := range programCounts {
				if fn == "fact" && name == "points-O2.elf" {
					// gcc -O2 turned fact's recursion into a loop: only main's 10 calls remain
					// machine-level calls, though the program counts logical calls.
					want = 10
				}
				if got := readInt(t, p, entries[fn]); got != want {
					t.Errorf("%s entered %d times, the program counts %d", fn, got, want)
				}
				if got := readInt(t, p, exits[fn]); got != want {
					t.Errorf("%s left %d times, the program counts %d", fn, got, want)
				}
			}
			checkClampSends(t, p.sends)
		})
	}
}

// checkClampSends pairs clamp_pos's entry and exit sends: retval = max(arg, 0).
func checkClampSends(t *testing.T, sends [][]Value) {
	if len(sends) != 2*int(programCounts["clamp_pos"]) {
		t.Fatalf("%d sends, want %d", len(sends), 2*programCounts["clamp_pos"])
	}
	for i := 0; i < len(sends); i += 2 {
		in, out := sends[i], sends[i+1]
		if in[0].I != int64(PointEntry) || out[0].I != int64(PointExit) {
			t.Fatalf("sends %d, %d are not an entry/exit pair: %v %v", i, i+1, in, out)
		}
		if want := max(in[1].I, 0); out[1].I != want {
			t.Errorf("clamp_pos(%d) returned %d, want %d", in[1].I, out[1].I, want)
		}
	}
}

// TestRandomInstrumentation inserts, activates, deactivates and removes probes at random
// instruction boundaries while the program runs; its output must never change.
func TestRandomInstrumentation(t *testing.T) {
	const trials = 1000
	want := expectedOutput(t)
	rng := rand.New(rand.NewPCG(7, 7))
	stats := map[string]int{}
	for run, done := 0, 0; done < trials; run++ {
		name := []string{"points-O0.elf", "points-O2.elf"}[run%2]
		p := startProcess(t, name)
		in := newInstrumenter(t, p, name)
		snippets := randomSnippets(in)
		for ; done < trials && p.run(t, uint64(1+rng.IntN(800))); done++ {
			stats[in.randomOp(rng, snippets)]++
			in.collect()
		}
		if out := p.finish(t); out != want {
			t.Fatalf("run %d (%s): output changed:\n%s", run, name, out)
		}
		in.collect()
		stats["freed"] += in.freed
	}
	t.Logf("operations: %v", stats)
	if stats["add"] < 300 || stats["remove"] < 50 || stats["toggle"] < 50 {
		t.Errorf("too few operations exercised: %v", stats)
	}
}

func randomSnippets(in *instrumenter) []*Code {
	n, d, w := in.variable(Int), in.variable(Double), in.variable(Int64)
	return []*Code{
		in.compile(Assign(n, Binary(KAdd, Ref(n), IntConst(1)))),
		in.compile(Assign(d, Binary(KAdd, Ref(d), Binary(KMul, Arg(0, Double), DoubleConst(0.5))))),
		in.compile(Assign(w, Binary(KAdd, Ref(w), Counter("instructions")))),
		in.compile(Send(Arg(0, Int), Timebase(), Retval(Double))),
		in.compile(When(Binary(KGt, Arg(1, Int), IntConst(0)),
			Assign(n, Binary(KAdd, Ref(n), Call("gcd", Arg(1, Int), IntConst(35)))), nil)),
	}
}

// randomOp performs one random operation and names it.
func (in *instrumenter) randomOp(rng *rand.Rand, snippets []*Code) string {
	switch k := rng.IntN(10); {
	case k < 5:
		pt, ok := in.randomPoint(rng)
		if !ok {
			return "refused"
		}
		in.add(pt, snippets[rng.IntN(len(snippets))], rng.IntN(2) == 0)
		return "add"
	case k < 8 && len(in.points) > 0:
		ins := in.anyPoint(rng)
		in.toggle(ins.pt.Addr, rng.IntN(len(ins.codes)), rng.IntN(2) == 0)
		return "toggle"
	case len(in.points) > 0:
		in.remove(in.anyPoint(rng).pt.Addr)
		return "remove"
	}
	return "none"
}

// randomPoint picks an instruction near the PC half of the time, else anywhere in text.
func (in *instrumenter) randomPoint(rng *rand.Rand) (Point, bool) {
	fn, ok := in.prog.FuncAt(in.p.cpu.PC)
	if !ok || rng.IntN(2) == 0 {
		fn = in.prog.Funcs[rng.IntN(len(in.prog.Funcs))]
	}
	pt, err := in.prog.PointAt(fn.Addr + 4*uint32(rng.IntN(int(fn.Size/4))))
	return pt, err == nil
}

func (in *instrumenter) anyPoint(rng *rand.Rand) *installed {
	addrs := slices.Sorted(maps.Keys(in.points))
	return in.points[addrs[rng.IntN(len(addrs))]]
}

// TestRecursionGuard calls gcd from a probe while gcd itself carries a probe that calls
// gcd: without the guard the probes would recurse until the stack ran out.
func TestRecursionGuard(t *testing.T) {
	name := "points-O2.elf"
	p := startProcess(t, name)
	in := newInstrumenter(t, p, name)
	entries, sum := in.variable(Int), in.variable(Int)
	callGcd := in.compile(Seq(
		Assign(entries, Binary(KAdd, Ref(entries), IntConst(1))),
		Assign(sum, Binary(KAdd, Ref(sum), Call("gcd", IntConst(12), IntConst(35))))))
	for _, fn := range []string{"gcd", "clamp_pos"} {
		in.add(points(t, in.prog, fn, PointEntry)[0], callGcd, true)
	}
	if out := p.finish(t); out != expectedOutput(t) {
		t.Fatalf("output changed:\n%s", out)
	}
	// gcd is entered 40 times by the program and 105 times by the probes; only the
	// program's entries and clamp_pos's 65 run the probe.
	if got := readInt(t, p, entries); got != 40+65 {
		t.Errorf("the probe ran %d times, want %d", got, 40+65)
	}
	if got := readInt(t, p, sum); got != 105 {
		t.Errorf("the probes' calls returned %d in total, want 105 (gcd(12, 35) = 1)", got)
	}
}

// TestEntryAtLoopHead counts calls of spin, whose first instruction is its loop's head:
// alone, the entry probe also fires on every iteration; with the loop's branch redirected
// to the trampoline's Resume it fires once per call.
func TestEntryAtLoopHead(t *testing.T) {
	for _, redirect := range []bool{false, true} {
		name := "points-O2.elf"
		p := startProcess(t, name)
		in := newInstrumenter(t, p, name)
		n := in.variable(Int)
		entry := points(t, in.prog, "spin", PointEntry)[0]
		if !entry.BranchTarget {
			t.Fatal("spin's entry is not a branch target")
		}
		in.add(entry, in.compile(Assign(n, Binary(KAdd, Ref(n), IntConst(1)))), true)
		if redirect {
			srcs, err := in.prog.BranchesTo(mustFunc(t, in.prog, "spin"), entry.Addr)
			if err != nil || len(srcs) != 1 {
				t.Fatalf("branches to spin's entry: %v %v", srcs, err)
			}
			tr, err := BuildRedirect(srcs[0], in.points[entry.Addr].tr.Resume, in.next)
			if err != nil {
				t.Fatal(err)
			}
			in.next += (tr.Size() + 15) &^ 15
			in.poke(tr.Base, tr.Bytes())
			in.poke(srcs[0].Addr, wordsBytes([]uint32{tr.Patch}))
		}
		if out := p.finish(t); out != expectedOutput(t) {
			t.Fatalf("output changed:\n%s", out)
		}
		got := readInt(t, p, n)
		switch {
		case redirect && got != 1:
			t.Errorf("with the loop redirected the entry probe ran %d times, want 1", got)
		case !redirect && got <= 1:
			t.Errorf("without redirect the entry probe ran %d times; the loop should re-enter it", got)
		}
	}
}

// TestPICIdiomPoints puts a counting probe on every "bcl 20,31,.+4" of points.c's
// functions (the -fPIC build loads its GOT pointer with it): the relocated bcl must leave
// LR = its own address + 4 for the mflr that follows, or the program breaks.
func TestPICIdiomPoints(t *testing.T) {
	name := "points-O0.elf"
	p := startProcess(t, name)
	in := newInstrumenter(t, p, name)
	n := in.variable(Int)
	code := in.compile(Assign(n, Binary(KAdd, Ref(n), IntConst(1))))
	var want int64
	for fn, calls := range programCounts {
		f := mustFunc(t, in.prog, fn)
		for a := f.Addr; a < f.Addr+f.Size; a += 4 {
			if w, _ := in.prog.Word(a); !decodeBranch(w, a).pic(a) {
				continue
			}
			pt, err := in.prog.PointAt(a)
			if err != nil {
				t.Fatal(err)
			}
			in.add(pt, code, true)
			want += calls
		}
	}
	if want < 100 {
		t.Fatalf("only %d expected hits: the build has too few bcl idioms", want)
	}
	if out := p.finish(t); out != expectedOutput(t) {
		t.Fatalf("output changed:\n%s", out)
	}
	if got := readInt(t, p, n); got != want {
		t.Errorf("bcl probes ran %d times, want %d", got, want)
	}
}
