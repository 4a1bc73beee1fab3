package probes

// Code generation of the data nodes: arrays, stacks, program memory, point identity.

// IdentFix is a placeholder for the point's identity in a snippet: an "addis r,0,-1;
// ori r,r,0xffff" pair at word At that Code.ForPoint rewrites to load the point's index
// (KPoint) or its function's (KFunc). Unplaced, the pair loads -1.
type IdentFix struct {
	At   int
	Kind Kind
}

// FaultFix is a load or store of program memory that may fault: the words At (one, or two
// for a 64-bit access) and where the node should resume when one of them faults (Fixup,
// out-of-line code that zeroes the result, counts the fault and jumps back). Word indices
// are relative to the snippet's first word.
type FaultFix struct {
	At    []int
	Fixup int
}

// pendingFix is a FaultFix while the snippet is generated.
type pendingFix struct {
	at     []int
	fix    label
	resume label
	dst    val    // zeroed on a fault (loads)
	tmp    uint32 // a GPR free to use in the fixup (the access's address register)
	sp     int32  // frame scratch in use at the access (the fixup must not touch it)
}

func (g *gen) data(e *Exp) val {
	switch e.Kind {
	case KPoint, KFunc:
		v := g.alloc(e, Int)
		g.idents = append(g.idents, IdentFix{At: g.a.pc(), Kind: e.Kind})
		g.a.addis(v.r, 0, -1)
		g.a.ori(v.r, v.r, 0xffff)
		return v
	case KIndex:
		return g.index(e)
	case KSetIndex:
		return g.setIndex(e)
	case KPush:
		g.push(e)
		return val{}
	case KPop:
		return g.pop(e)
	case KDepth:
		v := g.alloc(e, Int)
		g.a.li32(v.r, e.Stk.TopAddr())
		g.a.lwz(v.r, 0, v.r)
		return v
	case KLoad:
		return g.loadMem(e)
	}
	return g.storeMem(e)
}

// boundsCheck branches to over unless 0 <= r < n (one unsigned compare).
func (g *gen) boundsCheck(r uint32, n int, over label) {
	g.useR0()
	g.cr = true
	g.a.li32(0, uint32(n))
	g.a.cmplw(0, r, 0)
	g.a.bc(boFalse, crLT, over)
}

// scale multiplies an index by an element size (4 or 8).
func (g *gen) scale(r, size uint32) {
	sh := uint32(2)
	if size == 8 {
		sh = 3
	}
	g.a.rlwinm(r, r, sh, 0, 31-sh)
}

// bumpCounter adds one to the int at addr, using tmp as the base and r0 as the value
// (addic, unlike addi, reads r0 as a register).
func (g *gen) bumpCounter(tmp, addr uint32) {
	g.useR0()
	g.xer = true
	g.a.li32(tmp, addr)
	g.a.lwz(0, 0, tmp)
	g.a.ins("addic", 0, 0, 1)
	g.a.stw(0, 0, tmp)
}

func (g *gen) zeroVal(v val) {
	switch v.t {
	case Int:
		g.a.li32(v.r, 0)
	case Int64:
		g.a.li32(v.r, 0)
		g.a.li32(v.hi, 0)
	case Double:
		g.doubleBits(v.f, 0)
	}
}

// loadElem and storeElem access a probe slot of v's type at d(base).
func (g *gen) loadElem(v val, d int32, base uint32) {
	switch v.t {
	case Int:
		g.a.lwz(v.r, d, base)
	case Int64:
		g.a.lwz(v.hi, d, base)
		g.a.lwz(v.r, d+4, base)
	case Double:
		g.a.lfd(v.f, d, base)
	}
}

func (g *gen) storeElem(v val, d int32, base uint32) {
	switch v.t {
	case Int:
		g.a.stw(v.r, d, base)
	case Int64:
		g.a.stw(v.hi, d, base)
		g.a.stw(v.r, d+4, base)
	case Double:
		g.a.stfd(v.f, d, base)
	}
}

func (g *gen) index(e *Exp) val {
	a := e.Arr
	i := g.exp(e.Kids[0])
	v := g.alloc(e, a.T)
	over, done := g.a.newLabel(), g.a.newLabel()
	g.boundsCheck(i.r, a.N, over)
	g.scale(i.r, a.T.size())
	g.a.addis(i.r, i.r, ha(a.Addr))
	g.loadElem(v, lo(a.Addr), i.r)
	g.a.b(done)
	g.a.bind(over)
	g.bumpCounter(i.r, a.Over)
	g.zeroVal(v)
	g.a.bind(done)
	g.free(i)
	return v
}

func (g *gen) setIndex(e *Exp) val {
	a := e.Arr
	i, x := g.second(e, g.exp(e.Kids[0]), e.Kids[1], a.T)
	over, done := g.a.newLabel(), g.a.newLabel()
	g.boundsCheck(i.r, a.N, over)
	g.scale(i.r, a.T.size())
	g.a.addis(i.r, i.r, ha(a.Addr))
	g.storeElem(x, lo(a.Addr), i.r)
	g.a.b(done)
	g.a.bind(over)
	g.bumpCounter(i.r, a.Over)
	g.a.bind(done)
	g.free(i)
	return x
}

func (g *gen) push(e *Exp) {
	s := e.Stk
	x := g.convert(e, g.exp(e.Kids[0]), s.T)
	base, top := g.allocG(e), g.allocG(e)
	over, done := g.a.newLabel(), g.a.newLabel()
	g.a.li32(base, s.Addr)
	g.a.lwz(top, stackTop, base)
	g.boundsCheck(top, s.Depth, over)
	g.a.addi(top, top, 1)
	g.a.stw(top, stackTop, base)
	g.a.addi(top, top, -1)
	g.scale(top, s.T.size())
	g.a.x31(xoAdd, top, top, base)
	g.storeElem(x, stackElems, top)
	g.a.b(done)
	g.a.bind(over)
	g.a.lwz(top, stackOver, base)
	g.a.addi(top, top, 1)
	g.a.stw(top, stackOver, base)
	g.a.bind(done)
	g.free(x)
	g.freeG(base)
	g.freeG(top)
}

// pop checks depth-1 < Depth unsigned, so an empty stack (or a depth word a store broke)
// never reads outside the stack.
func (g *gen) pop(e *Exp) val {
	s := e.Stk
	v := g.alloc(e, s.T)
	base, top := g.allocG(e), g.allocG(e)
	under, done := g.a.newLabel(), g.a.newLabel()
	g.a.li32(base, s.Addr)
	g.a.lwz(top, stackTop, base)
	g.a.addi(top, top, -1)
	g.boundsCheck(top, s.Depth, under)
	g.a.stw(top, stackTop, base)
	g.scale(top, s.T.size())
	g.a.x31(xoAdd, top, top, base)
	g.loadElem(v, stackElems, top)
	g.a.b(done)
	g.a.bind(under)
	g.a.lwz(top, stackUnder, base)
	g.a.addi(top, top, 1)
	g.a.stw(top, stackUnder, base)
	g.zeroVal(v)
	g.a.bind(done)
	g.freeG(base)
	g.freeG(top)
	return v
}

// addOffset adds a constant byte offset to the address in r.
func (g *gen) addOffset(r uint32, off int32) {
	if off == 0 {
		return
	}
	if h := ha(uint32(off)); h != 0 {
		g.a.addis(r, r, h)
	}
	if l := lo(uint32(off)); l != 0 {
		g.a.addi(r, r, l)
	}
}

// guarded records the memory accesses emitted by emit as faulting into a fixup.
func (g *gen) guarded(dst val, tmp uint32, emit func()) {
	start := g.a.pc()
	emit()
	f := pendingFix{fix: g.a.newLabel(), resume: g.a.newLabel(), dst: dst, tmp: tmp, sp: g.sp}
	for i := start; i < g.a.pc(); i++ {
		f.at = append(f.at, i)
	}
	g.a.bind(f.resume)
	g.fixes = append(g.fixes, f)
}

func (g *gen) loadMem(e *Exp) val {
	addr := g.exp(e.Kids[0])
	g.addOffset(addr.r, int32(e.Idx))
	v := g.alloc(e, e.Mem.ValueType())
	g.guarded(v, addr.r, func() {
		switch e.Mem {
		case MemI8, MemU8:
			g.a.ins("lbz", r(v.r), 0, r(addr.r))
		case MemI16:
			g.a.ins("lha", r(v.r), 0, r(addr.r))
		case MemU16:
			g.a.ins("lhz", r(v.r), 0, r(addr.r))
		case MemI32, MemPtr, MemU32:
			g.a.lwz(v.r, 0, addr.r)
		case MemI64, MemU64:
			g.a.lwz(v.hi, 0, addr.r)
			g.a.lwz(v.r, 4, addr.r)
		case MemF32:
			g.a.ins("lfs", r(v.f), 0, r(addr.r))
		case MemF64:
			g.a.lfd(v.f, 0, addr.r)
		}
	})
	switch e.Mem {
	case MemI8:
		g.a.ins("extsb", r(v.r), r(v.r))
	case MemU32:
		g.a.li32(v.hi, 0)
	}
	g.free(addr)
	return v
}

// narrow makes x what memory of type m reads back (see Narrow), in place.
func (g *gen) narrow(x val, m MemType) {
	switch m {
	case MemI8:
		g.a.ins("extsb", r(x.r), r(x.r))
	case MemU8:
		g.a.rlwinm(x.r, x.r, 0, 24, 31)
	case MemI16:
		g.a.ins("extsh", r(x.r), r(x.r))
	case MemU16:
		g.a.rlwinm(x.r, x.r, 0, 16, 31)
	case MemU32:
		g.a.li32(x.hi, 0)
	case MemF32:
		g.fpscr = true
		g.a.ins("frsp", r(x.f), r(x.f))
	}
}

func (g *gen) storeMem(e *Exp) val {
	addr, x := g.second(e, g.exp(e.Kids[0]), e.Kids[1], e.Mem.ValueType())
	g.addOffset(addr.r, int32(e.Idx))
	g.narrow(x, e.Mem)
	g.guarded(val{}, addr.r, func() {
		switch e.Mem {
		case MemI8, MemU8:
			g.a.ins("stb", r(x.r), 0, r(addr.r))
		case MemI16, MemU16:
			g.a.ins("sth", r(x.r), 0, r(addr.r))
		case MemI32, MemPtr, MemU32:
			g.a.stw(x.r, 0, addr.r)
		case MemI64, MemU64:
			g.a.stw(x.hi, 0, addr.r)
			g.a.stw(x.r, 4, addr.r)
		case MemF32:
			g.a.ins("stfs", r(x.f), 0, r(addr.r))
		case MemF64:
			g.a.stfd(x.f, 0, addr.r)
		}
	})
	g.free(addr)
	return x
}

// emitFixups appends the out-of-line fault fixups after the snippet's last word (behind a
// branch over them) and returns them as FaultFixes.
func (g *gen) emitFixups() []FaultFix {
	if len(g.fixes) == 0 {
		return nil
	}
	end := g.a.newLabel()
	g.a.b(end)
	out := make([]FaultFix, len(g.fixes))
	for i, f := range g.fixes {
		out[i] = FaultFix{At: f.at, Fixup: g.a.pc()}
		g.a.bind(f.fix)
		if g.t.FaultCounter != 0 {
			g.bumpCounter(f.tmp, g.t.FaultCounter)
		}
		if f.dst.t != Void {
			mark := g.sp
			g.sp = f.sp
			g.zeroVal(f.dst)
			g.sp = mark
		}
		g.a.b(f.resume)
	}
	g.a.bind(end)
	return out
}

// ForPoint returns the snippet as placed at a point: point() loads the point's index in
// the list it was installed on and func() its function's index. The size is unchanged.
func (c *Code) ForPoint(point, fn int32) *Code {
	if len(c.Idents) == 0 {
		return c
	}
	cp := *c
	cp.Words = append([]uint32(nil), c.Words...)
	for _, f := range c.Idents {
		v := uint32(point)
		if f.Kind == KFunc {
			v = uint32(fn)
		}
		rt := int64(c.Words[f.At] >> 21 & 31)
		cp.Words[f.At] = build("addis", rt, 0, int64(int16(v>>16))).Word
		cp.Words[f.At+1] = build("ori", rt, rt, int64(v&0xffff)).Word
	}
	return &cp
}

// sendArray copies every element of an array into send records from frame offset off on,
// in a loop (an array may hold up to MaxSendValues elements).
func (g *gen) sendArray(k *Exp, off int32) {
	a := k.Arr
	src, dst, n := g.allocG(k), g.allocG(k), g.allocG(k)
	g.useR0()
	g.cr = true
	g.a.li32(src, a.Addr)
	g.a.addi(dst, 1, off)
	g.a.li32(n, uint32(a.N))
	loop := g.a.newLabel()
	g.a.bind(loop)
	g.a.li32(0, sendKinds[a.T])
	g.a.stw(0, 0, dst)
	if a.T == Int {
		g.a.lwz(0, 0, src)
		g.a.stw(0, 12, dst)
		g.a.srawi(0, 0, 31)
		g.a.stw(0, 8, dst)
	} else {
		g.a.lwz(0, 0, src)
		g.a.stw(0, 8, dst)
		g.a.lwz(0, 4, src)
		g.a.stw(0, 12, dst)
	}
	g.a.addi(src, src, int32(a.T.size()))
	g.a.addi(dst, dst, SendRecordSize)
	g.a.addi(n, n, -1)
	g.a.cmpwi(0, n, 0)
	g.a.bc(boFalse, crEQ, loop)
	g.freeG(src)
	g.freeG(dst)
	g.freeG(n)
}
