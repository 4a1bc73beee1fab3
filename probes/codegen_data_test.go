package probes

import (
	"encoding/binary"
	"math"
	"testing"
)

// The data half of the random trees: arrays, stacks, loads and stores of program memory
// (some of them faulting) and point identity.

func (g *treeGen) allocData(slots *Slots) {
	for i, d := range []struct {
		t Type
		n int
	}{{Int, 5}, {Int64, 3}, {Double, 4}, {Int, 1}} {
		a, err := slots.AllocArray(string(rune('p'+i)), d.t, d.n)
		if err != nil {
			panic(err)
		}
		g.arrays = append(g.arrays, a)
	}
	for i, d := range []struct {
		t Type
		n int
	}{{Int, 3}, {Int64, 2}, {Double, 2}} {
		s, err := slots.AllocStack(string(rune('w'+i)), d.t, d.n)
		if err != nil {
			panic(err)
		}
		g.stacks = append(g.stacks, s)
	}
}

func (g *treeGen) array() *Array {
	for {
		a := g.arrays[g.r.IntN(len(g.arrays))]
		if !g.noFP || a.T != Double {
			return a
		}
	}
}

func (g *treeGen) stack() *Stack {
	for {
		s := g.stacks[g.r.IntN(len(g.stacks))]
		if !g.noFP || s.T != Double {
			return s
		}
	}
}

// memTypesFP lists the memory types a tree may load, by whether doubles are allowed.
func (g *treeGen) memType() MemType {
	for {
		m := MemType(1 + g.r.IntN(int(memTypeCount)-1))
		if !g.noFP || m.ValueType() != Double {
			return m
		}
	}
}

// indexLeaf is an index that is sometimes out of range (negative or past the end).
func (g *treeGen) indexLeaf(n int) *Exp {
	switch g.r.IntN(4) {
	case 0:
		return IntConst([]int32{-1, 0, 1, 2, int32(n) - 1, int32(n), 1000, math.MinInt32}[g.r.IntN(8)])
	case 1:
		return Binary(KBAnd, Ref(g.vars[0]), IntConst(7))
	case 2:
		return Binary(KSub, Binary(KBAnd, Ref(g.vars[3]), IntConst(3)), IntConst(1))
	}
	return IntConst(int32(g.r.IntN(n)))
}

// address is an address in one of the test regions (or unmapped), aligned for m, as a
// constant or computed from a value.
func (g *treeGen) address(d int, m MemType) (*Exp, int32) {
	base := []uint32{hData, hData, hRO, hVars, hUnmapped, 16}[g.r.IntN(6)]
	off := int32(g.r.IntN(16)) * int32(m.Size())
	if g.r.IntN(2) == 0 || d <= 0 {
		return IntConst(int32(base + uint32(8*g.r.IntN(64)))), off
	}
	return Binary(KAdd, IntConst(int32(base)), Binary(KBAnd, g.intValue(d-1), IntConst(0x1f8))), off
}

func (g *treeGen) dataLeaf() *Exp {
	switch g.r.IntN(7) {
	case 0, 1:
		a := g.array()
		return Index(a, g.indexLeaf(a.N))
	case 2:
		return Pop(g.stack())
	case 3:
		return Depth(g.stack())
	case 4:
		if g.r.IntN(2) == 0 {
			return PointIndex()
		}
		return FuncIndex()
	}
	m := g.memType()
	addr, off := g.address(0, m)
	return Load(addr, m, off)
}

func (g *treeGen) dataNode(d int) *Exp {
	switch g.r.IntN(4) {
	case 0:
		a := g.array()
		x := g.value(d)
		if !assignable(a.T, typeOf(x)) {
			x = Index(a, g.indexLeaf(a.N))
		}
		var i *Exp = Binary(KSub, Binary(KBAnd, g.intValue(d), IntConst(7)), IntConst(1))
		if g.r.IntN(2) == 0 {
			i = g.indexLeaf(a.N)
		}
		return SetIndex(a, i, x)
	case 1:
		m := g.memType()
		addr, off := g.address(d, m)
		x := g.value(d)
		if !assignable(m.ValueType(), typeOf(x)) {
			x = IntConst(int32(g.r.Uint32()))
		}
		return Store(addr, m, off, x)
	case 2:
		s := g.stack()
		x := g.value(d)
		if !assignable(s.T, typeOf(x)) {
			x = Pop(s)
		}
		return Seq(Push(s, x), g.value(d))
	}
	m := g.memType()
	addr, off := g.address(d, m)
	return Load(addr, m, off)
}

func (g *treeGen) dataEffect(d int) *Exp {
	if g.r.IntN(2) == 0 {
		return Send(Whole(g.array()), g.value(d))
	}
	s := g.stack()
	return Push(s, Pop(s))
}

// randomizeMemory gives every variable, array element, stack and data byte a fresh value:
// doubles from the interesting constants, stack depths around the edges (and broken).
func (g *treeGen) randomizeMemory(t *testing.T, m *machine, res *Var) {
	for _, v := range append(g.vars, res) {
		m.writeVar(t, v, g.randomValue(v.T))
	}
	for _, a := range g.arrays {
		m.write32(t, a.Over, uint32(g.r.IntN(3)))
		for i := range a.N {
			m.writeMem(t, a.ElemAddr(i), ElemMem(a.T), g.randomValue(a.T))
		}
	}
	for _, s := range g.stacks {
		top := []uint32{0, 0, 1, uint32(s.Depth) - 1, uint32(s.Depth), uint32(s.Depth), uint32(s.Depth) + 1, math.MaxUint32}[g.r.IntN(8)]
		m.write32(t, s.TopAddr(), top)
		m.write32(t, s.OverAddr(), uint32(g.r.IntN(3)))
		m.write32(t, s.UnderAddr(), uint32(g.r.IntN(3)))
		for i := range s.Depth {
			m.writeMem(t, s.ElemAddr(i), ElemMem(s.T), g.randomValue(s.T))
		}
	}
	m.write32(t, hFaults, uint32(g.r.IntN(3)))
	data := make([]byte, hDataSize)
	for i := 0; i < len(data); i += 8 {
		binary.BigEndian.PutUint64(data[i:], g.r.Uint64()&0x80ff00ff80ff00ff)
	}
	if err := m.cpu.Mem.Write(hData, data); err != nil {
		t.Fatal(err)
	}
	if err := m.cpu.Mem.Poke(hRO, data[:hDataSize/2]); err != nil {
		t.Fatal(err)
	}
}

func (g *treeGen) randomValue(t Type) Value {
	if t == Double {
		return DoubleValue(doubleConsts[g.r.IntN(len(doubleConsts))])
	}
	return valueFromBits(t, g.r.Uint64())
}

func (m *machine) write32(t testing.TB, addr, v uint32) {
	if err := m.cpu.Mem.Write32(addr, v); err != nil {
		t.Fatal(err)
	}
}

func (m *machine) writeMem(t testing.TB, addr uint32, mt MemType, x Value) {
	if err := m.cpu.Mem.Write(addr, EncodeMem(mt, x)); err != nil {
		t.Fatal(err)
	}
}

// compareMemory compares the machine's writable regions with the evaluator's, word by
// word; two NaNs of either width count as equal (payloads differ between the host and
// the PowerPC).
func (g *treeGen) compareMemory(t *testing.T, m *machine, env *goEnv, e *Exp) {
	for _, r := range env.regions {
		if !r.writable {
			continue
		}
		got := make([]byte, len(r.data))
		if err := m.cpu.Mem.Read(r.base, got); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(got); i += 8 {
			a, b := got[i:i+8], r.data[i:i+8]
			if string(a) == string(b) || bothNaN(a, b) {
				continue
			}
			t.Fatalf("%v: memory at 0x%x = %x on the machine, %x in Go", e, r.base+uint32(i), a, b)
		}
	}
}

func bothNaN(a, b []byte) bool {
	if math.IsNaN(math.Float64frombits(binary.BigEndian.Uint64(a))) &&
		math.IsNaN(math.Float64frombits(binary.BigEndian.Uint64(b))) {
		return true
	}
	for i := 0; i < 8; i += 4 {
		x, y := binary.BigEndian.Uint32(a[i:]), binary.BigEndian.Uint32(b[i:])
		if x != y && !(math.IsNaN(float64(math.Float32frombits(x))) && math.IsNaN(float64(math.Float32frombits(y)))) {
			return false
		}
	}
	return true
}
