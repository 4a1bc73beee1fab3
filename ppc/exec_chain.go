package ppc

// The chained interpreter: whole blocks of compact micro-ops run back to back without
// leaving one function. Run uses it whenever no breakpoint is set and the budget covers
// the next block; the general path (runBlock) serves the rest, with identical counts.
//
// A block's uops hold the operands extracted once (8 bytes each, so a block of 64 fits in
// eight cache lines) and the form picked at predecode; uCall runs the instruction's bound
// semantics. A block ending in a branch executes it inline and goes to the next block
// without a page-table walk: a target in the same virtual page is in the same physical
// page, whose codePage holds its block; another page goes through the CPU's block cache.
// Both are valid as long as the Memory's generation has not moved, which is checked at
// every block boundary (a store that drops code or allocates a page moves it and ends
// its block).

// uop is a micro-op: an inlineOp and the instruction's fields.
type uop struct {
	op         inlineOp
	rt, ra, rb uint8
	imm        uint32
}

// The forms only the chained interpreter runs inline (runBlock calls their semantics).
const (
	inlLi inlineOp = inlMtctr + 1 + iota
	inlLis
	inlAndiDot
	inlOrDot
	inlAddic
	inlAddicDot
	inlMulli
	inlXori
	inlOris
	inlAndc
	inlNor
	inlSlw
	inlSrw
	inlSrawi
	inlNeg
	inlExtsb
	inlExtsh
	inlCntlzw
	inlRlwimi
	inlMfctr
	inlMfcr
	inlLbz
	inlLbzu
	inlStb
	inlStbu
	inlLhz
	inlSth
	inlLwzu
	inlLwzx
	inlStwx
	inlB
	inlBC
	inlBCLR
	inlBCCTR
	numInline
)

// chainForms gives the entries only the chained interpreter runs inline their forms,
// indexed by Op.
var chainForms = [numOps]formBinding{
	opAndiDot: {inlAndiDot, 0}, opAddic: {inlAddic, 0}, opAddicDot: {inlAddicDot, 0},
	opMulli: {inlMulli, 0}, opXori: {inlXori, 0}, opOris: {inlOris, 0},
	opAndc: {inlAndc, bitRc}, opNor: {inlNor, bitRc}, opSlw: {inlSlw, bitRc},
	opSrw: {inlSrw, bitRc}, opSrawi: {inlSrawi, bitRc}, opNeg: {inlNeg, bitOE | bitRc},
	opExtsb: {inlExtsb, bitRc}, opExtsh: {inlExtsh, bitRc}, opCntlzw: {inlCntlzw, bitRc},
	opRlwimi: {inlRlwimi, bitRc}, opMfcr: {inlMfcr, 0},
	opLbz: {inlLbz, 0}, opStb: {inlStb, 0}, opLhz: {inlLhz, 0}, opSth: {inlSth, 0},
	opLbzu: {inlLbzu, 0}, opStbu: {inlStbu, 0}, opLwzu: {inlLwzu, 0},
	opLwzx: {inlLwzx, 0}, opStwx: {inlStwx, 0},
	opB: {inlB, 0}, opBc: {inlBC, 0}, opBclr: {inlBCLR, 0}, opBcctr: {inlBCCTR, 0},
}

// chainSPRForms are the moves from SPRs only the chained interpreter runs inline.
var chainSPRForms = []sprForm{{opMfspr, sprCTR, inlMfctr}}

// raForms are the forms that compute (RA|0)+d or (RA|0)+(RB) and update forms whose RA
// must be valid: they run inline only when RA is a register (and, for loads with update,
// not RT), so the micro-op needs no test.
var raForms = map[inlineOp]bool{
	inlLwz: true, inlStw: true, inlLbz: true, inlStb: true, inlLhz: true, inlSth: true,
	inlLbzu: true, inlStbu: true, inlLwzu: true, inlLwzx: true, inlStwx: true,
}

// chainForm picks the form the chained interpreter runs for in, an instance of op.
func chainForm(op Op, in *inst) inlineOp {
	form := chainFormOf(op, in)
	if raForms[form] && (in.ra == 0 || (form == inlLbzu || form == inlLwzu) && in.ra == in.rt) {
		return inlNone
	}
	return form
}

// chainFormOf is chainForm before the operand checks of raForms.
func chainFormOf(op Op, in *inst) inlineOp {
	switch {
	case in.inline == inlAddi && in.ra == 0:
		return inlLi
	case in.inline == inlAddis && in.ra == 0:
		return inlLis
	case in.inline != inlNone:
		return in.inline
	case op == opOr && in.w&bitRc != 0:
		return inlOrDot
	}
	if f := chainForms[op]; f.op != inlNone && in.w&f.clear == 0 {
		return f.op
	}
	return sprFormOf(chainSPRForms, op, in.w)
}

// uop returns the micro-op of a predecoded instruction: branches keep LK in rb, compares
// the CR field in rt.
func (in *inst) uop() uop {
	u := uop{op: in.chain, rt: in.rt, ra: in.ra, rb: in.rb, imm: in.imm}
	switch u.op {
	case inlB, inlBC, inlBCLR, inlBCCTR:
		u.rb = uint8(in.w & 1)
	case inlCmpi, inlCmpli, inlCmp, inlCmpl:
		u.rt = in.rt >> 2
	}
	return u
}

// Forwarded forms read one operand from the result of the micro-op just before them in
// the block instead of from the register file: a dependent pair then passes its value in a
// machine register, not through a store and a load of CPU.GPR (whose store-to-load latency
// bounds a chain of dependent instructions). Commutative forms take the forwarded operand
// as RA (or RS), swapping RA and RB at predecode when needed.
const (
	inlAddiF inlineOp = numInline + iota
	inlAddF
	inlSubfFA // RA forwarded: RB - acc
	inlSubfFB // RB forwarded: acc - RA
	inlOrF
	inlXorF
	inlAndF
	inlMullwF
	inlRlwinmF
	inlCmpiF
	inlCmpliF
	inlCmpF
	inlCmplF
)

// accTarget reports whether u leaves its result in the forwarding register, and the
// register it writes: the arithmetic and logical forms, and the loads (load + use), whose
// fast path sets it and whose general path runChain follows by reloading it.
func accTarget(u uop) (uint8, bool) {
	switch u.op {
	case inlAddi, inlLi, inlAddis, inlLis, inlAdd, inlSubf, inlMullw, inlMulli, inlNeg,
		inlAddic, inlAddicDot, inlLwz, inlLwzu, inlLwzx, inlLhz, inlLbz, inlLbzu:
		return u.rt, true
	case inlOr, inlOrDot, inlXor, inlAnd, inlAndc, inlNor, inlRlwinm, inlOri, inlOris, inlXori,
		inlAndiDot, inlSrawi, inlExtsb, inlExtsh, inlSlw, inlSrw, inlCntlzw:
		return u.ra, true
	}
	return 0, false
}

// fwdForms gives each forwardable form its forwarded form, which operand field carries
// the forwarded register (RA for arithmetic and compares, RS for logical and rotate forms)
// and whether the form is commutative (so a forwarded RB can be swapped into place).
var fwdForms = map[inlineOp]struct {
	fwd     inlineOp
	rs, com bool
}{
	inlAddi: {inlAddiF, false, false}, inlCmpi: {inlCmpiF, false, false},
	inlCmpli: {inlCmpliF, false, false}, inlCmp: {inlCmpF, false, false},
	inlCmpl: {inlCmplF, false, false}, inlAdd: {inlAddF, false, true},
	inlMullw: {inlMullwF, false, true}, inlOr: {inlOrF, true, true},
	inlXor: {inlXorF, true, true}, inlAnd: {inlAndF, true, true},
	inlRlwinm: {inlRlwinmF, true, false},
}

// forward rewrites the micro-ops of a block into forwarded forms where an operand is the
// result of the micro-op just before.
func forward(ops []uop) {
	for i := 1; i < len(ops); i++ {
		r, ok := accTarget(ops[i-1])
		u := &ops[i]
		f, fwd := fwdForms[u.op]
		switch {
		case !ok:
		case u.op == inlSubf && u.ra == r:
			u.op = inlSubfFA
		case u.op == inlSubf && u.rb == r:
			u.op = inlSubfFB
		case fwd && f.rs:
			if f.com && u.rt != r && u.rb == r {
				u.rt, u.rb = u.rb, u.rt
			}
			if u.rt == r {
				u.op = f.fwd
			}
		case fwd:
			if f.com && u.ra != r && u.rb == r {
				u.ra, u.rb = u.rb, u.ra
			}
			if u.ra == r {
				u.op = f.fwd
			}
		}
	}
}
