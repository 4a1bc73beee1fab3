package ppc

import (
	"math"
	"testing"
)

// TestMAC checks the signed multiply-accumulate forms against the PPC440 manual's
// definitions (qemu-ppc 7.2 gets their overflow wrong, so they are not in the qemu tests).
func TestMAC(t *testing.T) {
	mac := func(xo uint32, oe bool) uint32 { return wXO(3, 4, 5, xo, oe, true)&^(63<<26) | 4<<26 }
	tests := []struct {
		name        string
		w           uint32
		rt, ra, rb  uint32
		r, xer, cr0 uint32
	}{
		// macchw: RT + RA[16:31] * RB[0:15], signed.
		{"macchw", mac(172, false), 10, 0xffff, 0x00030000, 7, 0, 0x4},
		{"macchwo overflow", mac(172, true), 0x7fffffff, 0x0001, 0x00010000, 0x80000000, 0xc0000000, 0x9},
		{"macchwo no overflow", mac(172, true), 0x7fffffff, 0x0001, 0x80000000, 0x7fff7fff, 0, 0x4},
		{"macchws saturates", mac(236, false), 0x7fffffff, 0x7fff, 0x7fff0000, 0x7fffffff, 0, 0x4},
		{"machhws saturates low", mac(108, false), 0x80000000, 0x7fff0000, 0x80000000, 0x80000000, 0, 0x8},
		{"nmacchw", mac(174, false), 0, 0xffff, 0x7fff0000, 0x7fff, 0, 0x4},
		{"nmacchwso", mac(238, true), 0x80000000, 0x0001, 0x00010000, 0x80000000, 0xc0000000, 0x9},
		{"maclhw", mac(428, false), 1, 0xfffe, 0x0003, 0xfffffffb, 0, 0x8},
		{"mulchw", mac(168, false) &^ (1 << 10), 99, 0x8000, 0x80000000, 0x40000000, 0, 0x4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestCPU(t, tt.w)
			c.GPR[3], c.GPR[4], c.GPR[5] = tt.rt, tt.ra, tt.rb
			run(t, c)
			if c.GPR[3] != tt.r || c.XER != tt.xer || c.CR>>28 != tt.cr0 {
				t.Errorf("rt 0x%08x xer 0x%08x cr0 %x; want 0x%08x 0x%08x %x", c.GPR[3], c.XER, c.CR>>28, tt.r, tt.xer, tt.cr0)
			}
		})
	}
}

func TestReservation(t *testing.T) {
	lwarx := wX(31, 3, 0, 4, 20, false)
	stwcx := wX(31, 5, 0, 4, 150, true)
	c := newTestCPU(t, lwarx, stwcx, stwcx)
	c.GPR[4], c.GPR[5] = 0x20000010, 42
	c.Mem.Write32(0x20000010, 7)
	c.XER = XerSO
	if c.Step(); c.GPR[3] != 7 {
		t.Fatalf("lwarx loaded %d", c.GPR[3])
	}
	c.Step()
	if v, _ := c.Mem.Read32(0x20000010); v != 42 || c.CR>>28 != 0x3 {
		t.Errorf("first stwcx.: mem %d cr0 %x, want 42 and EQ|SO", v, c.CR>>28)
	}
	c.GPR[5] = 43
	c.Step()
	if v, _ := c.Mem.Read32(0x20000010); v != 42 || c.CR>>28 != 0x1 {
		t.Errorf("second stwcx. without reservation: mem %d cr0 %x", v, c.CR>>28)
	}
	c = newTestCPU(t, lwarx)
	c.GPR[4] = 0x20000002
	if st := c.Run(10); st.Kind != StopFault || st.Fault.Kind != FaultAlign || st.Fault.Signal() != 7 {
		t.Errorf("unaligned lwarx: %+v", st)
	}
}

func f64(x float64) uint64 { return math.Float64bits(x) }

func TestFloatingPoint(t *testing.T) {
	tests := []struct {
		name     string
		w        uint32
		a, b, c  float64
		want     float64
		fpscrHas uint32
	}{
		// fadds must round the exact sum once: 1+2^-24 (a single midpoint) + 2^-60 rounds
		// up, where double-then-single rounding would give 1.
		{"fadds single rounding", wA(59, 3, 4, 5, 0, 21, false), 1 + 0x1p-24, 0x1p-60, 0, 1 + 0x1p-23, FpscrXX | FpscrFI},
		// fmadd is fused: (1+2^-30)(1-2^-30) - 1 = -2^-60 exactly.
		{"fmadd fused", wA(63, 3, 4, 5, 6, 29, false), 1 + 0x1p-30, -1, 1 - 0x1p-30, -0x1p-60, 0},
		{"fnmsub", wA(63, 3, 4, 5, 6, 30, false), 2, 1, 3, -5, 0},
		{"frsp", wA(63, 3, 0, 5, 0, 12, false), 0, 0.1, 0, float64(float32(0.1)), FpscrXX},
		{"fdiv by zero", wA(63, 3, 4, 5, 0, 18, false), 1, 0, 0, math.Inf(1), FpscrZX | FpscrFX},
		{"inf-inf", wA(63, 3, 4, 5, 0, 20, false), math.Inf(1), math.Inf(1), 0, math.NaN(), FpscrVXISI | FpscrVX},
		{"fsel", wA(63, 3, 4, 5, 6, 23, false), -0.0, 1, 2, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestCPU(t, tt.w)
			c.FPR[4], c.FPR[5], c.FPR[6] = f64(tt.a), f64(tt.b), f64(tt.c)
			run(t, c)
			got := math.Float64frombits(c.FPR[3])
			if !(got == tt.want && math.Signbit(got) == math.Signbit(tt.want) || math.IsNaN(got) && math.IsNaN(tt.want)) {
				t.Errorf("result %v (%016x), want %v", got, c.FPR[3], tt.want)
			}
			if c.FPSCR&tt.fpscrHas != tt.fpscrHas {
				t.Errorf("fpscr 0x%08x lacks 0x%08x", c.FPSCR, tt.fpscrHas)
			}
		})
	}
}

func TestConvertToWord(t *testing.T) {
	fctiw, fctiwz := wA(63, 3, 0, 5, 0, 14, false), wA(63, 3, 0, 5, 0, 15, false)
	tests := []struct {
		w     uint32
		x     float64
		want  uint32
		vxcvi bool
	}{
		{fctiw, 2.5, 2, false}, {fctiw, 3.5, 4, false}, {fctiw, -2.5, 0xfffffffe, false},
		{fctiwz, -2.9, 0xfffffffe, false}, {fctiwz, 2.9, 2, false},
		{fctiw, 3e9, 0x7fffffff, true}, {fctiw, -3e9, 0x80000000, true},
		{fctiwz, math.NaN(), 0x80000000, true}, {fctiw, math.Inf(-1), 0x80000000, true},
	}
	for _, tt := range tests {
		c := newTestCPU(t, tt.w)
		c.FPR[5] = f64(tt.x)
		run(t, c)
		if uint32(c.FPR[3]) != tt.want || (c.FPSCR&FpscrVXCVI != 0) != tt.vxcvi {
			t.Errorf("convert %v: 0x%08x fpscr 0x%08x, want 0x%08x vxcvi %v", tt.x, uint32(c.FPR[3]), c.FPSCR, tt.want, tt.vxcvi)
		}
	}
}

func TestSingleLoadStore(t *testing.T) {
	// lfs keeps a signalling NaN signalling; stfs truncates the fraction (no rounding).
	lfs := wD(48, 3, 4, 0)
	stfs := wD(52, 5, 4, 8)
	c := newTestCPU(t, lfs, stfs)
	c.GPR[4] = 0x20000000
	c.Mem.Write32(0x20000000, 0x7fa00001)
	c.FPR[5] = f64(1 + 0x1p-23 + 0x1p-24 + 0x1p-40)
	run(t, c)
	if c.FPR[3] != 0x7ff4000020000000 {
		t.Errorf("lfs SNaN: %016x", c.FPR[3])
	}
	if v, _ := c.Mem.Read32(0x20000008); v != 0x3f800001 {
		t.Errorf("stfs: %08x, want 3f800001 (truncated)", v)
	}
}

func TestFaults(t *testing.T) {
	tests := []struct {
		name   string
		w      uint32
		kind   FaultKind
		signal int
	}{
		{"zero word", 0, FaultIllegal, 4},
		{"altivec vaddubm", 0x10000000, FaultIllegal, 4},
		{"mfmsr", wX(31, 3, 0, 0, 83, false), FaultPriv, 4},
		{"tw always", wX(31, 31, 0, 0, 4, false), FaultTrap, 5},
		{"store to text", wD(36, 3, 0, 0x1000) | 0x1000<<16>>16, FaultAccess, 11},
		{"lwzu ra=rt", wD(33, 3, 3, 0), FaultIllegal, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestCPU(t, tt.w)
			c.GPR[0] = codeBase
			st := c.Run(10)
			if st.Fault == nil || st.Fault.Kind != tt.kind || st.Fault.Signal() != tt.signal || st.Fault.PC != codeBase || st.Fault.Word != tt.w {
				t.Fatalf("stop %+v fault %+v", st, st.Fault)
			}
			if c.PC != codeBase || c.Count.Instructions != 0 {
				t.Errorf("after fault: pc 0x%x, %d instructions", c.PC, c.Count.Instructions)
			}
			if st.Fault.Error() == "" {
				t.Error("empty fault text")
			}
		})
	}
}

func TestSpecialRegisters(t *testing.T) {
	mfspr := func(rt, spr uint32) uint32 { return wX(31, rt, spr&31, spr>>5, 339, false) }
	mffscrn := uint32(63<<26 | 3<<21 | 22<<16 | 4<<11 | 583<<1)
	c := newTestCPU(t, mfspr(3, 287), mfspr(4, 268), mfspr(5, 1), mffscrn)
	c.TBBase = 1000
	c.XER = 0x20000005
	c.FPSCR = 0x12345
	run(t, c)
	// The timebase is exact at the instruction: the mfspr PVR before it took its cycles.
	if c.GPR[3] != PVR440 || c.GPR[4] != 1000+DefaultCosts[ClassSPR] || c.GPR[5] != 0x20000005 {
		t.Errorf("pvr 0x%x tb %d xer 0x%x", c.GPR[3], c.GPR[4], c.GPR[5])
	}
	if c.FPR[3] != 0x12345 || c.FPSCR != 0x12345 {
		t.Errorf("mffscrn as mffs: f3 %x fpscr %x", c.FPR[3], c.FPSCR)
	}
}

// TestEstimates checks fres against values qemu-ppc -cpu 440epx gives (results and
// FPSCR), at the edges of the single range where the quotient overflows or underflows.
func TestEstimates(t *testing.T) {
	fres := wA(59, 3, 0, 5, 0, 24, false)
	tests := []struct{ x, want, fpscr uint64 }{
		{0xb7e0000000000000, 0xfff0000000000000, 0x92029000},
		{0xc7f0000000000000, 0xb7f0000000000000, 0x00008000},
		{0x3800000000000000, 0x47e0000000000000, 0x00004000},
		{0x0010000000000000, 0x7ff0000000000000, 0x92025000},
		{0x47efffffe0000000, 0x37f0000000000000, 0x8a024000},
	}
	for _, tt := range tests {
		c := newTestCPU(t, fres)
		c.FPR[5] = tt.x
		run(t, c)
		if c.FPR[3] != tt.want || uint64(c.FPSCR) != tt.fpscr {
			t.Errorf("fres %016x = %016x fpscr %08x, want %016x %08x", tt.x, c.FPR[3], c.FPSCR, tt.want, tt.fpscr)
		}
	}
}
