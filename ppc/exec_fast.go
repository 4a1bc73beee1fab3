package ppc

import "encoding/binary"

// Direct implementations of the most frequent instructions, replacing the generic
// table-built closures (which cost a second indirect call) for the forms compilers emit
// in every loop and function prologue.

func execAnd(c *CPU, in *inst) bool {
	return c.finishA(in, c.GPR[in.rt&31]&c.GPR[in.rb&31])
}

func execAndc(c *CPU, in *inst) bool {
	return c.finishA(in, c.GPR[in.rt&31]&^c.GPR[in.rb&31])
}

func execXor(c *CPU, in *inst) bool {
	return c.finishA(in, c.GPR[in.rt&31]^c.GPR[in.rb&31])
}

func execNor(c *CPU, in *inst) bool {
	return c.finishA(in, ^(c.GPR[in.rt&31] | c.GPR[in.rb&31]))
}

func execStwu(c *CPU, in *inst) bool {
	ea := c.GPR[in.ra&31] + in.imm
	if ea>>pageShift == c.tlb.wTag && ea&pageMask <= PageSize-4 {
		o := ea & pageMask
		binary.BigEndian.PutUint32(c.tlb.wPage[o:o+4], c.GPR[in.rt&31])
		c.GPR[in.ra&31] = ea
		return false
	}
	end := c.st32(in, ea, c.GPR[in.rt&31])
	if c.stop.Fault != nil {
		return true
	}
	c.GPR[in.ra&31] = ea
	return end
}

func execLbz(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	if ea>>pageShift == c.tlb.rTag {
		c.GPR[in.rt&31] = uint32(c.tlb.rPage[ea&pageMask])
		return false
	}
	v, f := c.ld8(in, ea)
	if !f {
		c.GPR[in.rt&31] = v
	}
	return f
}

func execStb(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	if ea>>pageShift == c.tlb.wTag {
		c.tlb.wPage[ea&pageMask] = byte(c.GPR[in.rt&31])
		return false
	}
	return c.st8(in, ea, c.GPR[in.rt&31])
}

func execLfd(c *CPU, in *inst) bool {
	ea := c.ra0(in) + in.imm
	v, f := c.ld64(in, ea)
	if !f {
		c.FPR[in.rt&31] = v
	}
	return f
}

func execStfd(c *CPU, in *inst) bool {
	return c.st64(in, c.ra0(in)+in.imm, c.FPR[in.rt&31])
}

// fastSem replaces generic entries by name after all semantics are registered.
var fastSem = map[string]semFn{
	"and": execAnd, "andc": execAndc, "xor": execXor, "nor": execNor,
	"stwu": execStwu, "lbz": execLbz, "stb": execStb, "lfd": execLfd, "stfd": execStfd,
}
