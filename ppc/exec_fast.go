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

// inlineOp names the forms runBlock executes in a switch instead of an indirect call: the
// register-only forms compilers emit most, without Rc or OE (those keep their functions).
type inlineOp uint8

const (
	inlNone inlineOp = iota
	inlAddi
	inlAddis
	inlAdd
	inlSubf
	inlOr
	inlXor
	inlAnd
	inlRlwinm
	inlMullw
	inlOri
	inlCmpi
	inlCmpli
	inlCmp
	inlCmpl
	inlLwz
	inlStw
	inlStwu
	inlMflr
	inlMtlr
	inlMtctr
)

// inlineForms maps names to inline forms and the word bits that must be clear for it.
var inlineForms = map[string]struct {
	op    inlineOp
	clear uint32
}{
	"addi": {inlAddi, 0}, "addis": {inlAddis, 0}, "add": {inlAdd, bitOE | bitRc},
	"subf": {inlSubf, bitOE | bitRc}, "or": {inlOr, bitRc}, "xor": {inlXor, bitRc},
	"and": {inlAnd, bitRc}, "rlwinm": {inlRlwinm, bitRc}, "mullw": {inlMullw, bitOE | bitRc},
	"ori": {inlOri, 0}, "cmpi": {inlCmpi, 0}, "cmpli": {inlCmpli, 0}, "cmp": {inlCmp, 0},
	"cmpl": {inlCmpl, 0}, "lwz": {inlLwz, 0}, "stw": {inlStw, 0}, "stwu": {inlStwu, 0},
}

// inlineSPR picks the inline forms of mfspr/mtspr for LR and CTR.
func inlineSPR(name string, w uint32) inlineOp {
	switch {
	case name == "mfspr" && sprNum(w) == sprLR:
		return inlMflr
	case name == "mtspr" && sprNum(w) == sprLR:
		return inlMtlr
	case name == "mtspr" && sprNum(w) == sprCTR:
		return inlMtctr
	}
	return inlNone
}

// fastSem replaces generic entries by name after all semantics are registered.
var fastSem = map[string]semFn{
	"and": execAnd, "andc": execAndc, "xor": execXor, "nor": execNor,
	"stwu": execStwu, "lbz": execLbz, "stb": execStb, "lfd": execLfd, "stfd": execStfd,
}
