package probes

// Code generation of register reads and the call-stack walk.

// reg reads a register as the program had it: r0 and r3..r12 from the trampoline's save
// slots (a snippet may have overwritten them), r1 from the frame's back chain, LR from
// FrameLR (Code.LR makes the trampoline save it), and r2, r13..r31 directly, since neither
// snippets nor the trampoline write them and a called function preserves them.
func (g *gen) reg(e *Exp) val {
	v := g.alloc(e, Int)
	switch n := uint32(e.Idx); {
	case n == 1:
		g.a.lwz(v.r, FrameBackChain, 1)
	case n == RegLR:
		g.lr = true
		g.a.lwz(v.r, FrameLR, 1)
	case n == 0 || (n >= firstGPR && n <= lastGPR):
		g.readG |= 1 << n
		g.a.lwz(v.r, gprSlot(n), 1)
	default:
		g.a.mr(v.r, n)
	}
	return v
}

// sendUstack writes k.Idx int records from frame offset off on: LR, then the saved LR of
// each frame of the back chain. Each link is checked before it is followed: a null or
// non-increasing one ends the walk, and a load that faults yields 0 (its fixup), which
// ends it too; the rest of the records are 0.
func (g *gen) sendUstack(k *Exp, off int32) {
	dst, n, frame, ra, next := g.allocG(k), g.allocG(k), g.allocG(k), g.allocG(k), g.allocG(k)
	tmp := g.allocG(k)
	g.useR0()
	g.cr = true
	g.lr = true
	g.a.addi(dst, 1, off)
	g.a.li32(n, uint32(k.Idx))
	g.a.lwz(frame, FrameBackChain, 1)
	g.a.lwz(ra, FrameLR, 1)
	loop, done := g.a.newLabel(), g.a.newLabel()
	g.a.bind(loop)
	g.a.li32(0, SendInt)
	g.a.stw(0, 0, dst)
	g.a.srawi(0, ra, 31)
	g.a.stw(0, 8, dst)
	g.a.stw(ra, 12, dst)
	g.a.addi(dst, dst, SendRecordSize)
	g.a.addi(n, n, -1)
	g.a.cmpwi(0, n, 0)
	g.a.bc(boTrue, crEQ, done)
	g.a.cmpwi(0, ra, 0)
	g.a.bc(boTrue, crEQ, loop) // the walk ended: 0 from here on
	g.guarded(val{t: Int, r: next}, tmp, func() { g.a.lwz(next, 0, frame) })
	g.a.li32(ra, 0)
	g.a.cmplw(0, next, frame)
	g.a.bc(boFalse, crGT, loop)
	g.guarded(val{t: Int, r: ra}, tmp, func() { g.a.lwz(ra, 4, next) })
	g.a.mr(frame, next)
	g.a.b(loop)
	g.a.bind(done)
	for _, r := range []uint32{dst, n, frame, ra, next, tmp} {
		g.freeG(r)
	}
}
