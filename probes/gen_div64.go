package probes

// div64 replaces a with a / b (or a % b when rem) for int64 operands, by restoring
// shift-and-subtract division of the magnitudes (the 440 has no 64-bit divide), with
// the same defined results as the 32-bit case: x / 0 = 0, x % 0 = x, and INT64_MIN / -1
// wraps to INT64_MIN.
func (g *gen) div64(e *Exp, a, b val, rem bool) {
	g.xer, g.cr, g.ctr = true, true, true
	g.useR0()
	mark := g.sp
	signs := g.scratch(8) // dividend's high word, then the quotient's sign word
	zero, done := g.a.newLabel(), g.a.newLabel()
	// Park before the first branch: every path must meet unborrow's reloads.
	unborrow := g.borrow(4, 1<<a.r|1<<a.hi|1<<b.r|1<<b.hi)
	g.a.orDot(0, b.hi, b.r)
	g.a.bc(boTrue, crEQ, zero)
	g.a.stw(a.hi, signs, 1)
	g.a.logical(xoXor, 0, a.hi, b.hi)
	g.a.stw(0, signs+4, 1)
	g.abs64(a)
	g.abs64(b)
	rh, rl, t1, t2 := g.allocG(e), g.allocG(e), g.allocG(e), g.allocG(e)
	g.divLoop(a, b, val{t: Int64, hi: rh, r: rl}, t1, t2)
	sign := signs + 4
	if rem {
		g.move(a, val{t: Int64, hi: rh, r: rl})
		sign = signs
	}
	g.a.lwz(0, sign, 1)
	g.a.cmpwi(0, 0, 0)
	g.a.bc(boFalse, crLT, done)
	g.neg64(a)
	g.a.b(done)
	g.a.bind(zero)
	if !rem {
		g.a.li32(a.r, 0)
		g.a.li32(a.hi, 0)
	}
	g.a.bind(done)
	for _, r := range []uint32{rh, rl, t1, t2} {
		g.freeG(r)
	}
	unborrow()
	g.sp = mark
}

// borrow frees at least n GPRs by parking live values (other than those in keep) in the
// frame; the returned function brings them back into the same registers.
func (g *gen) borrow(n int, keep uint32) func() {
	pool := poolMask(firstGPR, lastGPR)
	var parked []spillSlot
	for r := uint32(firstGPR); r <= lastGPR && popcount(g.gfree&pool) < n; r++ {
		if g.gfree&(1<<r) == 0 && keep&(1<<r) == 0 {
			off := g.scratch(4)
			g.a.stw(r, off, 1)
			g.freeG(r)
			parked = append(parked, spillSlot{r: r, off: off})
		}
	}
	return func() {
		for _, p := range parked {
			g.a.lwz(p.r, p.off, 1)
			g.gfree &^= 1 << p.r
		}
	}
}

// divLoop divides the unsigned 64-bit n (in place, becoming the quotient) by d, leaving
// the remainder in r: 64 rounds of shifting r:n left and subtracting d when r >= d.
func (g *gen) divLoop(n, d, r val, t1, t2 uint32) {
	g.a.li32(r.hi, 0)
	g.a.li32(r.r, 0)
	g.a.li32(0, 64)
	g.a.mtspr(sprCTR, 0)
	loop, skip := g.a.newLabel(), g.a.newLabel()
	g.a.bind(loop)
	g.a.x31(xoAddc, n.r, n.r, n.r)
	g.a.x31(xoAdde, n.hi, n.hi, n.hi)
	g.a.x31(xoAdde, r.r, r.r, r.r)
	g.a.x31(xoAdde, r.hi, r.hi, r.hi)
	g.a.x31(xoSubfc, t1, d.r, r.r)   // t1 = r.lo - d.lo
	g.a.x31(xoSubfe, t2, d.hi, r.hi) // t2 = r.hi - d.hi - borrow; CA = (r >= d)
	g.a.li32(0, 0)
	g.a.x31(xoAdde, 0, 0, 0) // r0 = CA
	g.a.cmpwi(0, 0, 0)
	g.a.bc(boTrue, crEQ, skip)
	g.a.mr(r.r, t1)
	g.a.mr(r.hi, t2)
	g.a.ori(n.r, n.r, 1)
	g.a.bind(skip)
	g.a.bc(16, 0, loop) // bdnz
}

// abs64 makes the int64 in v non-negative (INT64_MIN stays, read as unsigned 2^63).
func (g *gen) abs64(v val) {
	pos := g.a.newLabel()
	g.a.cmpwi(0, v.hi, 0)
	g.a.bc(boFalse, crLT, pos)
	g.neg64(v)
	g.a.bind(pos)
}

func (g *gen) neg64(v val) {
	g.a.subfic(v.r, v.r, 0)
	g.a.x31(xoSubfze, v.hi, v.hi, 0)
}
