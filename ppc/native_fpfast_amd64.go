//go:build linux

package ppc

// The floating-point fast path: fadd, fsub, fmul and fdiv (double) rounding to nearest,
// and fctiwz and fctiw, without touching MXCSR. Loading MXCSR and storing it back around
// every operation (setRounding, fpFinish) is what the general path pays for knowing
// whether a result was inexact; on the host's cores LDMXCSR and STMXCSR cost tens of
// cycles each, more than the rest of the instruction, and made translated serial CoMD
// slower than qemu-ppc. The fast path learns exactness from the result itself, with an
// error-free transformation, and leaves the block for the interpreter wherever the
// transformation could be wrong:
//   - fadd, fsub: TwoSum (Knuth): s = a+b, bb = s-a, err = (a-(s-bb)) + (b-bb) is exactly
//     a+b-s when rounding to nearest and s is finite.
//   - fmul: err = fma(a, b, -p) is a*b-p rounded, nonzero exactly when a*b-p is, because
//     that is a multiple of ulp(a)*ulp(b), at least 2^-1066 when |p| >= 2^-960. A smaller
//     product is exact when a factor is zero and leaves otherwise (it may have
//     underflowed).
//   - fdiv: r = fma(-q, b, a), nonzero exactly when a-q*b is: that is a multiple of
//     ulp(q)*ulp(b), at least 2^-1066 when |a| >= 2^-960 (for a denormal b, q >= 2^62).
//     A smaller nonzero dividend leaves, and so does a quotient below 2^-1022 (it may
//     have underflowed); a zero dividend gives an exact zero (a zero or NaN divisor made
//     q a NaN, which left).
//
// Results that are NaNs, infinities or in the top binade leave (overflow and invalid
// operations are the interpreter's), so the fast path never needs MXCSR's flags. It
// needs MXCSR's rounding mode to be nearest whenever FPSCR[RN] is: the general path sets
// MXCSR from FPSCR[RN] before each operation it runs, so MXCSR is only ever directed
// while FPSCR[RN] is, and every translated instruction that may change FPSCR[RN]
// (mtfsf, mtfsfi, mtfsb0, mtfsb1) loads Go's MXCSR after it (resetRounding); the entry
// stub leaves with Go's MXCSR. Each fast instruction tests FPSCR[RN] and takes the general
// path when it is not nearest.

// FMA3 and conversion forms of the fast path.
const (
	fmaNegAdd = 0xbd // vfnmadd231sd: dst = -(x*y) + dst
	// shErrFloor is 2^-960 shifted left by one: below it an error term might not be exact.
	shErrFloor = 0x03f0000000000000 << 1
)

// movapd copies xmm src to xmm dst.
func (a *x86) movapd(dst, src byte) { a.byte1(0x66, 0x0f, 0x28, modrm(3, dst, src)) }

// cvtSI2SD is cvtsi2sd xmm, r32 (exact: every int32 is a double).
func (a *x86) cvtSI2SD(x, r byte) { a.byte1(0xf2, 0x0f, 0x2a, modrm(3, x, r)) }

// neg64 is neg r64 (CF = r was nonzero).
func (a *x86) neg64(r byte) { a.byte1(0x48, 0xf7, modrm(3, 3, r)) }

// fastArith reports whether fpArith's form f has a fast path on this host.
func fastArith(f fpArithForm) bool {
	return hostFMA && !f.fma && !f.single && !f.negate
}

// fpFastArith emits fadd, fsub, fmul or fdiv: the fast path when FPSCR[RN] is nearest,
// else the general one.
func (t *translator) fpFastArith(i int, in *inst, f fpArithForm) {
	t.testStateImm(offFPSCR, 3)
	general := t.jcc(ccNE)
	second := in.rb
	if f.usesC {
		second = in.rc
	}
	// xmm0 = a, xmm1 = b, xmm2 = the result, xmm3 = its error (zero when exact).
	t.loadSD(0, fprOff(in.ra))
	t.loadSD(1, fprOff(second))
	t.movapd(2, 0)
	t.sd(f.op, 2, 1)
	t.movqToGPR(rAX, 2)
	t.mov64(rDX, rAX)
	t.shift64Imm(shShl, rDX, 1)
	t.movImm64(rSI, shHugeDouble)
	t.alu64(aluCmp, rDX, rSI)
	t.exitIf(ccAE, i) // a NaN, an infinity or the top binade
	switch f.op {
	case sseAdd, sseSub:
		t.twoSumError(f.op == sseSub)
	case sseMul:
		t.productError(i)
	case sseDiv:
		t.quotientError(i)
	}
	t.store64(fprOff(in.rt), rAX)
	t.fpClass()
	t.load32(rAX, offFPSCR)
	t.aluImm(aluAnd, rAX, ^uint32(FpscrFI|FpscrFPRF))
	t.shiftImm(shShl, rCX, 12)
	t.alu(aluOr, rAX, rCX)
	// FI, XX and FX when the error in xmm3 is nonzero.
	t.movqToGPR(rDX, 3)
	t.shift64Imm(shShl, rDX, 1)
	t.neg64(rDX)
	t.sbb(rDX, rDX)
	t.aluImm(aluAnd, rDX, FpscrFI|FpscrXX|FpscrFX)
	t.alu(aluOr, rAX, rDX)
	t.fpSummary()
	done := t.jmp()
	t.patch(general)
	t.fpArith(i, in, f)
	t.patch(done)
}

// twoSumError sets xmm3 to a±b - s for s = a±b in xmm2 (a, b in xmm0, xmm1, which it
// clobbers). With a, b and s finite no step overflows: |s-a| is about |b|, |s-bb| about
// |a|.
func (t *translator) twoSumError(sub bool) {
	t.movapd(3, 2)
	t.sd(sseSub, 3, 0) // bb = s - a
	t.movapd(4, 2)
	t.sd(sseSub, 4, 3) // s - bb
	t.sd(sseSub, 0, 4) // a - (s - bb)
	if sub {
		// a-b is a+(-b): err = (a-(s-bb)) + (-b-bb)
		t.sd(sseAdd, 1, 3)
		t.sd(sseSub, 0, 1)
	} else {
		// err = (a-(s-bb)) + (b-bb)
		t.sd(sseSub, 1, 3)
		t.sd(sseAdd, 0, 1)
	}
	t.movapd(3, 0)
}

// productError sets xmm3 to a*b - p (rounded; zero exactly when a*b is p) for the
// product p in xmm2 of xmm0 and xmm1, whose bits shifted left by one are in rdx.
func (t *translator) productError(i int) {
	t.movImm64(rSI, shErrFloor)
	t.alu64(aluCmp, rDX, rSI)
	normal := t.jcc(ccAE)
	// A smaller product is exact only when it is zero because a factor is; otherwise it
	// may have underflowed, or its error be too small for the FMA's result.
	t.xorPD(3, 3)
	t.movqToGPR(rSI, 0)
	t.shift64Imm(shShl, rSI, 1)
	zeroA := t.jcc(ccE)
	t.movqToGPR(rSI, 1)
	t.shift64Imm(shShl, rSI, 1)
	t.exitIf(ccNE, i)
	t.patch(zeroA)
	done := t.jmp()
	t.patch(normal)
	t.movapd(3, 2)
	t.fma231(fmaSub, 3, 0, 1) // a*b - p
	t.patch(done)
}

// quotientError sets xmm3 to a - q*b (rounded; zero exactly when a/b is q) for the
// quotient q in xmm2 of xmm0 by xmm1, whose bits shifted left by one are in rdx.
func (t *translator) quotientError(i int) {
	t.xorPD(3, 3)
	t.movqToGPR(rSI, 0)
	t.shift64Imm(shShl, rSI, 1)
	zeroA := t.jcc(ccE) // 0/b: an exact zero (b is not zero or a NaN: q would be a NaN)
	t.movImm64(rCX, shErrFloor)
	t.alu64(aluCmp, rSI, rCX)
	t.exitIf(ccB, i)
	t.movImm64(rCX, shMinNormal)
	t.alu64(aluCmp, rDX, rCX)
	t.exitIf(ccB, i) // q tiny: it may have underflowed
	t.movapd(3, 0)
	t.fma231(fmaNegAdd, 3, 2, 1) // a - q*b
	t.patch(zeroA)
}

// fctiwFast emits fctiwz, or fctiw when FPSCR[RN] is nearest (MXCSR's mode then), without
// MXCSR's flags: a NaN or out-of-range operand converts to 0x80000000, which leaves
// (as does -2^31 itself, harmlessly), and the conversion was inexact when the integer
// converted back differs from the operand. Otherwise fctiw takes the general path.
func (t *translator) fctiwFast(i int, in *inst, toZero bool) {
	general := -1
	if !toZero {
		t.testStateImm(offFPSCR, 3)
		general = t.jcc(ccNE)
	}
	t.loadSD(0, fprOff(in.rb))
	if toZero {
		t.cvttSD2SI(rAX, 0)
	} else {
		t.cvtSD2SI(rAX, 0)
	}
	t.aluImm(aluCmp, rAX, 0x80000000)
	t.exitIf(ccE, i)
	t.cvtSI2SD(1, rAX)
	t.movsxd(rAX, rAX)
	t.store64(fprOff(in.rt), rAX)
	t.load32(rAX, offFPSCR)
	t.aluImm(aluAnd, rAX, ^uint32(FpscrFI))
	t.ucomiSD(0, 1)
	t.movImm32(rDX, 0)
	t.movImm32(rCX, FpscrFI|FpscrXX|FpscrFX)
	t.cmov(ccNE, rDX, rCX)
	t.alu(aluOr, rAX, rDX)
	t.fpSummary()
	if toZero {
		return
	}
	done := t.jmp()
	t.patch(general)
	t.fctiw(i, in, toZero)
	t.patch(done)
}

// resetRoundingIf, when the instruction just emitted may have changed FPSCR[RN], loads
// Go's MXCSR (round to nearest, exceptions masked), so that MXCSR is nearest whenever
// FPSCR[RN] is, as the fast path assumes.
func (t *translator) resetRoundingIf(mayChangeRN bool) {
	if !mayChangeRN {
		return
	}
	t.storeImm32(offMXCSR, mxcsrDefault)
	t.ldmxcsr(offMXCSR)
}
