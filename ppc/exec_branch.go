package ppc

import "math/bits"

// Branches, compares, condition-register logic, traps and sc.

// crBit returns CR bit b (0 is the most significant).
func (c *CPU) crBit(b uint32) bool { return c.CR>>(31-b&31)&1 != 0 }

func (c *CPU) setCRBit(b uint32, v bool) {
	m := uint32(1) << (31 - b&31)
	if v {
		c.CR |= m
	} else {
		c.CR &^= m
	}
}

// setCRField sets CR field bf (0-7) to the 4-bit value f.
func (c *CPU) setCRField(bf, f uint32) {
	sh := 28 - 4*(bf&7)
	c.CR = c.CR&^(0xf<<sh) | (f&0xf)<<sh
}

func prepBranch(in *inst) {
	off := uint32(int32(in.w&0x03fffffc<<6) >> 6)
	if in.w&2 != 0 {
		in.imm = off
	} else {
		in.imm = in.pc + off
	}
}

func prepBC(in *inst) {
	off := uint32(int32(int16(in.w & 0xfffc)))
	if in.w&2 != 0 {
		in.imm = off
	} else {
		in.imm = in.pc + off
	}
}

func execB(c *CPU, in *inst) bool {
	if in.w&1 != 0 {
		c.LR = in.pc + 4
	}
	c.PC = in.imm
	c.Count.Branches++
	return true
}

// condOK evaluates BO and BI, decrementing CTR when BO says so.
func (c *CPU) condOK(in *inst, useCTR bool) bool {
	bo := uint32(in.rt)
	ok := true
	if useCTR && bo&4 == 0 {
		c.CTR--
		ok = (c.CTR != 0) != (bo&2 != 0)
	}
	if bo&16 == 0 {
		ok = ok && c.crBit(uint32(in.ra)) == (bo&8 != 0)
	}
	return ok
}

func (c *CPU) branchTo(in *inst, taken bool, target uint32) bool {
	if in.w&1 != 0 {
		c.LR = in.pc + 4
	}
	if taken {
		c.PC = target
		c.Count.Branches++
	} else {
		c.PC = in.pc + 4
		c.Count.BranchesNotTaken++
	}
	return true
}

func execBC(c *CPU, in *inst) bool { return c.branchTo(in, c.condOK(in, true), in.imm) }

func execBCLR(c *CPU, in *inst) bool {
	target := c.LR &^ 3
	return c.branchTo(in, c.condOK(in, true), target)
}

// execBCCTR: a form that would decrement CTR is invalid; the 440 (and qemu) ignore BO[2].
func execBCCTR(c *CPU, in *inst) bool {
	return c.branchTo(in, c.condOK(in, false), c.CTR&^3)
}

func execSC(c *CPU, in *inst) bool {
	c.PC = in.pc + 4
	c.stop = Stop{Kind: StopSyscall}
	return true
}

func cmpSigned(a, b int32) uint32 {
	switch {
	case a < b:
		return 8
	case a > b:
		return 4
	}
	return 2
}

func cmpUnsigned(a, b uint32) uint32 {
	switch {
	case a < b:
		return 8
	case a > b:
		return 4
	}
	return 2
}

func (c *CPU) compare(in *inst, f uint32) bool {
	c.setCRField(uint32(in.rt>>2), f|c.XER>>31)
	return false
}

func execCmp(c *CPU, in *inst) bool {
	return c.compare(in, cmpSigned(int32(c.GPR[in.ra&31]), int32(c.GPR[in.rb&31])))
}
func execCmpi(c *CPU, in *inst) bool {
	return c.compare(in, cmpSigned(int32(c.GPR[in.ra&31]), int32(in.imm)))
}
func execCmpl(c *CPU, in *inst) bool {
	return c.compare(in, cmpUnsigned(c.GPR[in.ra&31], c.GPR[in.rb&31]))
}
func execCmpli(c *CPU, in *inst) bool {
	return c.compare(in, cmpUnsigned(c.GPR[in.ra&31], in.w&0xffff))
}

// crLogic returns the semantics of a CR-bit instruction BT <- f(BA, BB).
func crLogic(f func(a, b bool) bool) semFn {
	return func(c *CPU, in *inst) bool {
		c.setCRBit(uint32(in.rt), f(c.crBit(uint32(in.ra)), c.crBit(uint32(in.rb))))
		return false
	}
}

func execMcrf(c *CPU, in *inst) bool {
	c.setCRField(uint32(in.rt>>2), c.CR>>(28-4*uint32(in.ra>>2)))
	return false
}

// execMcrxr moves SO, OV and CA to a CR field (its fourth bit is 0) and clears them.
func execMcrxr(c *CPU, in *inst) bool {
	c.setCRField(uint32(in.rt>>2), c.XER>>28&0xe)
	c.XER &^= XerSO | XerOV | XerCA
	return false
}

func execMfcr(c *CPU, in *inst) bool {
	c.GPR[in.rt&31] = c.CR
	return false
}

// fieldMask expands an 8-bit CR field mask (FXM) to a 32-bit mask.
func fieldMask(fxm uint32) uint32 {
	var m uint32
	for i := range 8 {
		if fxm&(0x80>>i) != 0 {
			m |= 0xf0000000 >> (4 * i)
		}
	}
	return m
}

func execMtcrf(c *CPU, in *inst) bool {
	m := fieldMask(in.w >> 12 & 0xff)
	c.CR = c.CR&^m | c.GPR[in.rt&31]&m
	return false
}

// execMfocrf copies the selected field; the 440 (like qemu) leaves other bits as mfcr
// would only when exactly one field is selected, so it returns the fields selected.
func execMfocrf(c *CPU, in *inst) bool {
	fxm := in.w >> 12 & 0xff
	if bits.OnesCount32(fxm) != 1 {
		c.GPR[in.rt&31] = c.CR
		return false
	}
	c.GPR[in.rt&31] = c.CR & fieldMask(fxm)
	return false
}

// trapCond evaluates the TO field of tw/twi for a and b.
func trapCond(to uint32, a, b uint32) bool {
	sa, sb := int32(a), int32(b)
	return to&16 != 0 && sa < sb || to&8 != 0 && sa > sb || to&4 != 0 && a == b ||
		to&2 != 0 && a < b || to&1 != 0 && a > b
}

func execTw(c *CPU, in *inst) bool {
	if trapCond(uint32(in.rt), c.GPR[in.ra&31], c.GPR[in.rb&31]) {
		return c.raise(in, FaultTrap, 0, false)
	}
	c.PC = in.pc + 4
	return true
}

func execTwi(c *CPU, in *inst) bool {
	if trapCond(uint32(in.rt), c.GPR[in.ra&31], in.imm) {
		return c.raise(in, FaultTrap, 0, false)
	}
	c.PC = in.pc + 4
	return true
}

func init() {
	registerSem([]semEntry{
		{op: opB, fn: execB, prep: prepBranch},
		{op: opBc, fn: execBC, prep: prepBC},
		{op: opBclr, fn: execBCLR},
		{op: opBcctr, fn: execBCCTR},
		{op: opSc, fn: execSC},
		{op: opCmp, fn: execCmp},
		{op: opCmpi, fn: execCmpi},
		{op: opCmpl, fn: execCmpl},
		{op: opCmpli, fn: execCmpli},
		{op: opCrand, fn: crLogic(func(a, b bool) bool { return a && b })},
		{op: opCrandc, fn: crLogic(func(a, b bool) bool { return a && !b })},
		{op: opCreqv, fn: crLogic(func(a, b bool) bool { return a == b })},
		{op: opCrnand, fn: crLogic(func(a, b bool) bool { return !(a && b) })},
		{op: opCrnor, fn: crLogic(func(a, b bool) bool { return !(a || b) })},
		{op: opCror, fn: crLogic(func(a, b bool) bool { return a || b })},
		{op: opCrorc, fn: crLogic(func(a, b bool) bool { return a || !b })},
		{op: opCrxor, fn: crLogic(func(a, b bool) bool { return a != b })},
		{op: opMcrf, fn: execMcrf},
		{op: opMcrxr, fn: execMcrxr},
		{op: opMfcr, fn: execMfcr},
		{op: opMtcrf, fn: execMtcrf},
		{op: opMfocrf, fn: execMfocrf},
		{op: opMtocrf, fn: execMtcrf},
		{op: opIsel, fn: execIllegal}, // not on the 440 core: qemu-ppc -cpu 440epx raises SIGILL
		{op: opTw, fn: execTw},
		{op: opTwi, fn: execTwi},
	})
}
