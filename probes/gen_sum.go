package probes

import "github.com/dpclsh/dpclsh/bgl/abi"

// sum generates a KSum as a loop whose index, bound and accumulator live in frame
// scratch, so the body may use every register, call functions and make hypercalls:
//
//	bound = clamp(n); i = 0; acc = 0
//	loop: if !(i < bound) goto done; acc += body; i++; goto loop
//	done: result = acc
//
// The body is generated once; registers allocated before the sum stay allocated in it.
func (g *gen) sum(e *Exp) val {
	t := g.typeOf(e)
	mark := g.sp
	slot := g.scratch(16) // index at +0, bound at +4, accumulator at +8
	if g.sumSlots == nil {
		g.sumSlots = map[*Exp]int32{}
	}
	g.sumSlots[e.Kids[2]] = slot
	defer delete(g.sumSlots, e.Kids[2])

	n := g.exp(e.Kids[0])
	g.clampCount(e, n.r)
	g.a.stw(n.r, slot+4, 1)
	g.a.li32(n.r, 0)
	g.a.stw(n.r, slot, 1)
	g.a.stw(n.r, slot+8, 1) // all-zero bits: int64 0 and double +0.0 alike
	g.a.stw(n.r, slot+12, 1)
	g.free(n)

	loop, done := g.a.newLabel(), g.a.newLabel()
	g.a.bind(loop)
	i, bound := g.allocG(e), g.allocG(e)
	g.cr = true
	g.a.lwz(i, slot, 1)
	g.a.lwz(bound, slot+4, 1)
	g.a.cmpw(0, i, bound)
	g.freeG(i)
	g.freeG(bound)
	g.a.bc(boFalse, crLT, done)

	v := g.convert(e, g.exp(e.Kids[1]), t)
	acc := g.alloc(e, t)
	if t == Double {
		g.fpscr = true
		g.a.lfd(acc.f, slot+8, 1)
		g.a.fArith(xoFadd, acc.f, acc.f, v.f)
		g.a.stfd(acc.f, slot+8, 1)
	} else {
		g.xer = true
		g.a.lwz(acc.hi, slot+8, 1)
		g.a.lwz(acc.r, slot+12, 1)
		g.a.x31(xoAddc, acc.r, acc.r, v.r)
		g.a.x31(xoAdde, acc.hi, acc.hi, v.hi)
		g.a.stw(acc.hi, slot+8, 1)
		g.a.stw(acc.r, slot+12, 1)
	}
	g.free(acc)
	g.free(v)
	i = g.allocG(e)
	g.a.lwz(i, slot, 1)
	g.a.addi(i, i, 1)
	g.a.stw(i, slot, 1)
	g.freeG(i)
	g.a.b(loop)

	g.a.bind(done)
	res := g.alloc(e, t)
	if t == Double {
		g.a.lfd(res.f, slot+8, 1)
	} else {
		g.a.lwz(res.hi, slot+8, 1)
		g.a.lwz(res.r, slot+12, 1)
	}
	g.sp = mark
	return res
}

// clampCount limits a sum's count in r to 0..MaxSum: one unsigned compare tells both a
// negative count and one above MaxSum; either counts a fault, and a negative count becomes
// 0, a large one MaxSum.
func (g *gen) clampCount(e *Exp, r uint32) {
	g.useR0()
	g.cr = true
	g.bounded = true
	ok := g.a.newLabel()
	g.a.li32(0, MaxSum)
	g.a.cmplw(0, r, 0)
	g.a.bc(boFalse, crGT, ok)
	if g.t.FaultCounter != 0 {
		tmp := g.allocG(e)
		g.bumpCounter(tmp, g.t.FaultCounter)
		g.freeG(tmp)
	}
	g.a.cmpwi(0, r, 0)
	g.a.li32(r, MaxSum)
	g.a.bc(boFalse, crLT, ok)
	g.a.li32(r, 0)
	g.a.bind(ok)
}

// sumIndex reads the index of the enclosing sum from its frame slot.
func (g *gen) sumIndex(e *Exp) val {
	slot, ok := g.sumSlots[e]
	if !ok {
		g.fail(e, "the index %s is used outside the body of its sum", e.Name)
	}
	v := g.alloc(e, Int)
	g.a.lwz(v.r, slot, 1)
	return v
}

// commInfo asks the MPI engine for a communicator's size or the rank in it (abi.HcCommInfo).
func (g *gen) commInfo(e *Exp) val {
	mark := g.sp
	c := g.exp(e.Kids[0])
	restore := g.spill()
	g.hypercall(abi.HcCommInfo)
	g.a.mr(3, c.r)
	g.a.li32(4, uint32(e.Idx))
	g.a.sc()
	g.free(c)
	v := g.result(e, Int, restore)
	g.sp = mark
	return v
}
