package ppc

import "testing"

// Instruction word builders for the tests (fields as in the ISA books).
func wD(op, rt, ra uint32, imm int32) uint32 { return op<<26 | rt<<21 | ra<<16 | uint32(imm)&0xffff }
func wX(op, rt, ra, rb, xo uint32, rc bool) uint32 {
	w := op<<26 | rt<<21 | ra<<16 | rb<<11 | xo<<1
	if rc {
		w |= 1
	}
	return w
}
func wXO(rt, ra, rb, xo uint32, oe, rc bool) uint32 {
	w := wX(31, rt, ra, rb, xo, rc)
	if oe {
		w |= 1 << 10
	}
	return w
}
func wA(op, frt, fra, frb, frc, xo uint32, rc bool) uint32 {
	w := op<<26 | frt<<21 | fra<<16 | frb<<11 | frc<<6 | xo<<1
	if rc {
		w |= 1
	}
	return w
}
func wM(op, rs, ra, sh, mb, me uint32) uint32 {
	return op<<26 | rs<<21 | ra<<16 | sh<<11 | mb<<6 | me<<1
}

const codeBase = 0x10000000

// newTestCPU returns a CPU whose text holds words at codeBase followed by sc, with a
// RW data page at 0x20000000.
func newTestCPU(t *testing.T, words ...uint32) *CPU {
	t.Helper()
	m := NewMemory()
	m.Map(codeBase, PageSize, PermRX)
	m.Map(0x20000000, PageSize, PermRW)
	for i, w := range append(words, 0x44000002) {
		m.Poke(codeBase+4*uint32(i), []byte{byte(w >> 24), byte(w >> 16), byte(w >> 8), byte(w)})
	}
	c := NewCPU(m)
	c.PC = codeBase
	return c
}

// run executes until the sc at the end and fails on any other stop.
func run(t *testing.T, c *CPU) {
	t.Helper()
	if st := c.Run(1000); st.Kind != StopSyscall {
		t.Fatalf("stopped with %v (%v) at 0x%08x", st.Kind, st.Fault, c.PC)
	}
}

func TestIntegerEdges(t *testing.T) {
	tests := []struct {
		name        string
		w           uint32
		a, b, xer   uint32
		r, cr, xer2 uint32
	}{
		{"addo. overflow", wXO(3, 4, 5, 266, true, true), 0x7fffffff, 1, 0, 0x80000000, 0x9, 0xc0000000},
		{"addc carry", wXO(3, 4, 5, 10, false, false), 0xffffffff, 1, 0, 0, 0, XerCA},
		{"adde carry in", wXO(3, 4, 5, 138, false, true), 0xffffffff, 0, XerCA, 0, 0x2, XerCA},
		{"subfc borrow", wXO(3, 4, 5, 8, false, false), 2, 1, 0, 0xffffffff, 0, 0},
		{"subfc no borrow", wXO(3, 4, 5, 8, false, false), 1, 2, 0, 1, 0, XerCA},
		{"neg min", wXO(3, 4, 0, 104, true, false), 0x80000000, 0, 0, 0x80000000, 0, 0xc0000000},
		{"divw by zero", wXO(3, 4, 5, 491, true, true), 7, 0, 0, 7, 0x5, 0xc0000000},
		{"divw min/-1", wXO(3, 4, 5, 491, true, false), 0x80000000, 0xffffffff, 0, 0x80000000, 0, 0xc0000000},
		{"divwu", wXO(3, 4, 5, 459, false, false), 0xffffffff, 16, 0, 0x0fffffff, 0, 0},
		{"mullwo", wXO(3, 4, 5, 235, true, false), 0x10000, 0x10000, 0, 0, 0, 0xc0000000},
		{"mulhwu", wXO(3, 4, 5, 11, false, false), 0xffffffff, 0xffffffff, 0, 0xfffffffe, 0, 0},
		{"sraw neg carry", wX(31, 4, 3, 5, 792, false), 0xfffffff1, 4, 0, 0xffffffff, 0, XerCA},
		{"sraw 40", wX(31, 4, 3, 5, 792, false), 0x80000000, 40, 0, 0xffffffff, 0, XerCA},
		{"slw 32", wX(31, 4, 3, 5, 24, true), 1, 32, XerSO, 0, 0x3, XerSO},
		{"rlwinm wrap mask", wM(21, 4, 3, 0, 30, 1), 0xffffffff, 0, 0, 0xc0000003, 0, 0},
		{"rlwnm rotate", wM(23, 4, 3, 5, 0, 31), 0x80000001, 1, 0, 0x00000003, 0, 0},
		{"cntlzw 0", wX(31, 4, 3, 0, 26, true), 0, 0, 0, 32, 0x4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestCPU(t, tt.w)
			c.GPR[4], c.GPR[5], c.XER = tt.a, tt.b, tt.xer
			run(t, c)
			dst := 3 // every case reads r4 (RA or RS) and r5 and writes r3
			if c.GPR[dst] != tt.r || c.CR>>28 != tt.cr || c.XER != tt.xer2 {
				t.Errorf("r 0x%08x cr0 %x xer 0x%08x; want 0x%08x %x 0x%08x", c.GPR[dst], c.CR>>28, c.XER, tt.r, tt.cr, tt.xer2)
			}
		})
	}
}
