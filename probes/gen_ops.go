package probes

// crResult describes how a comparison's truth is derived from CR0 after a compare:
// optionally combine bits into EQ, then extract one bit.
type crResult struct {
	combine func(a *asm)
	bit     uint32
}

var crResults = map[Kind]crResult{
	KEq: {nil, crEQ},
	KNe: {func(a *asm) { a.crnor(crEQ, crEQ, crEQ) }, crEQ},
	KLt: {nil, crLT},
	KGt: {nil, crGT},
	KLe: {func(a *asm) { a.cror(crEQ, crLT, crEQ) }, crEQ},
	KGe: {func(a *asm) { a.cror(crEQ, crGT, crEQ) }, crEQ},
}

// boolean generates comparisons and logical operators; the value is 0 or 1.
func (g *gen) boolean(e *Exp) val {
	switch e.Kind {
	case KLAnd, KLOr:
		return g.logical(e)
	case KLNot:
		g.test(g.exp(e.Kids[0]))
		return g.crBit(e, crEQ)
	}
	return g.crBit(e, g.compareKids(e))
}

// compareKids compares the operands of a comparison node, leaves its truth in the
// returned CR0 bit and releases the operands.
func (g *gen) compareKids(e *Exp) uint32 {
	t := promote(g.typeOf(e.Kids[0]), g.typeOf(e.Kids[1]))
	c := e.Kids[1]
	a := g.convert(e, g.exp(e.Kids[0]), t)
	if t == Int && c.Kind == KConst && c.Val.T == Int && c.Val.I >= -0x8000 && c.Val.I < 0x8000 {
		g.cr = true
		g.a.cmpwi(0, a.r, int32(c.Val.I))
	} else {
		var b val
		a, b = g.second(e, a, c, t)
		g.compare(a, b)
		g.free(b)
	}
	g.free(a)
	res := crResults[e.Kind]
	if res.combine != nil {
		res.combine(&g.a)
	}
	return res.bit
}

// compare sets CR0 to the signed comparison of a and b (unordered for NaN doubles).
func (g *gen) compare(a, b val) {
	g.cr = true
	switch a.t {
	case Int:
		g.a.cmpw(0, a.r, b.r)
	case Int64:
		done := g.a.newLabel()
		g.a.cmpw(0, a.hi, b.hi)
		g.a.bc(boFalse, crEQ, done)
		g.a.cmplw(0, a.r, b.r)
		g.a.bind(done)
	case Double:
		g.fpscr = true
		g.a.fcmpu(0, a.f, b.f)
	}
}

// crBit materializes CR0 bit as 0 or 1 in a new register.
func (g *gen) crBit(n *Exp, bit uint32) val {
	v := g.alloc(n, Int)
	g.a.mfcr(v.r)
	g.a.rlwinm(v.r, v.r, bit+1, 31, 31)
	return v
}

func (g *gen) logical(e *Exp) val {
	v := g.alloc(e, Int)
	done := g.a.newLabel()
	short, other := uint32(0), uint32(1)
	if e.Kind == KLOr {
		short, other = 1, 0
	}
	g.a.li32(v.r, short)
	for _, k := range e.Kids {
		g.test(g.exp(k))
		if e.Kind == KLAnd {
			g.a.bc(boTrue, crEQ, done)
		} else {
			g.a.bc(boFalse, crEQ, done)
		}
	}
	g.a.li32(v.r, other)
	g.a.bind(done)
	return v
}

func (g *gen) unary(e *Exp, v val) val {
	switch v.t {
	case Int:
		if e.Kind == KBNot {
			g.a.logical(xoNor, v.r, v.r, v.r)
		} else {
			g.a.x31(xoNeg, v.r, v.r, 0)
		}
	case Int64:
		if e.Kind == KBNot {
			g.a.logical(xoNor, v.r, v.r, v.r)
			g.a.logical(xoNor, v.hi, v.hi, v.hi)
		} else {
			g.xer = true
			g.a.subfic(v.r, v.r, 0)
			g.a.x31(xoSubfze, v.hi, v.hi, 0)
		}
	case Double:
		g.a.fneg(v.f, v.f)
	}
	return v
}

// Three-operand integer forms of the arithmetic and bitwise kinds: logical forms put the
// destination in RA, so they are emitted through asm.logical.
var intOps = map[Kind]struct {
	xo      string
	logical bool
}{
	KAdd: {xoAdd, false}, KMul: {xoMullw, false},
	KBAnd: {xoAnd, true}, KBOr: {xoOr, true}, KBXor: {xoXor, true},
}

var fpOps = map[Kind]string{KAdd: xoFadd, KSub: xoFsub, KDiv: xoFdiv}

// arith generates + - * / % and the bitwise operators; the result reuses a's registers.
func (g *gen) arith(e *Exp) val {
	t := g.typeOf(e)
	if v, ok := g.immediate(e, t); ok {
		return v
	}
	a, b := g.second(e, g.convert(e, g.exp(e.Kids[0]), t), e.Kids[1], t)
	switch t {
	case Double:
		g.fpscr = true
		if e.Kind == KMul {
			g.a.fmul(a.f, a.f, b.f)
		} else {
			g.a.fArith(fpOps[e.Kind], a.f, a.f, b.f)
		}
	case Int:
		g.int32Op(e, a, b)
	case Int64:
		g.int64Op(e, a, b)
	}
	g.free(b)
	return a
}

func (g *gen) int32Op(e *Exp, a, b val) {
	switch e.Kind {
	case KSub:
		g.a.x31(xoSubf, a.r, b.r, a.r)
	case KDiv:
		g.div32(a.r, a.r, b.r)
	case KMod:
		q := g.allocG(e)
		g.div32(q, a.r, b.r)
		g.a.x31(xoMullw, q, q, b.r)
		g.a.x31(xoSubf, a.r, q, a.r)
		g.gfree |= 1 << q
	default:
		op := intOps[e.Kind]
		if op.logical {
			g.a.logical(op.xo, a.r, a.r, b.r)
		} else {
			g.a.x31(op.xo, a.r, a.r, b.r)
		}
	}
}

// div32 computes q = a / b with the defined results for b == 0 (0) and b == -1 (-a, so
// INT_MIN / -1 wraps), which divw leaves undefined.
func (g *gen) div32(q, a, b uint32) {
	g.cr = true
	zero, neg, done := g.a.newLabel(), g.a.newLabel(), g.a.newLabel()
	g.a.cmpwi(0, b, 0)
	g.a.bc(boTrue, crEQ, zero)
	g.a.cmpwi(0, b, -1)
	g.a.bc(boTrue, crEQ, neg)
	g.a.x31(xoDivw, q, a, b)
	g.a.b(done)
	g.a.bind(zero)
	g.a.li32(q, 0)
	g.a.b(done)
	g.a.bind(neg)
	g.a.x31(xoNeg, q, a, 0)
	g.a.bind(done)
}

func (g *gen) int64Op(e *Exp, a, b val) {
	switch e.Kind {
	case KDiv, KMod:
		g.div64(e, a, b, e.Kind == KMod)
	case KAdd:
		g.xer = true
		g.a.x31(xoAddc, a.r, a.r, b.r)
		g.a.x31(xoAdde, a.hi, a.hi, b.hi)
	case KSub:
		g.xer = true
		g.a.x31(xoSubfc, a.r, b.r, a.r)
		g.a.x31(xoSubfe, a.hi, b.hi, a.hi)
	case KMul:
		t := g.allocG(e)
		g.a.x31(xoMullw, a.hi, a.hi, b.r)
		g.a.x31(xoMullw, t, a.r, b.hi)
		g.a.x31(xoAdd, a.hi, a.hi, t)
		g.a.x31(xoMulhwu, t, a.r, b.r)
		g.a.x31(xoAdd, a.hi, a.hi, t)
		g.a.x31(xoMullw, a.r, a.r, b.r)
		g.gfree |= 1 << t
	default:
		op := intOps[e.Kind]
		g.a.logical(op.xo, a.r, a.r, b.r)
		g.a.logical(op.xo, a.hi, a.hi, b.hi)
	}
}

// shift generates << and >> (arithmetic: every integer type is signed). The count is
// taken modulo 64; for int, slw and sraw give 0 or the sign for counts 32..63.
func (g *gen) shift(e *Exp) val {
	a, b := g.second(e, g.exp(e.Kids[0]), e.Kids[1], Void)
	n := b.r // an int64 count uses its low word
	if a.t == Int {
		xo := xoSlw
		if e.Kind == KShr {
			xo = xoSraw
		}
		g.a.logical(xo, a.r, a.r, n)
		g.free(b)
		return a
	}
	g.cr, g.xer = true, true
	g.a.andiDot(n, n, 63)
	t := g.allocG(e)
	big, done := g.a.newLabel(), g.a.newLabel()
	g.a.cmpwi(0, n, 32)
	g.a.bc(boFalse, crLT, big)
	if e.Kind == KShl {
		g.shl64Small(a, n, t)
		g.a.b(done)
		g.a.bind(big)
		g.a.addi(t, n, -32)
		g.a.logical(xoSlw, a.hi, a.r, t)
		g.a.li32(a.r, 0)
	} else {
		g.shr64Small(a, n, t)
		g.a.b(done)
		g.a.bind(big)
		g.a.addi(t, n, -32)
		g.a.logical(xoSraw, a.r, a.hi, t)
		g.a.srawi(a.hi, a.hi, 31)
	}
	g.a.bind(done)
	g.gfree |= 1 << t
	g.free(b)
	return a
}

// shl64Small shifts a left by n in 0..31: a shift by 32 (n == 0) gives 0 for the carry.
func (g *gen) shl64Small(a val, n, t uint32) {
	g.a.subfic(t, n, 32)
	g.a.logical(xoSrw, t, a.r, t)
	g.a.logical(xoSlw, a.hi, a.hi, n)
	g.a.logical(xoOr, a.hi, a.hi, t)
	g.a.logical(xoSlw, a.r, a.r, n)
}

func (g *gen) shr64Small(a val, n, t uint32) {
	g.a.subfic(t, n, 32)
	g.a.logical(xoSlw, t, a.hi, t)
	g.a.logical(xoSrw, a.r, a.r, n)
	g.a.logical(xoOr, a.r, a.r, t)
	g.a.logical(xoSraw, a.hi, a.hi, n)
}

// immediate uses the D-form instructions for an int operation with a small constant
// right operand (addi, mulli, andi., ori, xori).
func (g *gen) immediate(e *Exp, t Type) (val, bool) {
	c := e.Kids[1]
	if t != Int || c.Kind != KConst || c.Val.T != Int {
		return val{}, false
	}
	k, imm := e.Kind, c.Val.I
	if k == KSub {
		k, imm = KAdd, -imm
	}
	signed := imm >= -0x8000 && imm < 0x8000
	unsigned := imm >= 0 && imm < 0x10000
	ops := map[Kind]struct {
		fits bool
		emit func(r uint32)
	}{
		KAdd:  {signed, func(r uint32) { g.a.addi(r, r, int32(imm)) }},
		KMul:  {signed, func(r uint32) { g.a.mulli(r, r, int32(imm)) }},
		KBAnd: {unsigned, func(r uint32) { g.cr = true; g.a.andiDot(r, r, uint16(imm)) }},
		KBOr:  {unsigned, func(r uint32) { g.a.ori(r, r, uint16(imm)) }},
		KBXor: {unsigned, func(r uint32) { g.a.xori(r, r, uint16(imm)) }},
	}
	op, ok := ops[k]
	if !ok || !op.fits {
		return val{}, false
	}
	a := g.exp(e.Kids[0])
	op.emit(a.r)
	return a, true
}

// spillBelow is the number of free GPRs under which a binary operation parks its left
// operand in the frame while the right one is computed (unless the right one is a leaf):
// enough for an int64 division's temporaries.
const spillBelow = 7

// second evaluates the right operand of e (converted to t unless t is Void) while a, the
// left one, waits: in its registers when they are plentiful, else in frame scratch.
func (g *gen) second(e *Exp, a val, right *Exp, t Type) (val, val) {
	conv := func(v val) val {
		if t == Void {
			return v
		}
		return g.convert(e, v, t)
	}
	if len(right.Kids) == 0 || popcount(g.gfree) >= spillBelow {
		return a, conv(g.exp(right))
	}
	mark := g.sp
	off := g.scratch(8)
	g.storeVal(a, off)
	g.free(a)
	b := conv(g.exp(right))
	a = g.alloc(e, a.t)
	g.loadVal(a, off)
	g.sp = mark
	return a, b
}

func popcount(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
