//go:build linux

package ppc

import "unsafe"

// Floating point in translated code. The arithmetic runs in SSE2 (and FMA3 for the
// multiply-add family when the host has it) in the guest's rounding mode, set in MXCSR
// from FPSCR[RN] before each operation; MXCSR's flags then say whether the result can be
// taken as it is. It can when the operation raised no invalid, zero-divide, overflow or
// underflow exception, the result is not a NaN, and, when inexact, the result is neither
// in the tiny range (where the interpreter's underflow is decided before rounding) nor at
// the top of the range (where the interpreter's overflow is decided on the result rounded
// to nearest). Otherwise the code leaves the block before the instruction and the
// interpreter runs it: NaNs, infinities produced from finite values, zero divides and
// underflows are rare in real codes. Single-precision forms compute the double result
// and round it to single: that is the single rounding of the exact value except when
// the double is a halfway point between two singles, which also leaves. FPRF, FI, XX and
// FX, the VX and FEX summaries and CR1 follow as the interpreter's fpResult sets them.

var (
	offFPR   = uint32(unsafe.Offsetof(CPU{}.FPR))
	offFPSCR = uint32(unsafe.Offsetof(CPU{}.FPSCR))
	offMXCSR = uint32(unsafe.Offsetof(CPU{}.nativeMXCSR))
)

func fprOff(r uint8) uint32 { return offFPR + 8*uint32(r&31) }

// cpuid and xgetbv0 are in native_enter_amd64.s.
func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv0() uint32

// hostFMA says whether the host has FMA3 and the OS keeps the AVX state its VEX
// encoding needs; without it the multiply-add family stays with the interpreter.
var hostFMA = func() bool {
	_, _, c, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	return c&fma != 0 && c&osxsave != 0 && c&avx != 0 && xgetbv0()&6 == 6
}()

// fpArithForm is an A-form arithmetic instruction: its SSE operation (or FMA3 form),
// whether it reads FRB or FRC as the second factor, and its precision.
type fpArithForm struct {
	op     byte // sseAdd.. or fmaAdd/fmaSub
	fma    bool
	negate bool // fnmadd, fnmsub: the fused result negated
	usesC  bool // fmul: FRA * FRC
	single bool
}

var fpArithForms = func() map[Op]fpArithForm {
	m := map[Op]fpArithForm{}
	for _, f := range []struct {
		double, single Op
		form           fpArithForm
	}{
		{opFadd, opFadds, fpArithForm{op: sseAdd}}, {opFsub, opFsubs, fpArithForm{op: sseSub}},
		{opFmul, opFmuls, fpArithForm{op: sseMul, usesC: true}}, {opFdiv, opFdivs, fpArithForm{op: sseDiv}},
		{opFmadd, opFmadds, fpArithForm{op: fmaAdd, fma: true}},
		{opFmsub, opFmsubs, fpArithForm{op: fmaSub, fma: true}},
		{opFnmadd, opFnmadds, fpArithForm{op: fmaAdd, fma: true, negate: true}},
		{opFnmsub, opFnmsubs, fpArithForm{op: fmaSub, fma: true, negate: true}},
	} {
		m[f.double] = f.form
		f.form.single = true
		m[f.single] = f.form
	}
	return m
}()

// FPRF classes and range bounds as double bit patterns shifted left by one (the sign
// dropped), as the class and range checks compare them.
const (
	shInf        = 0x7ff0000000000000 << 1
	shMinNormal  = 0x0010000000000000 << 1
	shTinyDouble = shMinNormal
	shHugeDouble = 0x7fe0000000000000 << 1 // 2^1023: the top binade
	shTinySingle = 0x3810000000000000 << 1 // 2^-126
	shHugeSingle = 0x47e0000000000000 << 1 // 2^127
	ccP          = 0xa                     // parity: an unordered compare
	ccBE         = 0x6                     // below or equal
	crField1     = 0x0f000000
)

// fpInst emits the floating-point instruction i; handled is false when op is not
// one, ok false when it is one the translator leaves to the interpreter.
func (t *translator) fpInst(i int, in *inst, op Op) (ok, handled bool) {
	rc := in.w&bitRc != 0
	if f, isArith := fpArithForms[op]; isArith {
		if f.fma && !hostFMA {
			return false, true
		}
		if fastArith(f) {
			t.fpFastArith(i, in, f)
		} else {
			t.fpArith(i, in, f)
		}
		t.fpCR1(rc)
		return true, true
	}
	switch op {
	case opFmr, opFneg, opFabs, opFnabs:
		t.load64(rAX, fprOff(in.rb))
		switch op {
		case opFneg:
			t.bit64(btFlip, rAX, 63)
		case opFabs:
			t.bit64(btReset, rAX, 63)
		case opFnabs:
			t.bit64(btSet, rAX, 63)
		}
		t.store64(fprOff(in.rt), rAX)
	case opFsel:
		// FRC when FRA >= 0 (-0 included), else FRB (NaN included): ucomisd sets CF for
		// less and for unordered.
		t.loadSD(0, fprOff(in.ra))
		t.xorPD(1, 1)
		t.ucomiSD(0, 1)
		t.load64(rAX, fprOff(in.rc))
		t.load64(rDX, fprOff(in.rb))
		t.cmov64(ccB, rAX, rDX)
		t.store64(fprOff(in.rt), rAX)
	case opFcmpu, opFcmpo:
		t.fpCompare(i, in)
		return true, true
	case opFsqrt, opFsqrts:
		t.setRounding()
		t.loadSD(1, fprOff(in.rb))
		t.sd(sseSqrt, 0, 1)
		if op == opFsqrts {
			t.midpointExit(i)
			t.cvtSD2SS(0, 0)
			t.cvtSS2SD(0, 0)
		}
		t.fpFinish(i, in, op == opFsqrts)
	case opFres, opFrsqrte:
		t.fpEstimate(i, in, op == opFres)
	case opFrsp:
		t.setRounding()
		t.loadSD(0, fprOff(in.rb))
		t.cvtSD2SS(0, 0)
		t.cvtSS2SD(0, 0)
		t.fpFinish(i, in, true)
	case opFctiw, opFctiwz:
		t.fctiwFast(i, in, op == opFctiwz)
	case opMffs, opMtfsf, opMtfsfi, opMtfsb0, opMtfsb1:
		t.fpscrMove(in, op)
	default:
		return false, false
	}
	t.fpCR1(rc)
	return true, true
}

// fpscrMove emits mffs, mtfsf, mtfsfi, mtfsb0 or mtfsb1: the new FPSCR gets its VX and
// FEX summaries recomputed, as the interpreter's; FX is set only when written.
func (t *translator) fpscrMove(in *inst, op Op) {
	var rn bool // the instruction may change FPSCR[RN]
	switch op {
	case opMffs:
		t.load32(rAX, offFPSCR) // zero-extends: FRT's high word is 0
		t.store64(fprOff(in.rt), rAX)
		return
	case opMtfsf:
		m := fieldMask(in.w >> 17 & 0xff)
		rn = m&3 != 0
		t.load32(rAX, fprOff(in.rb))
		t.aluImm(aluAnd, rAX, m)
		t.load32(rDX, offFPSCR)
		t.aluImm(aluAnd, rDX, ^m)
		t.alu(aluOr, rAX, rDX)
	case opMtfsfi:
		sh := 28 - 4*uint32(in.rt>>2)
		rn = sh == 0
		t.load32(rAX, offFPSCR)
		t.aluImm(aluAnd, rAX, ^(uint32(0xf) << sh))
		t.aluImm(aluOr, rAX, (in.w>>12&0xf)<<sh)
	default:
		m := uint32(1) << (31 - uint32(in.rt&31))
		rn = m&3 != 0
		t.load32(rAX, offFPSCR)
		if op == opMtfsb1 {
			t.aluImm(aluOr, rAX, m)
		} else {
			t.aluImm(aluAnd, rAX, ^m)
		}
	}
	t.fpSummary()
	t.resetRoundingIf(rn)
}

// exitIf leaves the block before instruction i when condition cc holds.
func (t *translator) exitIf(cc byte, i int) { t.exits = append(t.exits, exitJump{t.jcc(cc), i}) }

// setRounding loads MXCSR with every exception masked, the flags clear and the rounding
// mode of FPSCR[RN] (PowerPC 0-3: nearest, zero, +inf, -inf; MXCSR RC: nearest, -inf,
// +inf, zero, which is -RN mod 4). Clobbers eax.
func (t *translator) setRounding() {
	t.load32(rAX, offFPSCR)
	t.neg(rAX)
	t.aluImm(aluAnd, rAX, 3)
	t.shiftImm(shShl, rAX, 13)
	t.aluImm(aluOr, rAX, mxcsrDefault)
	t.store32(offMXCSR, rAX)
	t.ldmxcsr(offMXCSR)
}

// fpArith emits an A-form arithmetic instruction into xmm0 and finishes it.
func (t *translator) fpArith(i int, in *inst, f fpArithForm) {
	if f.negate {
		// Directed rounding of a negated fused result rounds the negated exact value
		// (and an exact zero takes the sign rule of the mode): the interpreter's.
		t.testStateImm(offFPSCR, 3)
		t.exitIf(ccNE, i)
	}
	t.setRounding()
	switch {
	case f.fma: // FRA * FRC ± FRB
		t.loadSD(0, fprOff(in.rb))
		t.loadSD(1, fprOff(in.ra))
		t.loadSD(2, fprOff(in.rc))
		t.fma231(f.op, 0, 1, 2)
	default:
		second := in.rb
		if f.usesC {
			second = in.rc
		}
		t.loadSD(0, fprOff(in.ra))
		t.loadSD(1, fprOff(second))
		t.sd(f.op, 0, 1)
	}
	if f.single {
		t.midpointExit(i)
		t.cvtSD2SS(0, 0)
		t.cvtSS2SD(0, 0)
	}
	if f.negate { // flip the sign bit (a subtraction from zero would keep +0)
		t.movqToGPR(rAX, 0)
		t.bit64(btFlip, rAX, 63)
		t.movqToXMM(0, rAX)
	}
	t.fpFinish(i, in, f.single)
}

// fpEstimate emits fres or frsqrte as the interpreter computes them (qemu's values, not
// the 440's estimates): 1/x rounded to double and then to single, or sqrt(x) and its
// reciprocal each rounded to double. Both roundings are the point, so there is no
// midpoint exit, and the inexact flag of either makes the result inexact. Only to
// nearest: in a directed mode the interpreter steps the twice-rounded value by the sign
// of the last error, which SSE does not reproduce, so the block leaves.
func (t *translator) fpEstimate(i int, in *inst, fres bool) {
	t.testStateImm(offFPSCR, 3)
	t.exitIf(ccNE, i)
	t.setRounding()
	t.loadSD(1, fprOff(in.rb))
	if !fres {
		t.sd(sseSqrt, 1, 1)
	}
	t.movImm64(rAX, 0x3ff0000000000000) // 1.0
	t.movqToXMM(0, rAX)
	t.sd(sseDiv, 0, 1)
	if fres {
		t.cvtSD2SS(0, 0)
		t.cvtSS2SD(0, 0)
	}
	t.fpFinish(i, in, fres)
}

// midpointExit leaves when the double in xmm0 lies halfway between two singles: rounding
// it again to single could differ from rounding the exact value once.
func (t *translator) midpointExit(i int) {
	t.movqToGPR(rAX, 0)
	t.aluImm(aluAnd, rAX, 1<<29-1)
	t.aluImm(aluCmp, rAX, 1<<28)
	t.exitIf(ccE, i)
}

// fpFinish takes the result in xmm0 of instruction i when MXCSR's flags and its value
// allow (see the top of the file) and stores it, its class in FPRF, FI and the
// exception bits.
func (t *translator) fpFinish(i int, in *inst, single bool) {
	t.stmxcsr(offMXCSR)
	t.testStateImm(offMXCSR, mxcsrIE|mxcsrZE|mxcsrOE|mxcsrUE)
	t.exitIf(ccNE, i)
	t.movqToGPR(rAX, 0)
	t.mov64(rDX, rAX)
	t.shift64Imm(shShl, rDX, 1)
	t.movImm64(rSI, shInf)
	t.alu64(aluCmp, rDX, rSI)
	t.exitIf(ccA, i) // a NaN
	tiny, huge := uint64(shTinyDouble), uint64(shHugeDouble)
	if single {
		tiny, huge = shTinySingle, shHugeSingle
	}
	t.testStateImm(offMXCSR, mxcsrPE)
	exact := t.jcc(ccE)
	t.movImm64(rSI, tiny)
	t.alu64(aluCmp, rDX, rSI)
	t.exitIf(ccBE, i)
	t.movImm64(rSI, huge)
	t.alu64(aluCmp, rDX, rSI)
	t.exitIf(ccAE, i)
	t.patch(exact)
	t.store64(fprOff(in.rt), rAX)
	t.fpClass()
	t.load32(rAX, offFPSCR)
	t.aluImm(aluAnd, rAX, ^uint32(FpscrFI|FpscrFPRF))
	t.shiftImm(shShl, rCX, 12)
	t.alu(aluOr, rAX, rCX)
	t.inexactBits()
	t.fpSummary()
}

// inexactBits ors FI, XX and FX into eax when MXCSR's inexact flag is set. Clobbers edx.
func (t *translator) inexactBits() {
	t.load32(rDX, offMXCSR)
	t.aluImm(aluAnd, rDX, mxcsrPE)
	t.neg(rDX) // CF = inexact
	t.sbb(rDX, rDX)
	t.aluImm(aluAnd, rDX, FpscrFI|FpscrXX|FpscrFX)
	t.alu(aluOr, rAX, rDX)
}

// fpClass sets ecx to the FPRF class of the non-NaN double in rax, whose bits shifted
// left by one are in rdx. Clobbers ebx, edx and esi.
func (t *translator) fpClass() {
	var done []int
	t.mov64(rBX, rAX)
	t.shift64Imm(shShr, rBX, 63)
	t.movImm64(rSI, shInf)
	t.alu64(aluCmp, rDX, rSI)
	t.movImm32(rCX, fprfPosInf)
	done = append(done, t.jcc(ccE))
	t.movImm32(rCX, fprfPosZero)
	t.test64(rDX, rDX)
	done = append(done, t.jcc(ccE))
	t.movImm64(rSI, shMinNormal)
	t.alu64(aluCmp, rDX, rSI)
	t.movImm32(rCX, fprfPosDenom)
	done = append(done, t.jcc(ccB))
	t.movImm32(rCX, fprfPosNorm)
	for _, p := range done {
		t.patch(p)
	}
	// Negative: FG (4) becomes FL (8) for infinities, denormals and normals; a zero
	// gains C (0x10): add 4 or 0x10.
	t.mov(rDX, rCX)
	t.aluImm(aluAnd, rDX, 4)
	t.movImm32(rSI, 0x10)
	t.cmov(ccE, rDX, rSI)
	t.neg(rBX)
	t.alu(aluAnd, rDX, rBX)
	t.alu(aluAdd, rCX, rDX)
}

// fpSummary stores eax as the FPSCR with VX and FEX recomputed, as CPU.fpSummary does.
// Clobbers ecx and edx.
func (t *translator) fpSummary() {
	t.aluImm(aluAnd, rAX, ^uint32(FpscrVX|FpscrFEX|fpscrReserved))
	t.mov(rDX, rAX)
	t.aluImm(aluAnd, rDX, fpscrVXAll)
	t.neg(rDX)
	t.sbb(rDX, rDX)
	t.aluImm(aluAnd, rDX, FpscrVX)
	t.alu(aluOr, rAX, rDX)
	// FEX: an exception bit (VX, OX..XX: 29-25) with its enable (VE, OE..XE: 7-3).
	t.mov(rCX, rAX)
	t.shiftImm(shShr, rCX, 25)
	t.mov(rDX, rAX)
	t.shiftImm(shShr, rDX, 3)
	t.alu(aluAnd, rCX, rDX)
	t.aluImm(aluAnd, rCX, 0x1f)
	t.neg(rCX)
	t.sbb(rCX, rCX)
	t.aluImm(aluAnd, rCX, FpscrFEX)
	t.alu(aluOr, rAX, rCX)
	t.store32(offFPSCR, rAX)
}

// fpCR1 copies FX, FEX, VX and OX to CR1 for an Rc form.
func (t *translator) fpCR1(rc bool) {
	if !rc {
		return
	}
	t.load32(rCX, offFPSCR)
	t.shiftImm(shShr, rCX, 4)
	t.aluImm(aluAnd, rCX, crField1)
	t.load32(rDX, offCR)
	t.aluImm(aluAnd, rDX, ^uint32(crField1))
	t.alu(aluOr, rDX, rCX)
	t.store32(offCR, rDX)
}

// fpCompare emits fcmpu or fcmpo of ordered operands: the CR field and FPRF's FPCC get
// less, greater or equal, FI clears. NaN operands (unordered, and exceptions for
// signalling NaNs and fcmpo) leave the block.
func (t *translator) fpCompare(i int, in *inst) {
	t.loadSD(0, fprOff(in.ra))
	t.loadSD(1, fprOff(in.rb))
	t.ucomiSD(0, 1)
	t.exitIf(ccP, i)
	t.movImm32(rCX, 4)
	t.movImm32(rDX, 8)
	t.cmov(ccB, rCX, rDX)
	t.movImm32(rDX, 2)
	t.cmov(ccE, rCX, rDX)
	t.mov(rAX, rCX)
	t.shiftImm(shShl, rAX, 12)
	t.load32(rDX, offFPSCR)
	t.aluImm(aluAnd, rDX, ^uint32(0xf<<12|FpscrFI))
	t.alu(aluOr, rDX, rAX)
	t.store32(offFPSCR, rDX)
	sh := 28 - 4*uint32(in.rt>>2&7)
	if sh != 0 {
		t.shiftImm(shShl, rCX, uint8(sh))
	}
	t.load32(rDX, offCR)
	t.aluImm(aluAnd, rDX, ^(uint32(0xf) << sh))
	t.alu(aluOr, rDX, rCX)
	t.store32(offCR, rDX)
}

// fctiw emits fctiw (the FPSCR[RN] rounding) or fctiwz: a NaN or out-of-range operand
// (which saturates with VXCVI) leaves the block. FRT's high word is the sign extension;
// FPRF stays.
func (t *translator) fctiw(i int, in *inst, toZero bool) {
	t.setRounding()
	t.loadSD(0, fprOff(in.rb))
	if toZero {
		t.cvttSD2SI(rAX, 0)
	} else {
		t.cvtSD2SI(rAX, 0)
	}
	t.stmxcsr(offMXCSR)
	t.testStateImm(offMXCSR, mxcsrIE)
	t.exitIf(ccNE, i)
	t.movsxd(rAX, rAX)
	t.store64(fprOff(in.rt), rAX)
	t.load32(rAX, offFPSCR)
	t.aluImm(aluAnd, rAX, ^uint32(FpscrFI))
	t.inexactBits()
	t.fpSummary()
}
