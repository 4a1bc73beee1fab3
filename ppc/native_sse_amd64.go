//go:build linux

package ppc

// Encoders for the SSE2, FMA3 and 64-bit integer forms the floating-point translation
// emits (native_fp_amd64.go). Only xmm0-xmm2 and the legacy integer registers are used,
// so the only REX prefix is REX.W for 64-bit operand size.

// SSE2 scalar double opcodes (the byte after 0F, with an F2 prefix).
const (
	sseAdd  = 0x58
	sseMul  = 0x59
	sseSub  = 0x5c
	sseDiv  = 0x5e
	sseSqrt = 0x51
)

// MXCSR exception flags.
const (
	mxcsrIE = 1 << 0 // invalid operation
	mxcsrZE = 1 << 2 // divide by zero
	mxcsrOE = 1 << 3 // overflow
	mxcsrUE = 1 << 4 // underflow
	mxcsrPE = 1 << 5 // inexact
	// mxcsrDefault is what Go runs with: every exception masked, round to nearest.
	mxcsrDefault = 0x1f80
)

// sd emits the scalar double operation op dst, src (F2 0F op).
func (a *x86) sd(op, dst, src byte) { a.byte1(0xf2, 0x0f, op, modrm(3, dst, src)) }

// loadSD is movsd xmm, [rdi+off]; storeSD movsd [rdi+off], xmm.
func (a *x86) loadSD(x byte, off uint32)  { a.byte1(0xf2, 0x0f, 0x10); a.state(x, off) }
func (a *x86) storeSD(off uint32, x byte) { a.byte1(0xf2, 0x0f, 0x11); a.state(x, off) }

// cvtSD2SS and cvtSS2SD convert the low element between double and single.
func (a *x86) cvtSD2SS(dst, src byte) { a.byte1(0xf2, 0x0f, 0x5a, modrm(3, dst, src)) }
func (a *x86) cvtSS2SD(dst, src byte) { a.byte1(0xf3, 0x0f, 0x5a, modrm(3, dst, src)) }

// cvtSD2SI is cvtsd2si r32, xmm (MXCSR rounding); cvttSD2SI truncates.
func (a *x86) cvtSD2SI(r, x byte)  { a.byte1(0xf2, 0x0f, 0x2d, modrm(3, r, x)) }
func (a *x86) cvttSD2SI(r, x byte) { a.byte1(0xf2, 0x0f, 0x2c, modrm(3, r, x)) }

// ucomiSD compares the low doubles: ZF, PF, CF = 111 unordered, 100 equal, 001 less.
func (a *x86) ucomiSD(x, y byte) { a.byte1(0x66, 0x0f, 0x2e, modrm(3, x, y)) }

// xorPD is xorpd dst, src (xorpd x, x zeroes x).
func (a *x86) xorPD(dst, src byte) { a.byte1(0x66, 0x0f, 0x57, modrm(3, dst, src)) }

// movqToGPR is movq r64, xmm; movqToXMM movq xmm, r64; movdToXMM movd xmm, r32.
func (a *x86) movqToGPR(r, x byte) { a.byte1(0x66, 0x48, 0x0f, 0x7e, modrm(3, x, r)) }
func (a *x86) movqToXMM(x, r byte) { a.byte1(0x66, 0x48, 0x0f, 0x6e, modrm(3, x, r)) }
func (a *x86) movdToXMM(x, r byte) { a.byte1(0x66, 0x0f, 0x6e, modrm(3, x, r)) }

// ldmxcsr and stmxcsr load and store MXCSR at [rdi+off].
func (a *x86) ldmxcsr(off uint32) { a.byte1(0x0f, 0xae); a.state(2, off) }
func (a *x86) stmxcsr(off uint32) { a.byte1(0x0f, 0xae); a.state(3, off) }

// fma231 is vfmadd231sd (op 0xb9) or vfmsub231sd (0xbb) dst, x, y: dst = x*y ± dst,
// rounded once.
func (a *x86) fma231(op, dst, x, y byte) {
	// VEX3: map 0F38, W1, vvvv = ~x, L0, pp = 66.
	a.byte1(0xc4, 0xe2, 0x80|(^x&15)<<3|1, op, modrm(3, dst, y))
}

const (
	fmaAdd = 0xb9
	fmaSub = 0xbb
)

// 64-bit integer forms.
func (a *x86) load64(r byte, off uint32)  { a.byte1(0x48, 0x8b); a.state(r, off) }
func (a *x86) store64(off uint32, r byte) { a.byte1(0x48, 0x89); a.state(r, off) }
func (a *x86) mov64(dst, src byte)        { a.byte1(0x48, 0x89, modrm(3, src, dst)) }
func (a *x86) alu64(op, dst, src byte)    { a.byte1(0x48, op<<3|1, modrm(3, src, dst)) }
func (a *x86) shift64Imm(op, r byte, n uint8) {
	a.byte1(0x48, 0xc1, modrm(3, op, r), n)
}
func (a *x86) shift64CL(op, r byte)     { a.byte1(0x48, 0xd3, modrm(3, op, r)) }
func (a *x86) movsxd(dst, src byte)     { a.byte1(0x48, 0x63, modrm(3, dst, src)) }
func (a *x86) cmov64(cc, dst, src byte) { a.byte1(0x48, 0x0f, 0x40+cc, modrm(3, dst, src)) }
func (a *x86) bswap64(r byte)           { a.byte1(0x48, 0x0f, 0xc8+r) }
func (a *x86) loadPage64(r byte)        { a.byte1(0x48, 0x8b); a.page(r) }
func (a *x86) storePage64(r byte)       { a.byte1(0x48, 0x89); a.page(r) }

// Bit test group on a 64-bit register: bts (set), btr (reset), btc (complement) bit n.
const (
	btSet   = 5
	btReset = 6
	btFlip  = 7
)

func (a *x86) bit64(op, r byte, n uint8) { a.byte1(0x48, 0x0f, 0xba, modrm(3, op, r), n) }

// jmp emits an unconditional jump with a 32-bit displacement to be patched and returns
// the displacement's position.
func (a *x86) jmp() int {
	a.byte1(0xe9)
	a.imm32(0)
	return len(a.b) - 4
}
