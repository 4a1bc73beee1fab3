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

// formBinding is the inline form of a table entry and the word bits that must be clear
// for it (Rc, OE: those forms keep their functions).
type formBinding struct {
	op    inlineOp
	clear uint32
}

// inlineForms gives the entries both interpreters run inline their forms, indexed by Op.
var inlineForms = [numOps]formBinding{
	opAddi: {inlAddi, 0}, opAddis: {inlAddis, 0}, opAdd: {inlAdd, bitOE | bitRc},
	opSubf: {inlSubf, bitOE | bitRc}, opOr: {inlOr, bitRc}, opXor: {inlXor, bitRc},
	opAnd: {inlAnd, bitRc}, opRlwinm: {inlRlwinm, bitRc}, opMullw: {inlMullw, bitOE | bitRc},
	opOri: {inlOri, 0}, opCmpi: {inlCmpi, 0}, opCmpli: {inlCmpli, 0}, opCmp: {inlCmp, 0},
	opCmpl: {inlCmpl, 0}, opLwz: {inlLwz, 0}, opStw: {inlStw, 0}, opStwu: {inlStwu, 0},
}

// sprForm is the inline form of mfspr or mtspr for one SPR.
type sprForm struct {
	op   Op
	spr  uint32
	form inlineOp
}

// inlineSPRForms are the moves to and from LR and CTR both interpreters run inline.
var inlineSPRForms = []sprForm{
	{opMfspr, sprLR, inlMflr}, {opMtspr, sprLR, inlMtlr}, {opMtspr, sprCTR, inlMtctr},
}

// sprFormOf picks the form of forms for op's word w, or inlNone.
func sprFormOf(forms []sprForm, op Op, w uint32) inlineOp {
	for _, f := range forms {
		if f.op == op && sprNum(w) == f.spr {
			return f.form
		}
	}
	return inlNone
}

// inlineForm picks the form runBlock runs for op's word w, or inlNone.
func inlineForm(op Op, w uint32) inlineOp {
	if f := inlineForms[op]; f.op != inlNone && w&f.clear == 0 {
		return f.op
	}
	return sprFormOf(inlineSPRForms, op, w)
}

// fastSem replaces the generic semantics of these entries as they are registered.
var fastSem = map[Op]semFn{
	opAnd: execAnd, opAndc: execAndc, opXor: execXor, opNor: execNor,
	opStwu: execStwu, opLbz: execLbz, opStb: execStb, opLfd: execLfd, opStfd: execStfd,
}
