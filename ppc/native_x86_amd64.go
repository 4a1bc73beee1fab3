//go:build linux

package ppc

// A hand-written encoder for the few amd64 instruction forms the translator emits. Every
// memory operand of the guest state is [rdi + disp32] (rdi holds the *CPU), every page
// access is [rdx + rbx] (page bytes + offset); only the eight legacy registers are used,
// so no form needs a REX prefix except for 64-bit operand size.

// Host registers by their encoding.
const (
	rAX = 0
	rCX = 1
	rDX = 2
	rBX = 3
	rSI = 6
	rDI = 7 // the guest state (*CPU), pinned for the whole block
)

// Condition codes for jcc, cmovcc, setcc.
const (
	ccO  = 0x0 // overflow (OF)
	ccB  = 0x2 // below (CF)
	ccAE = 0x3
	ccE  = 0x4 // equal (ZF)
	ccNE = 0x5
	ccA  = 0x7 // above
	ccL  = 0xc // less (signed)
	ccG  = 0xf // greater (signed)
)

// Group opcodes of the ALU (the /digit of 0x81 and the base opcode of the r/m,r form).
const (
	aluAdd = 0
	aluOr  = 1
	aluAnd = 4
	aluSub = 5
	aluXor = 6
	aluCmp = 7
)

// Shift and rotate group (/digit of 0xC1 and 0xD3).
const (
	shRol = 0
	shShl = 4
	shShr = 5
	shSar = 7
)

// x86 accumulates machine code.
type x86 struct{ b []byte }

func (a *x86) byte1(v ...byte) { a.b = append(a.b, v...) }

func (a *x86) imm32(v uint32) { a.b = append(a.b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }

func (a *x86) imm64(v uint64) { a.imm32(uint32(v)); a.imm32(uint32(v >> 32)) }

func modrm(mod, reg, rm byte) byte { return mod<<6 | (reg&7)<<3 | rm&7 }

// state emits the ModRM and displacement of [rdi + off] with reg in the reg field.
func (a *x86) state(reg byte, off uint32) {
	a.byte1(modrm(2, reg, rDI))
	a.imm32(off)
}

// page emits the ModRM and SIB of [rdx + rbx] with reg in the reg field.
func (a *x86) page(reg byte) { a.byte1(modrm(0, reg, 4), 0<<6|rBX<<3|rDX) }

// load32 is mov r32, [rdi+off]; store32 mov [rdi+off], r32.
func (a *x86) load32(r byte, off uint32)  { a.byte1(0x8b); a.state(r, off) }
func (a *x86) store32(off uint32, r byte) { a.byte1(0x89); a.state(r, off) }

// storeImm32 is mov dword [rdi+off], imm32.
func (a *x86) storeImm32(off, v uint32) { a.byte1(0xc7); a.state(0, off); a.imm32(v) }

// movImm32 is mov r32, imm32 (zero-extends to 64 bits).
func (a *x86) movImm32(r byte, v uint32) { a.byte1(0xb8 + r); a.imm32(v) }

// movImm64 is mov r64, imm64.
func (a *x86) movImm64(r byte, v uint64) { a.byte1(0x48, 0xb8+r); a.imm64(v) }

// mov is mov dst32, src32.
func (a *x86) mov(dst, src byte) { a.byte1(0x89, modrm(3, src, dst)) }

// alu is the 32-bit op dst, src of the ALU group (add, or, and, sub, xor, cmp).
func (a *x86) alu(op, dst, src byte) { a.byte1(op<<3|1, modrm(3, src, dst)) }

// aluImm is the 32-bit op dst, imm32.
func (a *x86) aluImm(op, dst byte, v uint32) { a.byte1(0x81, modrm(3, op, dst)); a.imm32(v) }

// aluState is the 32-bit op r, [rdi+off] (r is the destination).
func (a *x86) aluState(op, r byte, off uint32) { a.byte1(op<<3 | 3); a.state(r, off) }

// or64 is or dst64, src64.
func (a *x86) or64(dst, src byte) { a.byte1(0x48, 0x09, modrm(3, src, dst)) }

// test is test dst32, src32.
func (a *x86) test(dst, src byte) { a.byte1(0x85, modrm(3, src, dst)) }

// testStateImm is test dword [rdi+off], imm32.
func (a *x86) testStateImm(off, v uint32) { a.byte1(0xf7); a.state(0, off); a.imm32(v) }

// not, neg: the unary group F7 /2, /3.
func (a *x86) not(r byte) { a.byte1(0xf7, modrm(3, 2, r)) }
func (a *x86) neg(r byte) { a.byte1(0xf7, modrm(3, 3, r)) }

// imul is imul dst32, src32; imulImm imul dst32, src32, imm32.
func (a *x86) imul(dst, src byte) { a.byte1(0x0f, 0xaf, modrm(3, dst, src)) }
func (a *x86) imulImm(dst, src byte, v uint32) {
	a.byte1(0x69, modrm(3, dst, src))
	a.imm32(v)
}

// shiftImm is the 32-bit shift or rotate of r by n; shiftCL by cl.
func (a *x86) shiftImm(op, r byte, n uint8) { a.byte1(0xc1, modrm(3, op, r), n) }
func (a *x86) shiftCL(op, r byte)           { a.byte1(0xd3, modrm(3, op, r)) }

// movsx8, movsx16: sign-extend the low byte or halfword of src (a register 0-3 for bytes).
func (a *x86) movsx8(dst, src byte)  { a.byte1(0x0f, 0xbe, modrm(3, dst, src)) }
func (a *x86) movsx16(dst, src byte) { a.byte1(0x0f, 0xbf, modrm(3, dst, src)) }

// bsr is bsr dst32, src32 (ZF set when src is zero).
func (a *x86) bsr(dst, src byte) { a.byte1(0x0f, 0xbd, modrm(3, dst, src)) }

// bswap reverses the bytes of r32.
func (a *x86) bswap(r byte) { a.byte1(0x0f, 0xc8+r) }

// cmov is cmovcc dst32, src32.
func (a *x86) cmov(cc, dst, src byte) { a.byte1(0x0f, 0x40+cc, modrm(3, dst, src)) }

// sbb is sbb dst32, src32 (sbb r, r makes r = -CF).
func (a *x86) sbb(dst, src byte) { a.byte1(0x19, modrm(3, src, dst)) }

// setcc sets the low byte of r (eax..ebx: no REX prefix) to 1 when cc holds, else 0.
func (a *x86) setcc(cc, r byte) { a.byte1(0x0f, 0x90+cc, modrm(3, 0, r)) }

// cmc complements CF.
func (a *x86) cmc() { a.byte1(0xf5) }

// incState64 is inc qword [rdi+off]; decState32 dec dword [rdi+off] (sets ZF).
func (a *x86) incState64(off uint32) { a.byte1(0x48, 0xff); a.state(0, off) }
func (a *x86) decState32(off uint32) { a.byte1(0xff); a.state(1, off) }

// Page accesses at [rdx + rbx]: loads zero-extend into r32, stores take r's low bits.
func (a *x86) loadPage32(r byte)  { a.byte1(0x8b); a.page(r) }
func (a *x86) loadPage16(r byte)  { a.byte1(0x0f, 0xb7); a.page(r) }
func (a *x86) loadPage8(r byte)   { a.byte1(0x0f, 0xb6); a.page(r) }
func (a *x86) storePage32(r byte) { a.byte1(0x89); a.page(r) }
func (a *x86) storePage16(r byte) { a.byte1(0x66, 0x89); a.page(r) }
func (a *x86) storePage8(r byte)  { a.byte1(0x88); a.page(r) } // r must be 0-3 (al..bl)

// cmpTag is cmp [rdi + rcx*4 + off], r32: a software TLB tag against a page number.
func (a *x86) cmpTag(r byte, off uint32) {
	a.byte1(0x39, modrm(2, r, 4), 2<<6|rCX<<3|rDI)
	a.imm32(off)
}

// loadPtr is mov r64, [rdi + rcx*8 + off]: a software TLB page pointer.
func (a *x86) loadPtr(r byte, off uint32) {
	a.byte1(0x48, 0x8b, modrm(2, r, 4), 3<<6|rCX<<3|rDI)
	a.imm32(off)
}

// jcc emits a conditional jump with a 32-bit displacement to be patched and returns the
// displacement's position.
func (a *x86) jcc(cc byte) int {
	a.byte1(0x0f, 0x80+cc)
	a.imm32(0)
	return len(a.b) - 4
}

// patch points the displacement at pos to the current end of the code.
func (a *x86) patch(pos int) {
	d := uint32(len(a.b) - (pos + 4))
	a.b[pos], a.b[pos+1], a.b[pos+2], a.b[pos+3] = byte(d), byte(d>>8), byte(d>>16), byte(d>>24)
}

func (a *x86) ret() { a.byte1(0xc3) }

// aluState64Imm is the 64-bit op qword [rdi+off], imm32 (sign-extended): add, sub, cmp.
func (a *x86) aluState64Imm(op byte, off, v uint32) {
	a.byte1(0x48, 0x81)
	a.state(op, off)
	a.imm32(v)
}

// cmpInd32 is cmp dword [base+d], r32; loadInd64At mov r64, [base+d] (d < 128).
func (a *x86) cmpInd32(r, base byte, d uint8) { a.byte1(0x39, modrm(1, r, base), d) }
func (a *x86) loadInd64At(dst, base byte, d uint8) {
	a.byte1(0x48, 0x8b, modrm(1, dst, base), d)
}

// loadInd64 is mov r64, [r64].
func (a *x86) loadInd64(dst, src byte) { a.byte1(0x48, 0x8b, modrm(0, dst, src)) }

// test64 is test dst64, src64; jmpReg jmp r64.
func (a *x86) test64(dst, src byte) { a.byte1(0x48, 0x85, modrm(3, src, dst)) }
func (a *x86) jmpReg(r byte)        { a.byte1(0xff, modrm(3, 4, r)) }
