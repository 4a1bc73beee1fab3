package ppc

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// Floating-point blocks for the translated-against-interpreted tests: the arithmetic,
// compares, conversions, moves, FPSCR instructions and loads and stores the translator
// covers, with one it leaves (mcrfs), over f0-f7 holding special
// values, and data pages salted with them.

// fpSpecials are values where floating point goes wrong: signed zeros, infinities, quiet
// and signalling NaNs, denormals, the ends of the double and single ranges, singles'
// halfway points, and the edges of fctiw's range.
var fpSpecials = []uint64{
	0, 1 << 63, // ±0
	0x7ff0000000000000, 0xfff0000000000000, // ±inf
	0x7ff8000000000000, 0xfff8000000000123, // quiet NaNs
	0x7ff0000000000001, 0xfff4000000000000, 0x7ff0000020000000, // signalling NaNs
	1, 0x800fffffffffffff, 0x0008000000000000, // denormals
	0x0010000000000000, 0x8010000000000001, // the smallest normals
	0x7fefffffffffffff, 0xffeffffffffffffe, 0x7fe0000000000000, // the largest
	math.Float64bits(1), math.Float64bits(-1.5), math.Float64bits(3), math.Float64bits(0.1),
	math.Float64bits(1 + 0x1p-24), math.Float64bits(-(1 + 0x1p-24 + 0x1p-52)), // singles' halfway points
	math.Float64bits(0x1p-126), math.Float64bits(0x1p-149), math.Float64bits(0x1.fffffep127),
	math.Float64bits(0x1p128), math.Float64bits(-0x1p-140), math.Float64bits(0x1.000001p-127),
	math.Float64bits(2147483647.5), math.Float64bits(-2147483648.5), math.Float64bits(2147483648),
	math.Float64bits(-2.5), math.Float64bits(0.5), math.Float64bits(1e300), math.Float64bits(1e-300),
	// around the fast path's floor for exact error terms (2^-960) and fctiwz's -2^31
	math.Float64bits(0x1p-480), math.Float64bits(-0x1.0000000000001p-480), math.Float64bits(0x1.8p-960),
	math.Float64bits(0x1p-961), math.Float64bits(-2147483648), math.Float64bits(2147483647.9),
}

// fpValue is a special value, a random double of a modest exponent, or random bits.
func (g blockGen) fpValue() uint64 {
	switch g.r.IntN(4) {
	case 0, 1:
		return fpSpecials[g.r.IntN(len(fpSpecials))]
	case 2:
		return math.Float64bits((g.r.Float64() - 0.5) * math.Ldexp(1, g.r.IntN(40)-20))
	}
	return g.r.Uint64()
}

// fpWord returns a floating-point instruction over f0-f7 (and r0-r7 for addresses).
func (g blockGen) fpWord() uint32 {
	rc := g.r.Uint32N(2)
	t, a, b, c := g.reg(), g.reg(), g.reg(), g.reg()
	arith := func(op, xo uint32) uint32 { return op<<26 | t<<21 | a<<16 | b<<11 | c<<6 | xo<<1 | rc }
	x63 := func(xo uint32) uint32 { return 63<<26 | t<<21 | a<<16 | b<<11 | xo<<1 | rc }
	switch g.r.IntN(10) {
	case 0, 1, 2: // A-form arithmetic, double and single (fmul: FRB 0; fsel double only)
		xo := []uint32{18, 20, 21, 25, 28, 29, 30, 31, 23, 22, 24}[g.r.IntN(11)]
		switch xo {
		case 18, 20, 21: // fdiv, fsub, fadd: no FRC
			c = 0
		case 25:
			b = 0
		case 22, 24: // fsqrt, fres: FRB only
			a, c = 0, 0
		}
		if xo == 23 || g.r.IntN(2) == 0 {
			return arith(63, xo)
		}
		return arith(59, xo)
	case 3: // compares into any CR field
		return 63<<26 | g.r.Uint32N(8)<<23 | a<<16 | b<<11 | []uint32{0, 32}[g.r.IntN(2)]<<1
	case 4: // conversions and moves
		return x63([]uint32{12, 14, 15, 72, 40, 264, 136, 26}[g.r.IntN(8)]) &^ (31 << 16)
	case 5: // FPSCR moves: mostly the rounding mode, sometimes any field or bit
		switch g.r.IntN(5) {
		case 0:
			return 63<<26 | t<<21 | 583<<1 | rc // mffs
		case 1:
			return 63<<26 | []uint32{30, 31, g.r.Uint32N(32)}[g.r.IntN(3)]<<21 | []uint32{38, 70}[g.r.IntN(2)]<<1 | rc
		case 2:
			return 63<<26 | 7<<23 | g.r.Uint32N(4)<<12 | 134<<1 | rc // mtfsfi 7,RN
		case 3:
			return 63<<26 | g.r.Uint32N(8)<<23 | g.r.Uint32N(16)<<12 | 134<<1 | rc
		}
		if g.r.IntN(4) == 0 {
			return 63<<26 | g.r.Uint32N(8)<<23 | g.r.Uint32N(8)<<18 | 64<<1 // mcrfs
		}
		return 63<<26 | g.r.Uint32N(256)<<17 | b<<11 | 711<<1 | rc // mtfsf
	case 6, 7: // D-form loads and stores, with update
		return (48+g.r.Uint32N(8))<<26 | t<<21 | a<<16 | g.disp()&^7
	}
	xo := []uint32{535, 567, 599, 631, 663, 695, 727, 759, 983}[g.r.IntN(9)]
	return 31<<26 | t<<21 | a<<16 | b<<11 | xo<<1
}

// fpSetup gives a CPU of fuzzMachine special values in f0-f7, its data pages special
// values at random doubleword and word slots, and an FPSCR: clear, a rounding mode, or
// random bits.
func (g blockGen) fpSetup(c *CPU) {
	for i := range c.FPR {
		c.FPR[i] = g.fpValue()
	}
	switch g.r.IntN(3) {
	case 0:
		c.FPSCR = 0
	case 1:
		c.FPSCR = g.r.Uint32N(4)
	default:
		c.FPSCR = g.r.Uint32()
	}
	for range 256 {
		addr := fuzzData + g.r.Uint32N(3*PageSize)&^7
		v := g.fpValue()
		if g.r.IntN(2) == 0 {
			var b [8]byte
			binary.BigEndian.PutUint64(b[:], v)
			c.Mem.Write(addr, b[:])
			continue
		}
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], math.Float32bits(float32(math.Float64frombits(v))))
		c.Mem.Write(addr+4*g.r.Uint32N(2), b[:])
	}
}

// fpEdge is a block of floating-point instructions over chosen values: f1, f2, ... start
// as f, the doublewords at fuzzData as dwords and the words at fuzzData+0x800 as words.
type fpEdge struct {
	name   string
	src    []string
	f      []uint64
	dwords []uint64
	words  []uint32
	fpscr  uint32 // FPSCR apart from RN, which each run varies
}

// fpEdges are the cases random blocks rarely reach: results where the translated code
// must leave to the interpreter (underflow decided before rounding, overflow in a
// directed mode, a double halfway between two singles), stfs and lfs of denormals,
// infinities and NaNs, the FEX summary, fctiw at the ends of its range, signed zeros
// and rounding-mode changes inside a block.
var fpEdges = []fpEdge{
	{name: "tiny before rounding", src: []string{"fmul f3,f1,f2", "fmuls f4,f5,f6", "fdiv f7,f8,f9"},
		f: []uint64{0x3ff0000000000001, 0x000fffffffffffff, 0, 0x3ff0000000000001, math.Float64bits(0x1.fffffep-127),
			0, math.Float64bits(0x1p-1022), math.Float64bits(1 + 0x1p-52)}},
	{name: "overflow rounded", src: []string{"fadd f3,f1,f2", "fsub f4,f5,f2", "fmuls f6,f7,f8"},
		f: []uint64{0x7fefffffffffffff, 0x7c90000000000000, 0, 0, 0xffefffffffffffff, 0,
			math.Float64bits(0x1.fffffefp127), math.Float64bits(1)}},
	{name: "single halfway", src: []string{"fadds f3,f1,f2", "fadds f4,f1,f5", "fmadds f6,f1,f7,f2",
		"fnmadds f8,f1,f7,f5", "fmuls f9,f1,f7", "frsp f10,f1"},
		f: []uint64{math.Float64bits(1 + 0x1p-24), math.Float64bits(0x1p-80), 0, 0, math.Float64bits(-0x1p-80), 0,
			math.Float64bits(1)}},
	{name: "stfs", src: []string{"stfs f1,0(r3)", "stfs f2,4(r3)", "stfs f3,8(r3)", "stfs f4,12(r3)",
		"stfs f5,16(r3)", "stfs f6,20(r3)", "stfsx f7,r4,r3", "stfsu f8,24(r6)", "stfd f1,0x100(r3)"},
		f: []uint64{math.Float64bits(0x1p-140), math.Float64bits(0x1.000001p-127), math.Float64bits(-0x1p-149),
			math.Float64bits(0x1p-150), math.Float64bits(0x1.fffffffffffffp-127), math.Float64bits(1e300),
			0x7ff0000000000001, 0xfff8000000000000}},
	{name: "lfs", src: []string{"lfs f1,0x800(r3)", "lfs f2,0x804(r3)", "lfs f3,0x808(r3)", "lfsx f4,r5,r3",
		"lfsu f5,0x810(r6)", "lfd f6,0(r3)", "lfdu f7,8(r7)", "stfd f2,0x400(r3)", "stfiwx f4,r4,r3"},
		words:  []uint32{0x7f800000, 0xff800001, 0x7fc00001, 0x00000001, 0x80400000, 0x3f800000},
		dwords: []uint64{0x7ff0000000000001, 0x000fffffffffffff}},
	{name: "summary", src: []string{"fadd f3,f1,f2", "mtfsb0 24", "fmul f4,f1,f2", "mtfsb1 24", "fctiw f5,f1"},
		f: []uint64{math.Float64bits(1), math.Float64bits(2)}, fpscr: FpscrVXSNAN | 0x80},
	{name: "summary stale", src: []string{"fadd f3,f1,f2", "mtfsf 0x81,f1"},
		f: []uint64{math.Float64bits(1), math.Float64bits(0.1)}, fpscr: FpscrFEX | FpscrVX | FpscrOX | 0x40},
	{name: "fctiw", src: []string{"fctiw f3,f1", "fctiw f4,f2", "fctiwz f5,f6", "fctiw f7,f8", "fctiwz. f9,f8",
		"stfiwx f7,r4,r3"},
		f: []uint64{math.Float64bits(2147483647.5), math.Float64bits(-2147483648.5), 0, 0, 0,
			math.Float64bits(-2147483648.9), 0, math.Float64bits(-2.5)}},
	{name: "signs", src: []string{"fsel f3,f1,f2,f4", "fsel f5,f6,f2,f4", "fcmpu cr1,f1,f7", "fcmpo cr7,f2,f4",
		"fsub f8,f2,f2", "fmadd f9,f2,f2,f10", "fnmsub. f11,f2,f2,f10", "fmul f12,f1,f2", "fneg. f13,f1",
		"fabs f14,f1", "fnabs f15,f7", "mffs f16"},
		f: []uint64{1 << 63, math.Float64bits(1), 0, math.Float64bits(-3), 0, 0x7ff8000000000000, 0, 0, 0,
			math.Float64bits(-1)}},
	{name: "rounding changes", src: []string{"mtfsfi 7,1", "fadd f3,f1,f2", "mtfsfi 7,2", "fadd f4,f1,f2",
		"mtfsfi 7,3", "fdiv f5,f1,f6", "mtfsb0 30", "fmuls f7,f1,f6", "mtfsb1 31", "fdivs f8,f1,f6", "fadd. f9,f1,f2"},
		f: []uint64{math.Float64bits(1), 0x3ca0000000000001, 0, 0, 0, math.Float64bits(3)}},
	{name: "roots and estimates", src: []string{"fsqrt f3,f1", "fsqrts f4,f2", "fsqrt. f5,f6", "fres f7,f2",
		"frsqrte f8,f1", "fres. f9,f10", "frsqrte f11,f6", "fsqrts f12,f13", "fsqrt f14,f10", "fsqrt f15,f16",
		"frsqrte. f17,f18", "fres f19,f20", "fres f21,f18", "frsqrte f22,f13", "fsqrts f23,f24"},
		f: []uint64{math.Float64bits(2), math.Float64bits(3), 0, 0, 0, 1 << 63, 0, 0, 0, math.Float64bits(4), 0, 0,
			1, 0, 0, math.Float64bits(-1), 0, 0x7ff0000000000000, 0, math.Float64bits(0x1p-130), 0, 0,
			0, math.Float64bits(0x1.fffffep127 * 0x1.fffffep127)}},
	{name: "fast products", src: []string{"fmul f3,f1,f2", "fmul f4,f1,f5", "fmul f6,f7,f7", "fmul f8,f9,f10",
		"fmul f11,f12,f10", "fmul f13,f15,f10", "fmul f14,f5,f7", "fmul f21,f18,f19"},
		f: []uint64{math.Float64bits(0x1.0000000000001p-480), math.Float64bits(0x1.0000000000001p-481), 0, 0,
			math.Float64bits(0x1.0000000000001p-479), 0, math.Float64bits(1e-300), 0, 1 << 63,
			math.Float64bits(5), 0, 0x000fffffffffffff, 0, 0, math.Float64bits(0x1.8p-200),
			0, 0, math.Float64bits(1e-300), math.Float64bits(1e-10)}}, // f18 * f19 is denormal
	// An instruction alone, so that the next one's FI cannot hide a wrong one.
	{name: "product's error below the denormals", src: []string{"fmul f3,f1,f2"}, // about 2^-1000, inexact by 2^-1104
		f: []uint64{0x20b2bad7f64b3905, 0x20b123456789abcd}},
	{name: "remainder below the denormals", src: []string{"fdiv f3,f1,f2"}, // inexact by 2^-1104/b
		f: []uint64{0x01740fcf6d11fe7e, 0x3ff123456789abcd}},
	{name: "fast quotients", src: []string{"fdiv f3,f1,f2", "fdiv f4,f5,f6", "fdiv f7,f8,f6", "fdiv f9,f10,f11",
		"fdiv f12,f13,f14", "fdiv f15,f16,f11", "fdiv f17,f1,f16", "fdiv f23,f21,f22"},
		f: []uint64{math.Float64bits(1), math.Float64bits(3), 0, 0, 1 << 63, 0x7ff0000000000000, 0,
			math.Float64bits(0x1p-959), 0, math.Float64bits(0x1.8p-961), math.Float64bits(3), 0,
			math.Float64bits(0x1.0000000000001p-1000), math.Float64bits(0x1.8p-1040), 0, math.Float64bits(1e-300),
			0, 0, 0, 0, math.Float64bits(1e-280), math.Float64bits(1e40)}}, // f21 / f22 is denormal
	{name: "fast sums", src: []string{"fadd f3,f1,f2", "fsub f4,f1,f2", "fadd f5,f6,f7", "fsub f8,f6,f9",
		"fadd f10,f6,f6", "fsub f11,f2,f2", "fadd f12,f13,f14", "fsub f15,f13,f14"},
		f: []uint64{math.Float64bits(1), math.Float64bits(0x1p-60), 0, 0, 0, 0x7fefffffffffffff,
			0xffdfffffffffffff, 0, 0xffefffffffffffff, 0, 0, 0, 0x000fffffffffffff, 0x800ffffffffffffe}},
	{name: "fast conversions", src: []string{"fctiwz f3,f1", "fctiwz f4,f2", "fctiwz f5,f6", "fctiwz. f7,f8",
		"fctiw f9,f10", "fctiw f11,f2", "fctiwz f12,f13"},
		f: []uint64{math.Float64bits(2147483647.9), math.Float64bits(-2147483648), 0, 0, 0,
			math.Float64bits(-0.5), 0, math.Float64bits(3), 0, math.Float64bits(2.5), 0, 0,
			math.Float64bits(-7.25)}},
	{name: "rounding back to nearest", src: []string{"mtfsfi 7,3", "fadd f3,f1,f2", "mtfsfi 7,0", "fadd f4,f1,f2",
		"mtfsb1 31", "fmul f5,f1,f2", "mtfsb0 31", "fmul f6,f1,f2", "mtfsf 1,f8", "fsub f9,f1,f2",
		"mtfsfi 7,2", "fctiw f10,f7", "mtfsfi 7,0", "fctiw f11,f7", "fdiv f12,f1,f7"},
		f: []uint64{math.Float64bits(1), 0x3ca0000000000001, 0, 0, 0, 0, math.Float64bits(2.5), 0}},
	{name: "nans", src: []string{"fadd f3,f1,f2", "fadds f4,f2,f1", "fmul f5,f6,f1", "frsp f7,f2", "fmadd f8,f6,f9,f2",
		"fdiv f10,f9,f9", "fsub f11,f12,f12", "fcmpu cr2,f1,f6", "fcmpo cr3,f9,f9", "fdiv f13,f6,f9"},
		f: []uint64{0x7ff8000000000123, 0xfff80000deadbeef, 0, 0, 0, 0x7ff0000000000001, 0, 0, 0,
			0, 0x7ff0000000000000}},
}

// roundingProbe is summed after translated code ran: rounded to nearest (Go's mode) the
// sum is 0x3fd3333333333334, toward zero or -inf one less.
var roundingProbe = [2]float64{0.1, 0.2}

// TestTranslatedFPEdges runs each fpEdges block translated and interpreted in every
// rounding mode and compares registers, FPSCR, CR, counters and memory, and checks that
// Go's own rounding mode is back after the translated code.
func TestTranslatedFPEdges(t *testing.T) {
	requireTranslation(t)
	var translated, total uint64
	for _, e := range fpEdges {
		for rn := range uint32(4) {
			// Each instruction is a block of its own, closed by a branch to the next, so
			// one that leaves the translated code does not take the others with it.
			var code []byte
			var src []string
			for i, s := range e.src {
				next := fuzzCode + 8*uint32(i+1)
				if i == len(e.src)-1 {
					next = fuzzCode
				}
				src = append(src, s, fmt.Sprintf("b %x", next))
			}
			for i, s := range src {
				w, err := Assemble(s, fuzzCode+4*uint32(i))
				if err != nil {
					t.Fatalf("%s: %s: %v", e.name, s, err)
				}
				code = binary.BigEndian.AppendUint32(code, w)
			}
			mk := func() *CPU {
				mem := NewMemory()
				data := make([]byte, 3*PageSize)
				for k, v := range e.dwords {
					binary.BigEndian.PutUint64(data[8*k:], v)
				}
				for k, v := range e.words {
					binary.BigEndian.PutUint32(data[0x800+4*k:], v)
				}
				for _, err := range []error{mem.Map(fuzzCode, PageSize, PermRX), mem.Map(fuzzData, 3*PageSize, PermRW),
					mem.Poke(fuzzCode, code), mem.Write(fuzzData, data)} {
					if err != nil {
						t.Fatal(err)
					}
				}
				c := NewCPU(mem)
				c.PC, c.GPR[3], c.GPR[4], c.GPR[5] = fuzzCode, fuzzData, 0x40, 0x80c
				c.GPR[6], c.GPR[7] = fuzzData+0x900, fuzzData
				copy(c.FPR[1:], e.f)
				c.FPSCR = e.fpscr | rn
				return c
			}
			interp, native := mk(), mk()
			interp.SetTranslation(false)
			native.SetTranslation(true)
			for round := range 3 {
				n := uint64(len(src))
				si, sn := interp.Run(n), native.Run(n)
				if !sameStop(si, sn) || stateOf(interp) != stateOf(native) || memDigest(interp.Mem) != memDigest(native.Mem) {
					t.Fatalf("%s, RN %d, round %d:\ninterpreted %v %+v\ntranslated  %v %+v\nmemory equal: %v", e.name, rn, round,
						si.Kind, stateOf(interp), sn.Kind, stateOf(native), memDigest(interp.Mem) == memDigest(native.Mem))
				}
			}
			if got := math.Float64bits(roundingProbe[0] + roundingProbe[1]); got != 0x3fd3333333333334 {
				t.Fatalf("%s, RN %d: Go's 0.1+0.2 is 0x%016x after translated code: MXCSR's rounding mode was not restored",
					e.name, rn, got)
			}
			translated += native.TranslatedInstructions()
			total += native.Count.Instructions
		}
	}
	// Many of these leave the translated code on purpose; the others must run in it.
	if translated < total/2 {
		t.Errorf("%d of %d instructions ran translated", translated, total)
	}
	t.Logf("%d of %d instructions ran translated", translated, total)
}

// TestTranslatedRoundingBackToNearest runs, in one translated block, an addition in a
// directed rounding mode (the general path sets MXCSR to it), mtfsfi back to nearest,
// and the additions and conversions whose fast path relies on MXCSR being nearest again.
func TestTranslatedRoundingBackToNearest(t *testing.T) {
	requireTranslation(t)
	src := []string{"mtfsfi 7,3", "fadd f3,f1,f2", "mtfsfi 7,0", "fadd f4,f1,f2", "fctiw f5,f6",
		"mtfsb1 31", "fsub f7,f1,f2", "mtfsb0 31", "fsub f8,f1,f2", "b 10000"}
	var code []byte
	for i, s := range src {
		w, err := Assemble(s, fuzzCode+4*uint32(i))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		code = binary.BigEndian.AppendUint32(code, w)
	}
	mk := func(translate bool) *CPU {
		mem := NewMemory()
		if err := mem.Map(fuzzCode, PageSize, PermRX); err != nil {
			t.Fatal(err)
		}
		if err := mem.Poke(fuzzCode, code); err != nil {
			t.Fatal(err)
		}
		c := NewCPU(mem)
		c.SetTranslation(translate)
		c.PC = fuzzCode
		c.FPR[1], c.FPR[2], c.FPR[6] = math.Float64bits(1), 0x3ca0000000000001, math.Float64bits(2.5)
		return c
	}
	interp, native := mk(false), mk(true)
	n := uint64(10 * len(src))
	si, sn := interp.Run(n), native.Run(n)
	if !sameStop(si, sn) || stateOf(interp) != stateOf(native) {
		t.Fatalf("interpreted %v %+v\ntranslated  %v %+v", si.Kind, stateOf(interp), sn.Kind, stateOf(native))
	}
	if native.TranslatedInstructions() == 0 {
		t.Fatal("nothing ran translated")
	}
}
