package ppc

import "math/bits"

// Integer arithmetic, logical, shift and rotate instructions.

const (
	bitRc = 1
	bitOE = 1 << 10
)

// cr0 sets CR0 from a result: LT, GT or EQ as a signed comparison with 0, and SO.
func (c *CPU) cr0(r uint32) {
	var f uint32
	switch {
	case int32(r) < 0:
		f = 8
	case r != 0:
		f = 4
	default:
		f = 2
	}
	c.CR = c.CR&0x0fffffff | (f|c.XER>>31)<<28
}

// setOV records signed overflow in XER[OV] and the sticky XER[SO].
func (c *CPU) setOV(ov bool) {
	if ov {
		c.XER |= XerOV | XerSO
	} else {
		c.XER &^= XerOV
	}
}

func (c *CPU) setCA(ca bool) {
	if ca {
		c.XER |= XerCA
	} else {
		c.XER &^= XerCA
	}
}

func (c *CPU) ca() uint32 { return c.XER >> 29 & 1 }

// finish writes rt and applies the OE and Rc bits of XO-form instructions.
func (c *CPU) finish(in *inst, r uint32, ov bool) bool {
	c.GPR[in.rt&31] = r
	if in.w&bitOE != 0 {
		c.setOV(ov)
	}
	if in.w&bitRc != 0 {
		c.cr0(r)
	}
	return false
}

// finishA writes ra (logical forms write RA from RS) and applies Rc.
func (c *CPU) finishA(in *inst, r uint32) bool {
	c.GPR[in.ra&31] = r
	if in.w&bitRc != 0 {
		c.cr0(r)
	}
	return false
}

// adc adds with carry in and returns the sum, carry out and signed overflow.
func adc(a, b, cin uint32) (uint32, bool, bool) {
	s, carry := bits.Add32(a, b, cin)
	return s, carry != 0, (a^s)&(b^s)>>31 != 0
}

// arith is an add-with-carry form: operands picked from the instruction, whether it sets CA.
func arith(ops func(c *CPU, in *inst) (a, b, cin uint32), setsCA bool) semFn {
	return func(c *CPU, in *inst) bool {
		a, b, cin := ops(c, in)
		s, ca, ov := adc(a, b, cin)
		if setsCA {
			c.setCA(ca)
		}
		return c.finish(in, s, ov)
	}
}

func (c *CPU) ra0(in *inst) uint32 {
	if in.ra == 0 {
		return 0
	}
	return c.GPR[in.ra&31]
}

func execAdd(c *CPU, in *inst) bool {
	a, b := c.GPR[in.ra&31], c.GPR[in.rb&31]
	s := a + b
	if in.w&(bitOE|bitRc) == 0 {
		c.GPR[in.rt&31] = s
		return false
	}
	return c.finish(in, s, (a^s)&(b^s)>>31 != 0)
}

func execAddi(c *CPU, in *inst) bool {
	c.GPR[in.rt&31] = c.ra0(in) + in.imm
	return false
}

func execAddis(c *CPU, in *inst) bool {
	c.GPR[in.rt&31] = c.ra0(in) + in.imm<<16
	return false
}

func execAddic(c *CPU, in *inst) bool {
	s, ca, _ := adc(c.GPR[in.ra&31], in.imm, 0)
	c.setCA(ca)
	c.GPR[in.rt&31] = s
	return false
}

func execAddicDot(c *CPU, in *inst) bool {
	execAddic(c, in)
	c.cr0(c.GPR[in.rt&31])
	return false
}

func execSubfic(c *CPU, in *inst) bool {
	s, ca, _ := adc(^c.GPR[in.ra&31], in.imm, 1)
	c.setCA(ca)
	c.GPR[in.rt&31] = s
	return false
}

func execSubf(c *CPU, in *inst) bool {
	a, b := ^c.GPR[in.ra&31], c.GPR[in.rb&31]
	s := a + b + 1
	if in.w&(bitOE|bitRc) == 0 {
		c.GPR[in.rt&31] = s
		return false
	}
	return c.finish(in, s, (a^s)&(b^s)>>31 != 0)
}

func execNeg(c *CPU, in *inst) bool {
	a := c.GPR[in.ra&31]
	return c.finish(in, -a, a == 0x80000000)
}

func execMulli(c *CPU, in *inst) bool {
	c.GPR[in.rt&31] = uint32(int32(c.GPR[in.ra&31]) * int32(in.imm))
	return false
}

func execMullw(c *CPU, in *inst) bool {
	p := int64(int32(c.GPR[in.ra&31])) * int64(int32(c.GPR[in.rb&31]))
	return c.finish(in, uint32(p), p != int64(int32(p)))
}

func execMulhw(c *CPU, in *inst) bool {
	p := int64(int32(c.GPR[in.ra&31])) * int64(int32(c.GPR[in.rb&31]))
	return c.finish(in, uint32(p>>32), false)
}

func execMulhwu(c *CPU, in *inst) bool {
	p := uint64(c.GPR[in.ra&31]) * uint64(c.GPR[in.rb&31])
	return c.finish(in, uint32(p>>32), false)
}

// execDivw: the quotient of an undefined division (by zero, or -2^31 / -1) is the dividend,
// the value qemu-ppc gives for the 440 (the ISA leaves it undefined); OE sets OV.
func execDivw(c *CPU, in *inst) bool {
	a, b := int32(c.GPR[in.ra&31]), int32(c.GPR[in.rb&31])
	if b == 0 || a == -1<<31 && b == -1 {
		return c.finish(in, uint32(a), true)
	}
	return c.finish(in, uint32(a/b), false)
}

func execDivwu(c *CPU, in *inst) bool {
	a, b := c.GPR[in.ra&31], c.GPR[in.rb&31]
	if b == 0 {
		return c.finish(in, a, true)
	}
	return c.finish(in, a/b, false)
}

// logical returns the semantics of an X-form logical instruction RA <- f(RS, RB).
func logical(f func(s, b uint32) uint32) semFn {
	return func(c *CPU, in *inst) bool {
		r := f(c.GPR[in.rt&31], c.GPR[in.rb&31])
		return c.finishA(in, r)
	}
}

func execOr(c *CPU, in *inst) bool {
	r := c.GPR[in.rt&31] | c.GPR[in.rb&31]
	c.GPR[in.ra&31] = r
	if in.w&bitRc != 0 {
		c.cr0(r)
	}
	return false
}

// unary returns the semantics of RA <- f(RS) with Rc.
func unary(f func(s uint32) uint32) semFn {
	return func(c *CPU, in *inst) bool { return c.finishA(in, f(c.GPR[in.rt&31])) }
}

func immLogical(f func(s, ui uint32) uint32, rc bool) semFn {
	return func(c *CPU, in *inst) bool {
		r := f(c.GPR[in.rt&31], in.w&0xffff)
		c.GPR[in.ra&31] = r
		if rc {
			c.cr0(r)
		}
		return false
	}
}

func execOri(c *CPU, in *inst) bool {
	c.GPR[in.ra&31] = c.GPR[in.rt&31] | in.w&0xffff
	return false
}

func execSlw(c *CPU, in *inst) bool {
	n := c.GPR[in.rb&31] & 63
	var r uint32
	if n < 32 {
		r = c.GPR[in.rt&31] << n
	}
	return c.finishA(in, r)
}

func execSrw(c *CPU, in *inst) bool {
	n := c.GPR[in.rb&31] & 63
	var r uint32
	if n < 32 {
		r = c.GPR[in.rt&31] >> n
	}
	return c.finishA(in, r)
}

// sraw shifts right algebraically; CA is set when the source is negative and any 1 bits
// are shifted out.
func (c *CPU) sraw(in *inst, n uint32) bool {
	s := int32(c.GPR[in.rt&31])
	if n > 31 {
		c.setCA(s < 0)
		return c.finishA(in, uint32(s>>31))
	}
	c.setCA(s < 0 && uint32(s)&(1<<n-1) != 0)
	return c.finishA(in, uint32(s>>n))
}

func execSraw(c *CPU, in *inst) bool  { return c.sraw(in, c.GPR[in.rb&31]&63) }
func execSrawi(c *CPU, in *inst) bool { return c.sraw(in, uint32(in.rb)) }

// rotMask is the MB..ME mask of the rotate instructions (wrapping when MB > ME).
func rotMask(mb, me uint32) uint32 {
	m1 := uint32(0xffffffff) >> mb
	m2 := uint32(0xffffffff) << (31 - me)
	if mb <= me {
		return m1 & m2
	}
	return m1 | m2
}

func prepMask(in *inst) { in.imm = rotMask(uint32(in.rc), in.w>>1&31) }

func execRlwinm(c *CPU, in *inst) bool {
	r := bits.RotateLeft32(c.GPR[in.rt&31], int(in.rb)) & in.imm
	c.GPR[in.ra&31] = r
	if in.w&bitRc != 0 {
		c.cr0(r)
	}
	return false
}

func execRlwnm(c *CPU, in *inst) bool {
	r := bits.RotateLeft32(c.GPR[in.rt&31], int(c.GPR[in.rb&31]&31)) & in.imm
	return c.finishA(in, r)
}

func execRlwimi(c *CPU, in *inst) bool {
	r := bits.RotateLeft32(c.GPR[in.rt&31], int(in.rb))&in.imm | c.GPR[in.ra&31]&^in.imm
	return c.finishA(in, r)
}

func regA(c *CPU, in *inst) uint32 { return c.GPR[in.ra&31] }

func init() {
	registerSem([]semEntry{
		{op: opAdd, fn: execAdd},
		{op: opAddc, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return regA(c, in), c.GPR[in.rb&31], 0 }, true)},
		{op: opAdde, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return regA(c, in), c.GPR[in.rb&31], c.ca() }, true)},
		{op: opAddme, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return regA(c, in), 0xffffffff, c.ca() }, true)},
		{op: opAddze, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return regA(c, in), 0, c.ca() }, true)},
		{op: opSubf, fn: execSubf},
		{op: opSubfc, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return ^regA(c, in), c.GPR[in.rb&31], 1 }, true)},
		{op: opSubfe, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return ^regA(c, in), c.GPR[in.rb&31], c.ca() }, true)},
		{op: opSubfme, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return ^regA(c, in), 0xffffffff, c.ca() }, true)},
		{op: opSubfze, fn: arith(func(c *CPU, in *inst) (uint32, uint32, uint32) { return ^regA(c, in), 0, c.ca() }, true)},
		{op: opNeg, fn: execNeg},
		{op: opAddi, fn: execAddi},
		{op: opAddis, fn: execAddis},
		{op: opAddic, fn: execAddic},
		{op: opAddicDot, fn: execAddicDot},
		{op: opSubfic, fn: execSubfic},
		{op: opMulli, fn: execMulli},
		{op: opMullw, fn: execMullw},
		{op: opMulhw, fn: execMulhw},
		{op: opMulhwu, fn: execMulhwu},
		{op: opDivw, fn: execDivw},
		{op: opDivwu, fn: execDivwu},
		{op: opAnd, fn: logical(func(s, b uint32) uint32 { return s & b })},
		{op: opAndc, fn: logical(func(s, b uint32) uint32 { return s &^ b })},
		{op: opOr, fn: execOr},
		{op: opOrc, fn: logical(func(s, b uint32) uint32 { return s | ^b })},
		{op: opXor, fn: logical(func(s, b uint32) uint32 { return s ^ b })},
		{op: opNand, fn: logical(func(s, b uint32) uint32 { return ^(s & b) })},
		{op: opNor, fn: logical(func(s, b uint32) uint32 { return ^(s | b) })},
		{op: opEqv, fn: logical(func(s, b uint32) uint32 { return ^(s ^ b) })},
		{op: opExtsb, fn: unary(func(s uint32) uint32 { return uint32(int32(int8(s))) })},
		{op: opExtsh, fn: unary(func(s uint32) uint32 { return uint32(int32(int16(s))) })},
		{op: opCntlzw, fn: unary(func(s uint32) uint32 { return uint32(bits.LeadingZeros32(s)) })},
		{op: opOri, fn: execOri},
		{op: opOris, fn: immLogical(func(s, ui uint32) uint32 { return s | ui<<16 }, false)},
		{op: opXori, fn: immLogical(func(s, ui uint32) uint32 { return s ^ ui }, false)},
		{op: opXoris, fn: immLogical(func(s, ui uint32) uint32 { return s ^ ui<<16 }, false)},
		{op: opAndiDot, fn: immLogical(func(s, ui uint32) uint32 { return s & ui }, true)},
		{op: opAndisDot, fn: immLogical(func(s, ui uint32) uint32 { return s & (ui << 16) }, true)},
		{op: opSlw, fn: execSlw},
		{op: opSrw, fn: execSrw},
		{op: opSraw, fn: execSraw},
		{op: opSrawi, fn: execSrawi},
		{op: opRlwinm, fn: execRlwinm, prep: prepMask},
		{op: opRlwnm, fn: execRlwnm, prep: prepMask},
		{op: opRlwimi, fn: execRlwimi, prep: prepMask},
	})
}
