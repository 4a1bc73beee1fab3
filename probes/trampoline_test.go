package probes

import (
	"math"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/ppc"
)

const (
	hTramp = hCode + 0x80000 // where trampolines go: inside bl reach of the code
	hLeaf  = hCode + 0x100   // word 64 of a case's code
	hGuard = hVars + 0xffc   // the recursion guard word
)

// relocCase is a small program (objdump syntax, assembled at hCode; "leaf:" lines start at
// hLeaf) with a point at word index point, executed hits times.
type relocCase struct {
	name  string
	code  []string
	leaf  []string
	point int
	hits  int
}

var done = []string{"li r0,32767", "sc"}

var relocCases = []relocCase{
	{"plain", []string{"li r3,5", "addi r3,r3,7"}, nil, 1, 1},
	{"b", []string{"li r3,1", "b 0x10000010", "li r3,2", "li r3,3", "addi r3,r3,10"}, nil, 1, 1},
	{"bl", []string{"li r3,1", "li r4,2", "bl 0x10000100", "mflr r6"}, []string{"add r3,r3,r4", "blr"}, 2, 1},
	{"bcl-pic", []string{"li r3,1", "bcl 20,31,0x10000008", "mflr r5"}, nil, 1, 1},
	{"beq-taken", []string{"li r3,0", "cmpwi r3,0", "beq 0x10000010", "li r4,1", "li r5,1"}, nil, 2, 1},
	{"beq-not-taken", []string{"li r3,1", "cmpwi r3,0", "beq 0x10000010", "li r4,1", "li r5,1"}, nil, 2, 1},
	{"bdnz", []string{"li r3,5", "mtctr r3", "addi r4,r4,3", "bdnz 0x10000008", "mfctr r7"}, nil, 3, 5},
	{"beqlr", []string{"li r3,0", "bl 0x10000100", "mr r7,r3", "li r3,4", "bl 0x10000100"},
		[]string{"cmpwi r3,0", "beqlr", "li r3,9", "blr"}, 65, 2},
	{"blr", []string{"li r3,0", "bl 0x10000100", "mr r7,r3"}, []string{"li r3,9", "blr"}, 65, 1},
	{"bctrl", []string{"lis r9,4096", "ori r9,r9,256", "mtctr r9", "li r4,6", "bctrl", "mflr r6"},
		[]string{"mr r3,r4", "blr"}, 4, 1},
	{"bctr-tail", []string{"lis r9,4096", "ori r9,r9,256", "mtctr r9", "bl 0x10000108", "mr r8,r3"},
		[]string{"mr r3,r4", "blr", "li r4,8", "bctr"}, 67, 1},
	{"xor", []string{"li r3,2", "mr r4,r3", "xor r5,r4,r3"}, nil, 2, 1},
}

func assemble(t testing.TB, lines []string, base uint32) []uint32 {
	t.Helper()
	var out []uint32
	for i, l := range lines {
		w, err := ppc.Assemble(l, base+uint32(4*i))
		if err != nil {
			t.Fatalf("assemble %q: %v", l, err)
		}
		out = append(out, w)
	}
	return out
}

// load writes the case's code, returning the words (code at hCode, leaf at hLeaf).
func (m *machine) load(t testing.TB, c relocCase) []uint32 {
	words := assemble(t, append(append([]string{}, c.code...), done...), hCode)
	for len(words) < 64 {
		words = append(words, 0) // an illegal word: running into it fails the test
	}
	words = append(words, assemble(t, c.leaf, hLeaf)...)
	if err := m.cpu.Mem.Poke(hCode, wordsBytes(words)); err != nil {
		t.Fatal(err)
	}
	return words
}

// state is the architected state compared between plain and instrumented runs.
type state struct {
	gpr                     [32]uint32
	fpr                     [32]uint64
	cr, xer, lr, ctr, fpscr uint32
}

func (m *machine) state() state {
	c := m.cpu
	return state{c.GPR, c.FPR, c.CR, c.XER, c.LR, c.CTR, c.FPSCR}
}

func (m *machine) reset() {
	c := m.cpu
	c.GPR, c.FPR = [32]uint32{}, [32]uint64{}
	c.CR, c.XER, c.LR, c.CTR, c.FPSCR = 0x2468ace0, 0, 0, 0, 0
	c.GPR[1] = hFrameR1
	for i := 13; i < 32; i++ {
		c.GPR[i] = uint32(i) * 0x01010101
		c.FPR[i] = math.Float64bits(float64(i) / 3)
	}
}

// probeSnippets are a cheap counting probe and a heavy one that calls a function, uses
// doubles and makes hypercalls, to exercise every save.
func probeSnippets(t testing.TB, slots *Slots) (count, heavy *Var, codes []*Code) {
	count, _ = slots.Alloc("", Int)
	heavy, _ = slots.Alloc("", Double)
	wide, _ := slots.Alloc("", Int64)
	third, _ := slots.Alloc("", Double)
	exps := []*Exp{
		Assign(count, Binary(KAdd, Ref(count), IntConst(1))),
		Seq(Assign(heavy, Binary(KAdd, Ref(heavy), Binary(KMul, DoubleConst(0.5), Call("sum2", IntConst(2), IntConst(3))))),
			// a compare (CR0), a carry (XER[CA]) and an inexact division (FPSCR)
			When(Binary(KEq, Rank(), IntConst(7)), Assign(wide, Binary(KAdd, Ref(wide), Int64Const(0xffffffff))), nil),
			Assign(third, Binary(KDiv, DoubleConst(1), Arg(0, Int))),
			Send(Rank(), Counter("cycles"))),
	}
	for _, e := range exps {
		c, err := Compile(e, &testTarget)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, c)
	}
	return count, heavy, codes
}

func TestTrampolineRelocation(t *testing.T) {
	for _, c := range relocCases {
		t.Run(c.name, func(t *testing.T) {
			m := newMachine(t)
			words := m.load(t, c)
			m.reset()
			m.run(t, hCode)
			want := m.state()

			count, heavy, codes := probeSnippets(t, NewSlots(hVars, 0x100))
			addr := hCode + uint32(4*c.point)
			pt := Point{Kind: PointInsn, Addr: addr, Word: words[c.point]}
			tr, err := BuildTrampoline(pt, codes, []bool{true, true}, hTramp, hGuard)
			if err != nil {
				t.Fatal(err)
			}
			install(t, m, tr)
			m.reset()
			m.sends = nil
			m.run(t, hCode)
			if got := m.state(); got != want {
				t.Errorf("state differs with the probe:\n got %+v\nwant %+v\n%s", got, want, tr.Disasm())
			}
			if n := m.readVar(t, count); n.I != int64(c.hits) {
				t.Errorf("counting probe ran %d times, want %d", n.I, c.hits)
			}
			if h := m.readVar(t, heavy); h.F != 2.5*float64(c.hits) {
				t.Errorf("heavy probe accumulated %v, want %v", h.F, 2.5*float64(c.hits))
			}
			if len(m.sends) != c.hits {
				t.Errorf("%d sends, want %d", len(m.sends), c.hits)
			}
		})
	}
}

func install(t testing.TB, m *machine, tr *Trampoline) {
	t.Helper()
	if err := m.cpu.Mem.Poke(tr.Base, tr.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := m.cpu.Mem.Write32(tr.Point.Addr, tr.Patch); err == nil {
		t.Fatal("code pages must not be writable by the program")
	}
	if err := m.cpu.Mem.Poke(tr.Point.Addr, wordsBytes([]uint32{tr.Patch})); err != nil {
		t.Fatal(err)
	}
}

func TestTrampolineToggle(t *testing.T) {
	c := relocCases[6] // the bdnz loop: the point runs 5 times
	m := newMachine(t)
	words := m.load(t, c)
	count, _, codes := probeSnippets(t, NewSlots(hVars, 0x100))
	pt := Point{Kind: PointInsn, Addr: hCode + uint32(4*c.point), Word: words[c.point]}
	tr, err := BuildTrampoline(pt, codes[:1], []bool{false}, hTramp, hGuard)
	if err != nil {
		t.Fatal(err)
	}
	install(t, m, tr)
	want := []int64{0, 5, 5}
	for i, tog := range []uint32{0, tr.Toggles[0].On, tr.Toggles[0].Off} {
		if tog != 0 {
			if err := m.cpu.Mem.Poke(tr.Toggles[0].Addr, wordsBytes([]uint32{tog})); err != nil {
				t.Fatal(err)
			}
		}
		m.reset()
		m.run(t, hCode)
		if n := m.readVar(t, count).I; n != want[i] {
			t.Errorf("step %d: count %d, want %d", i, n, want[i])
		}
	}
	// Removing the probe is restoring the original word.
	if err := m.cpu.Mem.Poke(pt.Addr, wordsBytes([]uint32{pt.Word})); err != nil {
		t.Fatal(err)
	}
	m.reset()
	m.run(t, hCode)
	if n := m.readVar(t, count).I; n != 5 {
		t.Errorf("after removal the count changed to %d", n)
	}
}

// TestTrampolineCost measures the instructions one hit of a counting probe adds.
func TestTrampolineCost(t *testing.T) {
	c := relocCases[0]
	m := newMachine(t)
	words := m.load(t, c)
	m.reset()
	m.run(t, hCode)
	plain := m.cpu.Count.Instructions
	slots := NewSlots(hVars, 0x100)
	count, _ := slots.Alloc("n", Int)
	code, err := Compile(Assign(count, Binary(KAdd, Ref(count), IntConst(1))), &testTarget)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := BuildTrampoline(Point{Addr: hCode + 4, Word: words[1]}, []*Code{code}, []bool{true}, hTramp, hGuard)
	if err != nil {
		t.Fatal(err)
	}
	install(t, m, tr)
	m.reset()
	before := m.cpu.Count.Instructions
	m.run(t, hCode)
	extra := m.cpu.Count.Instructions - before - plain
	t.Logf("a counting probe costs %d instructions per hit:\n%s", extra, tr.Disasm())
	if extra > 20 {
		t.Errorf("a counting probe costs %d instructions per hit, the goal is at most 20", extra)
	}
}

func TestTrampolineOutOfReach(t *testing.T) {
	_, err := BuildTrampoline(Point{Addr: 0x10000000, Word: nop}, nil, nil, 0x20000000, 0)
	if err == nil || !strings.Contains(err.Error(), "out of branch reach") {
		t.Fatalf("err = %v", err)
	}
	_, err = BuildTrampoline(Point{Addr: 0x10000000, Word: 0x4e800021}, nil, nil, 0x10100000, 0) // blrl
	if err == nil || !strings.Contains(err.Error(), "bclrl") {
		t.Fatalf("err = %v", err)
	}
}

func TestTrampolineSizeIsKnownFirst(t *testing.T) {
	_, _, codes := probeSnippets(t, NewSlots(hVars, 0x100))
	for _, c := range relocCases {
		words := assemble(t, append(append([]string{}, c.code...), done...), hCode)
		if c.point >= len(words) {
			continue
		}
		pt := Point{Addr: hCode + uint32(4*c.point), Word: words[c.point]}
		size, err := TrampolineSize(pt, codes)
		if err != nil {
			t.Fatal(err)
		}
		for _, base := range []uint32{hTramp, hCode - 0x1000000, hCode + 0x1fff000} {
			tr, err := BuildTrampoline(pt, codes, []bool{true, false}, base, hGuard)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Size() != size {
				t.Errorf("%s at %#x: %d bytes, TrampolineSize said %d", c.name, base, tr.Size(), size)
			}
		}
	}
}

// TestSeveralProbesRunInOrder puts two probes at one point: the first appends digit 1 to
// n, the second digit 2, so one hit leaves 12 only if they ran in order.
func TestSeveralProbesRunInOrder(t *testing.T) {
	c := relocCases[0]
	m := newMachine(t)
	words := m.load(t, c)
	slots := NewSlots(hVars, 0x100)
	n, _ := slots.Alloc("n", Int)
	var codes []*Code
	for _, digit := range []int32{1, 2} {
		code, err := Compile(Assign(n, Binary(KAdd, Binary(KMul, Ref(n), IntConst(10)), IntConst(digit))), &testTarget)
		if err != nil {
			t.Fatal(err)
		}
		codes = append(codes, code)
	}
	tr, err := BuildTrampoline(Point{Addr: hCode + 4, Word: words[1]}, codes, []bool{true, true}, hTramp, hGuard)
	if err != nil {
		t.Fatal(err)
	}
	install(t, m, tr)
	m.reset()
	m.run(t, hCode)
	if got := m.readVar(t, n).I; got != 12 {
		t.Errorf("n = %d after one hit, want 12", got)
	}
}
