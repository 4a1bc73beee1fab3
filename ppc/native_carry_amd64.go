package ppc

// The carry chain, the high multiplies, the divides and sraw, bit-exact with exec_int.go:
// XER[CA] from the host carry, CR0 from the result and XER[SO]. Their OE forms stay
// with the interpreter.

// x86 encodings only these forms use.
const aluAdc = 2 // ADC in the ALU group

func (a *x86) mulHigh(r byte)        { a.byte1(0xf7, modrm(3, 4, r)) } // edx:eax = eax * r
func (a *x86) imulHigh(r byte)       { a.byte1(0xf7, modrm(3, 5, r)) }
func (a *x86) div(r byte)            { a.byte1(0xf7, modrm(3, 6, r)) } // eax, edx = edx:eax / r
func (a *x86) idiv(r byte)           { a.byte1(0xf7, modrm(3, 7, r)) }
func (a *x86) cdq()                  { a.byte1(0x99) }
func (a *x86) clc()                  { a.byte1(0xf8) }
func (a *x86) stc()                  { a.byte1(0xf9) }
func (a *x86) btImm(r byte, n uint8) { a.byte1(0x0f, 0xba, modrm(3, 4, r), n) }

// carryForm is an XO-form add of the carry chain: RT <- (^)RA + second + carry in.
type carryForm struct {
	notA   bool
	second byte // carryRB, carryZero or carryOnes
	cin    byte // carryInCA, carryInZero or carryInOne
}

const (
	carryRB = iota
	carryZero
	carryOnes
)

const (
	carryInCA = iota
	carryInZero
	carryInOne
)

var carryForms = map[Op]carryForm{
	opAddc: {false, carryRB, carryInZero}, opAdde: {false, carryRB, carryInCA},
	opAddze: {false, carryZero, carryInCA}, opAddme: {false, carryOnes, carryInCA},
	opSubfc: {true, carryRB, carryInOne}, opSubfe: {true, carryRB, carryInCA},
	opSubfze: {true, carryZero, carryInCA}, opSubfme: {true, carryOnes, carryInCA},
}

// carryAdd emits a carry-chain add: the sum in eax through adc, its carry to XER[CA].
func (t *translator) carryAdd(in *inst, f carryForm, rc bool) {
	t.getGPR(rAX, in.ra)
	if f.notA {
		t.not(rAX)
	}
	switch f.second {
	case carryRB:
		t.getGPR(rBX, in.rb)
	case carryZero:
		t.alu(aluXor, rBX, rBX)
	default:
		t.movImm32(rBX, 0xffffffff)
	}
	switch f.cin { // after the xor above, which clears CF
	case carryInCA:
		t.load32(rDX, offXER)
		t.btImm(rDX, 29) // XerCA
	case carryInZero:
		t.clc()
	default:
		t.stc()
	}
	t.alu(aluAdc, rAX, rBX)
	t.carryToCA()
	t.finishT(in, rc)
}

// mulHighWord emits mulhw or mulhwu: the high word of the 64-bit product.
func (t *translator) mulHighWord(in *inst, signed, rc bool) {
	t.getGPR(rAX, in.ra)
	t.getGPR(rBX, in.rb)
	if signed {
		t.imulHigh(rBX)
	} else {
		t.mulHigh(rBX)
	}
	t.mov(rAX, rDX)
	t.finishT(in, rc)
}

// divWord emits divw or divwu. The host faults where the PowerPC's result is undefined
// (by zero, and -2^31 / -1), so those skip the division and leave the dividend, as
// execDivw does.
func (t *translator) divWord(in *inst, signed, rc bool) {
	t.getGPR(rAX, in.ra)
	t.getGPR(rBX, in.rb)
	t.test(rBX, rBX)
	undefined := []int{t.jcc(ccE)}
	if signed {
		t.aluImm(aluCmp, rBX, 0xffffffff)
		divide := t.jcc(ccNE)
		t.aluImm(aluCmp, rAX, 0x80000000)
		undefined = append(undefined, t.jcc(ccE))
		t.patch(divide)
		t.cdq()
		t.idiv(rBX)
	} else {
		t.alu(aluXor, rDX, rDX)
		t.div(rBX)
	}
	for _, j := range undefined {
		t.patch(j)
	}
	t.finishT(in, rc)
}

// sraw: the count is RB mod 64; 32-63 give the sign in every bit, and CA is set when RS
// is negative and any 1 bits are shifted out (all of them for 32-63).
func (t *translator) sraw(in *inst, rc bool) {
	t.getGPR(rCX, in.rb)
	t.aluImm(aluAnd, rCX, 63)
	t.movImm32(rBX, 0xffffffff)
	t.shiftCL(shShl, rBX) // the count mod 32
	t.not(rBX)            // the bits shifted out, for a count under 32
	t.movImm32(rDX, 0xffffffff)
	t.aluImm(aluCmp, rCX, 31)
	t.cmov(ccA, rBX, rDX)
	t.movImm32(rDX, 31) // mov keeps the flags of the compare
	t.cmov(ccA, rCX, rDX)
	t.getGPR(rAX, in.rt)
	t.mov(rDX, rAX)
	t.shiftImm(shSar, rDX, 31)
	t.alu(aluAnd, rBX, rAX) // the 1 bits shifted out
	t.alu(aluAnd, rBX, rDX) // kept when RS is negative
	t.shiftCL(shSar, rAX)
	t.neg(rBX) // CF = (rbx != 0)
	t.carryToCA()
	t.finishA(in, rc)
}
