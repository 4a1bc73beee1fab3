package probes

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dpclsh/dpclsh/ppc"
)

// treeGen builds random well-typed expression trees over the test machine's variables.
type treeGen struct {
	r      *rand.Rand
	vars   []*Var
	arrays []*Array
	stacks []*Stack
	noFP   bool // leave doubles out (an interpreter without floating point)
}

var (
	intConsts    = []int32{0, 1, -1, 2, 3, 7, 31, 32, 33, 63, 64, -2, 1000, -1000, 0x7fff, 0x8000, -0x8000, 0x12345678, math.MaxInt32, math.MinInt32}
	int64Consts  = []int64{0, 1, -1, 2, 31, 32, 33, 63, 64, 1 << 32, -1 << 32, 0xffffffff, 0x123456789abcdef, math.MaxInt64, math.MinInt64, -3}
	doubleConsts = []float64{0, 0.5, -1.5, 1, 3, 1e300, -1e-300, 1e308, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(0, -1), 123456789.125}
)

func newTreeGen(seed uint64, slots *Slots) *treeGen {
	g := &treeGen{r: rand.New(rand.NewPCG(seed, 99))}
	for i, t := range []Type{Int, Int64, Double, Int, Int64, Double} {
		v, err := slots.Alloc(string(rune('a'+i)), t)
		if err != nil {
			panic(err)
		}
		g.vars = append(g.vars, v)
	}
	g.allocData(slots)
	return g
}

func (g *treeGen) leaf() *Exp {
	switch g.r.IntN(13) {
	case 9, 10, 11, 12:
		return g.dataLeaf()
	case 0, 1:
		return IntConst(intConsts[g.r.IntN(len(intConsts))])
	case 2:
		return Int64Const(int64Consts[g.r.IntN(len(int64Consts))])
	case 3:
		if g.noFP {
			return IntConst(3)
		}
		return DoubleConst(doubleConsts[g.r.IntN(len(doubleConsts))])
	case 4, 5:
		v := g.vars[g.r.IntN(len(g.vars))]
		if g.noFP && v.T == Double {
			return Ref(g.vars[0])
		}
		return Ref(v)
	case 6:
		t := []Type{Int, Int64, Double}[g.r.IntN(3-b2i(g.noFP))]
		i := g.r.IntN(8)
		if t == Int64 {
			i &^= 1
		}
		return Arg(i, t)
	case 7:
		return Rank()
	}
	return Counter(CounterNames[g.r.IntN(len(CounterNames))])
}

var genBinaryKinds = []Kind{KAdd, KSub, KMul, KDiv, KMod, KBAnd, KBOr, KBXor, KShl, KShr,
	KEq, KNe, KLt, KLe, KGt, KGe, KLAnd, KLOr}

// value returns a tree that produces a value.
func (g *treeGen) value(depth int) *Exp {
	if depth <= 0 || g.r.IntN(5) == 0 {
		return g.leaf()
	}
	for {
		e := g.node(depth - 1)
		if t, err := Check(e); err == nil && t != Void {
			return e
		}
	}
}

func (g *treeGen) node(d int) *Exp {
	switch g.r.IntN(15) {
	case 12, 13, 14:
		return g.dataNode(d)
	case 0:
		return Unary([]Kind{KNeg, KBNot, KLNot}[g.r.IntN(3)], g.value(d))
	case 1:
		x := g.value(d)
		t, _ := Check(x)
		for {
			v := g.vars[g.r.IntN(len(g.vars))]
			if assignable(v.T, t) {
				return Assign(v, x)
			}
		}
	case 2:
		return When(g.value(d), g.value(d), g.value(d))
	case 3:
		return Seq(g.effect(d), g.value(d))
	case 4:
		return Call("sum2", g.intValue(d), g.intValue(d))
	}
	return Binary(genBinaryKinds[g.r.IntN(len(genBinaryKinds))], g.value(d), g.value(d))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (g *treeGen) intValue(d int) *Exp {
	for {
		if e := g.value(d); typeOf(e) == Int {
			return e
		}
	}
}

// effect returns a tree evaluated for its side effects (possibly void).
func (g *treeGen) effect(d int) *Exp {
	switch g.r.IntN(4) {
	case 0:
		return Send(g.value(d), g.value(d))
	case 3:
		return g.dataEffect(d)
	case 1:
		return When(g.value(d), g.node(d), nil)
	}
	return g.value(d)
}

// runOnMachine compiles e as "result = e", runs it and returns the result and the env
// after the reference evaluation.
func checkOnMachine(t *testing.T, m *machine, g *treeGen, res *Var, e *Exp) bool {
	code, err := Compile(Assign(res, e), &testTarget)
	if errors.Is(err, errNoRegs) {
		return false
	}
	var ce *CompileError
	if errors.As(err, &ce) && ce.Why == errNoRegs.Error() {
		return false
	}
	if err != nil {
		t.Fatalf("compile %v: %v", e, err)
	}
	env := &goEnv{rank: m.rank}
	for i := range env.gprs {
		env.gprs[i] = g.r.Uint32()
		env.fprs[i] = doubleConsts[g.r.IntN(len(doubleConsts))] * float64(g.r.IntN(5)-2)
	}
	m.sends = nil
	g.randomizeMemory(t, m, res)
	env.snapshot(t, m)
	m.setFrame(t, env)
	want, err := Eval(Assign(res, e), env)
	if err != nil {
		t.Fatalf("eval %v: %v", e, err)
	}
	m.runSnippet(t, code)
	got := m.readVar(t, res)
	if !sameValue(got, want) {
		t.Fatalf("%v\n = %v on the machine, %v in Go\n%s", e, got, want, code.Disasm(hCode))
	}
	g.compareMemory(t, m, env, e)
	checkSends(t, e, m.sends, env.sends)
	return true
}

func checkSends(t *testing.T, e *Exp, got, want [][]Value) {
	if len(got) != len(want) {
		t.Fatalf("%v: %d sends on the machine, %d in Go", e, len(got), len(want))
	}
	for i := range got {
		for j := range got[i] {
			if !sameValue(got[i][j], want[i][j]) {
				t.Fatalf("%v: send %d value %d = %v, want %v", e, i, j, got[i][j], want[i][j])
			}
		}
	}
}

// setFrame fills the trampoline frame's save slots with the argument registers.
func (m *machine) setFrame(t testing.TB, env *goEnv) {
	mem := m.cpu.Mem
	for r := uint32(0); r < 13; r++ {
		if err := mem.Write32(hFrameR1+uint32(gprSlot(r)), env.gprs[r]); err != nil {
			t.Fatal(err)
		}
	}
	for f := uint32(0); f < 14; f++ {
		if err := mem.Write64(hFrameR1+uint32(fprSlot(f)), math.Float64bits(env.fprs[f])); err != nil {
			t.Fatal(err)
		}
	}
	m.cpu.GPR[1] = hFrameR1
}

// runSnippet runs the code followed by the "done" hypercall.
func (m *machine) runSnippet(t testing.TB, code *Code) {
	code = code.ForPoint(hPoint, hFuncID)
	m.fixups = map[uint32]uint32{}
	for _, f := range code.Faults {
		for _, at := range f.At {
			m.fixups[hCode+uint32(4*at)] = hCode + uint32(4*f.Fixup)
		}
	}
	m.loadSnippet(t, code)
	m.run(t, hCode)
}

func (m *machine) loadSnippet(t testing.TB, code *Code) {
	var a asm
	a.w = append(a.w, code.Words...)
	a.li32(0, hcDone)
	a.sc()
	if err := m.cpu.Mem.Poke(hCode, wordsBytes(a.w)); err != nil {
		t.Fatal(err)
	}
}

func TestCodegenMatchesEvaluator(t *testing.T) {
	m := newMachine(t)
	slots := NewSlots(hVars, 0x3000)
	g := newTreeGen(1, slots)
	g.noFP = !m.hasFP()
	if g.noFP {
		t.Log("the ppc interpreter does not execute floating point yet: double trees left out")
	}
	results := map[Type]*Var{}
	for _, ty := range []Type{Int, Int64, Double} {
		results[ty], _ = slots.Alloc("result_"+ty.String(), ty)
	}
	ran, skipped := map[Type]int{}, 0
	seen := map[Kind]int{}
	for i := range 5000 {
		e := g.value(3 + i%3)
		ty := typeOf(e)
		if checkOnMachine(t, m, g, results[ty], e) {
			ran[ty]++
			for k := range kindsIn(e) {
				seen[k]++
			}
		} else {
			skipped++
		}
	}
	for _, k := range []Kind{KIndex, KSetIndex, KWhole, KPush, KPop, KDepth, KPoint, KFunc, KLoad, KStore} {
		if seen[k] < 100 {
			t.Errorf("only %d trees with a %s node ran", seen[k], k)
		}
	}
	if m.faulted < 100 {
		t.Errorf("only %d faulting accesses were recovered", m.faulted)
	}
	for _, ty := range []Type{Int, Int64, Double}[:3-b2i(g.noFP)] {
		if ran[ty] < 200 {
			t.Errorf("only %d %s trees ran", ran[ty], ty)
		}
	}
	if skipped > 50 {
		t.Errorf("%d trees needed too many registers", skipped)
	}
	t.Logf("ran %v trees, %d refused for register pressure, %d faults recovered", ran, skipped, m.faulted)
}

// hasFP reports whether the interpreter runs lfd.
func (m *machine) hasFP() bool {
	var a asm
	a.lfd(1, 0, 1)
	a.li32(0, hcDone)
	a.sc()
	if err := m.cpu.Mem.Poke(hCode, wordsBytes(a.w)); err != nil {
		return false
	}
	m.cpu.GPR[1] = hFrameR1
	m.cpu.PC = hCode
	return m.cpu.Run(100).Kind == ppc.StopSyscall
}

// TestDivisionEdges runs / and % over every pair of interesting constants, for int and
// int64, through variables so nothing is folded.
func TestDivisionEdges(t *testing.T) {
	m := newMachine(t)
	slots := NewSlots(hVars, 0x800)
	x, _ := slots.Alloc("x", Int64)
	y, _ := slots.Alloc("y", Int64)
	res, _ := slots.Alloc("res", Int64)
	var vals []int64
	for _, v := range intConsts {
		vals = append(vals, int64(v))
	}
	vals = append(vals, int64Consts...)
	for _, k := range []Kind{KDiv, KMod} {
		code, err := Compile(Assign(res, Binary(k, Ref(x), Ref(y))), &testTarget)
		if err != nil {
			t.Fatal(err)
		}
		m.setFrame(t, &goEnv{})
		m.loadSnippet(t, code)
		for _, a := range vals {
			for _, b := range vals {
				m.writeVar(t, x, Int64Value(a))
				m.writeVar(t, y, Int64Value(b))
				m.run(t, hCode)
				if got, want := m.readVar(t, res).I, int64Op(k, a, b); got != want {
					t.Fatalf("%d %s %d = %d on the machine, want %d", a, kinds[k].c, b, got, want)
				}
			}
		}
	}
}

// kindsIn is the set of node kinds in e.
func kindsIn(e *Exp) map[Kind]bool {
	out := map[Kind]bool{}
	var walk func(*Exp)
	walk = func(e *Exp) {
		out[e.Kind] = true
		for _, k := range e.Kids {
			walk(k)
		}
	}
	walk(e)
	return out
}
