//go:build linux

package ppc

// The single-precision conversions of lfs and stfs in translated code, bit for bit those
// of singleToDouble and doubleToSingle.

// singleToDouble widens the single in eax to the double in rax: cvtss2sd for numbers
// (exact, denormals included: Go runs without DAZ), the bits moved for infinities and
// NaNs so a signalling NaN stays signalling. Clobbers edx.
func (t *translator) singleToDouble() {
	t.mov(rDX, rAX)
	t.aluImm(aluAnd, rDX, 0x7f800000)
	t.aluImm(aluCmp, rDX, 0x7f800000)
	special := t.jcc(ccE)
	t.movdToXMM(0, rAX)
	t.cvtSS2SD(0, 0)
	t.movqToGPR(rAX, 0)
	done := t.jmp()
	t.patch(special)
	// sign<<63 | 0x7ff<<52 | fraction<<29
	t.mov(rDX, rAX)
	t.aluImm(aluAnd, rDX, 0x7fffff)
	t.shift64Imm(shShl, rDX, 29)
	t.shiftImm(shShr, rAX, 31)
	t.shift64Imm(shShl, rAX, 63)
	t.alu64(aluOr, rAX, rDX)
	t.movImm64(rDX, 0x7ff<<52)
	t.alu64(aluOr, rAX, rDX)
	t.patch(done)
}

// doubleToSingle narrows the double in rax to the single in eax as stfs does: above the
// single denormal range the bits are moved, below it the fraction is shifted (truncated)
// into a denormal, and below that only the sign remains. Clobbers ecx, edx and esi.
func (t *translator) doubleToSingle() {
	var done []int
	t.mov64(rCX, rAX)
	t.shift64Imm(shShr, rCX, 52)
	t.aluImm(aluAnd, rCX, 0x7ff)
	t.aluImm(aluCmp, rCX, 896)
	small := t.jcc(ccBE)
	// (b>>62)<<30 | b>>29 & 0x3fffffff
	t.mov64(rDX, rAX)
	t.shift64Imm(shShr, rDX, 62)
	t.shiftImm(shShl, rDX, 30)
	t.shift64Imm(shShr, rAX, 29)
	t.aluImm(aluAnd, rAX, 0x3fffffff)
	t.alu(aluOr, rAX, rDX)
	done = append(done, t.jmp())
	t.patch(small)
	t.mov64(rDX, rAX)
	t.shift64Imm(shShr, rDX, 63)
	t.shiftImm(shShl, rDX, 31)
	t.aluImm(aluCmp, rCX, 874)
	signOnly := t.jcc(ccB)
	// sign | (1<<52 | fraction) >> (926 - exp)
	t.movImm64(rSI, 1<<52-1)
	t.alu64(aluAnd, rAX, rSI)
	t.bit64(btSet, rAX, 52)
	t.neg(rCX)
	t.aluImm(aluAdd, rCX, 926)
	t.shift64CL(shShr, rAX)
	t.alu(aluOr, rAX, rDX)
	done = append(done, t.jmp())
	t.patch(signOnly)
	t.mov(rAX, rDX)
	for _, p := range done {
		t.patch(p)
	}
}
