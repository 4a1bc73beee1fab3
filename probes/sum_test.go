package probes

import (
	"math"
	"strings"
	"testing"
)

// sumOnMachine compiles "res = e" with the test target, runs it and returns res and the
// faults the code counted.
func sumOnMachine(t *testing.T, m *machine, res *Var, e *Exp) (Value, uint32) {
	t.Helper()
	code, err := Compile(Assign(res, e), &testTarget)
	if err != nil {
		t.Fatalf("compile %v: %v", e, err)
	}
	m.write32(t, hFaults, 0)
	m.setFrame(t, &goEnv{})
	m.runSnippet(t, code)
	faults, err := m.cpu.Mem.Read32(hFaults)
	if err != nil {
		t.Fatal(err)
	}
	return m.readVar(t, res), faults
}

// TestSumLoop runs sums compiled to PowerPC loops and compares each with the sum Go makes:
// counts read from memory (0, 1, the whole data region, MaxSum), garbage counts (negative
// and huge: capped and counted as a fault), elements read through the index, a double
// body, a nested sum, a body with a hypercall, and a value live around the loop.
func TestSumLoop(t *testing.T) {
	m := newMachine(t)
	slots := NewSlots(hVars, hVarsSize-8)
	res, err := slots.Alloc("res", Int64)
	if err != nil {
		t.Fatal(err)
	}
	dres, err := slots.Alloc("dres", Double)
	if err != nil {
		t.Fatal(err)
	}
	const nData = hDataSize/4 - 1 // ints at hData+4 .., the count at hData
	data := make([]int32, nData)
	for k := range data {
		data[k] = int32(k*k*7919%100003) - 50000
		m.write32(t, hData+4+uint32(4*k), uint32(data[k]))
	}
	count := Load(IntConst(hData), MemI32, 0)
	elem := func(i *Exp) *Exp {
		return Load(Binary(KAdd, IntConst(hData+4), Binary(KMul, i, IntConst(4))), MemI32, 0)
	}
	goSum := func(n int) int64 {
		s := int64(0)
		for k := range n {
			s += int64(data[k])
		}
		return s
	}
	for _, c := range []struct {
		n      int32
		want   int64
		faults uint32
	}{
		{0, 0, 0}, {1, goSum(1), 0}, {2, goSum(2), 0}, {nData, goSum(nData), 0},
		{-1, 0, 1}, {math.MinInt32, 0, 1},
	} {
		m.write32(t, hData, uint32(c.n))
		got, faults := sumOnMachine(t, m, res, Sum(count, elem))
		if got.I != c.want || faults != c.faults {
			t.Errorf("sum of %d elements = %d with %d faults, want %d with %d", c.n, got.I, faults, c.want, c.faults)
		}
	}

	// Counts at and past the cap, with a body that reads no memory.
	square := func(i *Exp) *Exp { return Binary(KAdd, Binary(KMul, i, i), IntConst(3)) }
	goSquares := func(n int64) int64 {
		s := int64(0)
		for k := range n {
			s += int64(int32(k*k)) + 3
		}
		return s
	}
	for _, c := range []struct {
		n      int32
		want   int64
		faults uint32
	}{{MaxSum, goSquares(MaxSum), 0}, {MaxSum + 1, goSquares(MaxSum), 1}, {math.MaxInt32, goSquares(MaxSum), 1}} {
		m.write32(t, hData, uint32(c.n))
		got, faults := sumOnMachine(t, m, res, Sum(count, square))
		if got.I != c.want || faults != c.faults {
			t.Errorf("sum of i*i+3 for %d = %d with %d faults, want %d with %d", c.n, got.I, faults, c.want, c.faults)
		}
	}

	// A double body, a nested sum, a hypercall in the body, a value live around the loop.
	m.write32(t, hData, 5)
	got, _ := sumOnMachine(t, m, dres, Sum(count, func(i *Exp) *Exp { return Binary(KMul, i, DoubleConst(0.5)) }))
	if got.F != 5 {
		t.Errorf("sum of i*0.5 for 5 = %v, want 5", got.F)
	}
	nested := Sum(IntConst(4), func(i *Exp) *Exp {
		return Sum(Binary(KAdd, i, IntConst(1)), func(j *Exp) *Exp { return Binary(KMul, i, j) })
	})
	if got, _ := sumOnMachine(t, m, res, nested); got.I != 0+1+(0+2+4)+(0+3+6+9) {
		t.Errorf("%v = %d, want %d", nested, got.I, 0+1+(0+2+4)+(0+3+6+9))
	}
	sizes := Sum(IntConst(3), func(i *Exp) *Exp { return CommSize(Binary(KAdd, i, IntConst(1)), true) })
	live := Binary(KAdd, Arg(0, Int), sizes)
	m.cpu.GPR[3] = 0
	code, err := Compile(Assign(res, live), &testTarget)
	if err != nil {
		t.Fatal(err)
	}
	m.setFrame(t, &goEnv{gprs: [32]uint32{3: 1000}})
	m.runSnippet(t, code)
	want := int64(1000) + int64(commInfoValue(1, 1)+commInfoValue(2, 1)+commInfoValue(3, 1))
	if got := m.readVar(t, res); got.I != want {
		t.Errorf("%v = %d, want %d", live, got.I, want)
	}
	if got, _ := sumOnMachine(t, m, res, Sum(IntConst(1), func(*Exp) *Exp { return CommRank(IntConst(5)) })); got.I != int64(commInfoValue(5, 2)) {
		t.Errorf("comm_rank(5) = %d, want %d", got.I, commInfoValue(5, 2))
	}
	if s := sizes.String(); s != "sum(i < 3: comm_remote_size((i + 1)))" {
		t.Errorf("String() = %q", s)
	}
}

// TestSumIndexOutsideItsSum: an index kept past its sum's body is refused when compiled,
// and a sum's count must be an int.
func TestSumIndexOutsideItsSum(t *testing.T) {
	var leaked *Exp
	Sum(IntConst(3), func(i *Exp) *Exp { leaked = i; return i })
	if _, err := Compile(leaked, nil); err == nil || !strings.Contains(err.Error(), "outside the body of its sum") {
		t.Errorf("compiling a leaked index: %v", err)
	}
	if _, err := Check(Sum(Int64Const(3), func(i *Exp) *Exp { return i })); err == nil || !strings.Contains(err.Error(), "count of a sum must be an int") {
		t.Errorf("an int64 count: %v", err)
	}
}
