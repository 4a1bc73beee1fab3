package probes

import "math"

// exp generates e and returns where its value is (val{} for void).
func (g *gen) exp(e *Exp) val {
	switch e.Kind {
	case KConst:
		return g.constant(e, e.Val)
	case KVar:
		return g.load(e, e.Var)
	case KArg, KRetval:
		return g.argReg(e)
	case KReg:
		return g.reg(e)
	case KSkip, KJump:
		g.leave(e)
		return val{}
	case KRank:
		return g.rank(e)
	case KSum:
		return g.sum(e)
	case KSumIndex:
		return g.sumIndex(e)
	case KCommInfo:
		return g.commInfo(e)
	case KTimebase:
		return g.timebase(e)
	case KCounter:
		return g.counter(e)
	case KCall:
		return g.call(e)
	case KSend:
		g.send(e)
		return val{}
	case KAssign:
		return g.assign(e)
	case KSeq:
		var v val
		for _, k := range e.Kids {
			g.free(v)
			v = g.exp(k)
		}
		return v
	case KWhen:
		return g.when(e)
	case KIndex, KSetIndex, KPush, KPop, KDepth, KPoint, KFunc, KLoad, KStore:
		return g.data(e)
	case KLAnd, KLOr, KLNot, KEq, KNe, KLt, KLe, KGt, KGe:
		return g.boolean(e)
	case KNeg, KBNot:
		return g.unary(e, g.exp(e.Kids[0]))
	case KShl, KShr:
		return g.shift(e)
	}
	return g.arith(e)
}

func (g *gen) constant(n *Exp, c Value) val {
	v := g.alloc(n, c.T)
	switch c.T {
	case Int:
		g.a.li32(v.r, uint32(c.I))
	case Int64:
		g.a.li32(v.r, uint32(c.I))
		g.a.li32(v.hi, uint32(c.I>>32))
	case Double:
		g.doubleBits(v.f, math.Float64bits(c.F))
	}
	return v
}

// doubleBits loads a 64-bit pattern into FPR f through frame scratch: the snippet needs no
// literal pool, so it stays position-independent.
func (g *gen) doubleBits(f uint32, bits uint64) {
	mark := g.sp
	off := g.scratch(8)
	g.useR0()
	g.a.li32(0, uint32(bits>>32))
	g.a.stw(0, off, 1)
	if uint32(bits) != uint32(bits>>32) {
		g.a.li32(0, uint32(bits))
	}
	g.a.stw(0, off+4, 1)
	g.a.lfd(f, off, 1)
	g.sp = mark
}

// load reads a probe variable; the address is absolute and the same on every node. The
// base register cannot be r0 (it reads as 0 in an address), so it is allocated.
func (g *gen) load(n *Exp, x *Var) val {
	v := g.alloc(n, x.T)
	base := v.r
	if x.T == Double {
		base = g.allocG(n)
		defer g.freeG(base)
	}
	g.a.addis(base, 0, ha(x.Addr))
	switch x.T {
	case Int:
		g.a.lwz(v.r, lo(x.Addr), base)
	case Int64:
		g.a.lwz(v.hi, lo(x.Addr), base)
		g.a.lwz(v.r, lo(x.Addr)+4, base)
	case Double:
		g.a.lfd(v.f, lo(x.Addr), base)
	}
	return v
}

func (g *gen) store(n *Exp, x *Var, v val) {
	base := g.allocG(n)
	defer g.freeG(base)
	g.a.addis(base, 0, ha(x.Addr))
	switch x.T {
	case Int:
		g.a.stw(v.r, lo(x.Addr), base)
	case Int64:
		g.a.stw(v.hi, lo(x.Addr), base)
		g.a.stw(v.r, lo(x.Addr)+4, base)
	case Double:
		g.a.stfd(v.f, lo(x.Addr), base)
	}
}

func (g *gen) assign(e *Exp) val {
	v := g.convert(e, g.exp(e.Kids[0]), e.Var.T)
	g.store(e, e.Var, v)
	return v
}

// argReg reads an argument or return register from the trampoline's save slots.
func (g *gen) argReg(e *Exp) val {
	v := g.alloc(e, e.T)
	n := uint32(3 + e.Idx)
	if e.Kind == KRetval {
		n = 3
	}
	switch e.T {
	case Int:
		g.readG |= 1 << n
		g.a.lwz(v.r, gprSlot(n), 1)
	case Int64:
		g.readG |= 3 << n
		g.a.lwz(v.hi, gprSlot(n), 1)
		g.a.lwz(v.r, gprSlot(n+1), 1)
	case Double:
		f := uint32(1 + e.Idx)
		if e.Kind == KRetval {
			f = 1
		}
		g.readF |= 1 << f
		g.a.lfd(v.f, fprSlot(f), 1)
	}
	return v
}

// convert widens v to type t, releasing v's registers when new ones are needed.
func (g *gen) convert(n *Exp, v val, t Type) val {
	if v.t == t || t == Void {
		return v
	}
	switch {
	case v.t == Int && t == Int64:
		hi := g.allocG(n)
		g.a.srawi(hi, v.r, 31)
		return val{t: Int64, r: v.r, hi: hi}
	case v.t == Int && t == Double:
		d := g.alloc(n, Double)
		g.intToDouble(n, d.f, v.r, true)
		g.free(v)
		return d
	case v.t == Int64 && t == Double:
		d := g.alloc(n, Double)
		g.int64ToDouble(n, d.f, v)
		g.free(v)
		return d
	}
	g.fail(n, "cannot convert %s to %s", v.t, t)
	return val{}
}

// intToDouble converts the 32-bit integer in r (signed or unsigned) into f with the
// 2^52 magic number: the 440 has no fcfid.
func (g *gen) intToDouble(n *Exp, f, r uint32, signed bool) {
	mark := g.sp
	off := g.scratch(8)
	g.useR0()
	g.fpscr = true
	magic := uint64(0x4330000000000000)
	if signed {
		magic |= 0x80000000
		g.a.xoris(0, r, 0x8000)
		g.a.stw(0, off+4, 1)
	} else {
		g.a.stw(r, off+4, 1)
	}
	g.a.addis(0, 0, 0x4330)
	g.a.stw(0, off, 1)
	g.a.lfd(f, off, 1)
	m := g.allocF(n)
	g.doubleBits(m, magic)
	g.a.fArith(xoFsub, f, f, m)
	g.ffree |= 1 << m
	g.sp = mark
}

// int64ToDouble computes double(hi) * 2^32 + double(uint32(lo)): the product is exact, so
// the sum rounds once, as a direct conversion does.
func (g *gen) int64ToDouble(n *Exp, f uint32, v val) {
	g.intToDouble(n, f, v.hi, true)
	m := g.allocF(n)
	g.doubleBits(m, 0x41f0000000000000)
	g.a.fmul(f, f, m)
	g.intToDouble(n, m, v.r, false)
	g.a.fArith(xoFadd, f, f, m)
	g.ffree |= 1 << m
}

// test sets CR0[EQ] when v is zero (false) and releases v.
func (g *gen) test(v val) {
	g.cr = true
	switch v.t {
	case Int:
		g.a.cmpwi(0, v.r, 0)
	case Int64:
		g.useR0()
		g.a.orDot(0, v.hi, v.r)
	case Double:
		g.doubleBits(0, 0)
		g.clobF |= 1
		g.fpscr = true
		g.a.fcmpu(0, v.f, 0)
	}
	g.free(v)
}

// branchIfFalse jumps to l when e evaluates to zero; a comparison branches on its CR bit
// without materializing 0 or 1.
func (g *gen) branchIfFalse(e *Exp, l label) {
	if _, ok := crResults[e.Kind]; ok {
		g.a.bc(boFalse, g.compareKids(e), l)
		return
	}
	g.test(g.exp(e))
	g.a.bc(boTrue, crEQ, l)
}

func (g *gen) when(e *Exp) val {
	t := g.typeOf(e)
	dst := g.alloc(e, t)
	skip, done := g.a.newLabel(), g.a.newLabel()
	g.branchIfFalse(e.Kids[0], skip)
	g.branchValue(e.Kids[1], dst, t)
	if len(e.Kids) == 3 {
		g.a.b(done)
	}
	g.a.bind(skip)
	if len(e.Kids) == 3 {
		g.branchValue(e.Kids[2], dst, t)
	}
	g.a.bind(done)
	return dst
}

// branchValue evaluates one arm of a when into dst.
func (g *gen) branchValue(e *Exp, dst val, t Type) {
	v := g.exp(e)
	if t == Void {
		g.free(v)
		return
	}
	v = g.convert(e, v, t)
	g.move(dst, v)
	g.free(v)
}
