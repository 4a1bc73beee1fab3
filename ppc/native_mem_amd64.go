//go:build linux

package ppc

// Loads, stores and the closing branch of a translated block.

import "unsafe"

// memForm describes a byte, halfword or word load or store of the general registers, or
// a load or store of a floating-point register (fp: a double, a single, or stfiwx's word).
type memForm struct {
	size                    uint32
	load, signed, x, update bool
	fp                      fpMem
}

// fpMem is the floating-point register a memForm moves, and how.
type fpMem uint8

const (
	fpNone   fpMem = iota
	fpDouble       // lfd, stfd: the bits as they are
	fpSingle       // lfs, stfs: converted as singleToDouble and doubleToSingle do
	fpWord         // stfiwx: the low word
)

// memForms lists the translated loads and stores in every addressing form (the
// byte-reversed, multiple and string forms stay with the interpreter).
var memForms = func() map[Op]memForm {
	m := map[Op]memForm{}
	for _, base := range []struct {
		d, u, ux, x  Op // the D form, with update, indexed with update, indexed
		size         uint32
		load, signed bool
		fp           fpMem
	}{
		{opLbz, opLbzu, opLbzux, opLbzx, 1, true, false, fpNone},
		{opLhz, opLhzu, opLhzux, opLhzx, 2, true, false, fpNone},
		{opLha, opLhau, opLhaux, opLhax, 2, true, true, fpNone},
		{opLwz, opLwzu, opLwzux, opLwzx, 4, true, false, fpNone},
		{opStb, opStbu, opStbux, opStbx, 1, false, false, fpNone},
		{opSth, opSthu, opSthux, opSthx, 2, false, false, fpNone},
		{opStw, opStwu, opStwux, opStwx, 4, false, false, fpNone},
		{opLfs, opLfsu, opLfsux, opLfsx, 4, true, false, fpSingle},
		{opLfd, opLfdu, opLfdux, opLfdx, 8, true, false, fpDouble},
		{opStfs, opStfsu, opStfsux, opStfsx, 4, false, false, fpSingle},
		{opStfd, opStfdu, opStfdux, opStfdx, 8, false, false, fpDouble},
	} {
		f := memForm{size: base.size, load: base.load, signed: base.signed, fp: base.fp}
		m[base.d] = f
		f.update = true
		m[base.u] = f
		f.x = true
		m[base.ux] = f
		f.update = false
		m[base.x] = f
	}
	m[opStfiwx] = memForm{size: 4, x: true, fp: fpWord}
	return m
}()

// memAccess emits instruction i, a load or store: the effective address in esi, the
// page found through the CPU's victim page cache (the software TLB: 64 page numbers and
// page pointers per direction, direct-mapped). A miss, or an access that runs past the
// page end, leaves the block before the instruction; the interpreter runs it and refills
// the cache. The write side only ever holds private, writable pages without code, so a
// store to a shared, read-only or code page always leaves.
func (t *translator) memAccess(i int, in *inst, m memForm) {
	if !m.load { // the value first: stwu r1,-16(r1) stores the old r1
		t.storeValue(in, m)
	}
	switch {
	case m.update:
		t.getGPR(rSI, in.ra)
	default:
		t.getRA0(rSI, in.ra)
	}
	if m.x {
		t.aluState(aluAdd, rSI, gprOff(in.rb))
	} else if in.imm != 0 {
		t.aluImm(aluAdd, rSI, in.imm)
	}
	tag, pg := offRTag, offRPage
	if !m.load {
		tag, pg = offWTag, offWPage
	}
	t.mov(rDX, rSI)
	t.shiftImm(shShr, rDX, pageShift)
	t.mov(rCX, rDX)
	t.aluImm(aluAnd, rCX, victimLen-1)
	t.cmpTag(rDX, tag)
	t.exits = append(t.exits, exitJump{t.jcc(ccNE), i})
	t.mov(rBX, rSI)
	t.aluImm(aluAnd, rBX, pageMask)
	if m.size > 1 {
		t.aluImm(aluCmp, rBX, PageSize-m.size)
		t.exits = append(t.exits, exitJump{t.jcc(ccA), i})
	}
	t.loadPtr(rDX, pg)
	if m.load {
		t.loadValue(in, m)
	} else {
		switch m.size {
		case 8:
			t.bswap64(rAX)
			t.storePage64(rAX)
		case 4:
			t.bswap(rAX)
			t.storePage32(rAX)
		case 2:
			t.bswap(rAX)
			t.shiftImm(shShr, rAX, 16)
			t.storePage16(rAX)
		default:
			t.storePage8(rAX)
		}
	}
	if m.update {
		t.setGPR(in.ra, rSI)
	}
}

// loadValue loads from the page at [rdx + rbx] into RT, or FRT for the floating-point
// forms (lfs widened as the interpreter's singleToDouble does).
func (t *translator) loadValue(in *inst, m memForm) {
	switch m.size {
	case 8:
		t.loadPage64(rAX)
		t.bswap64(rAX)
		t.store64(fprOff(in.rt), rAX)
		return
	case 4:
		t.loadPage32(rAX)
		t.bswap(rAX)
		if m.fp == fpSingle {
			t.singleToDouble()
			t.store64(fprOff(in.rt), rAX)
			return
		}
	case 2:
		t.loadPage16(rAX)
		t.bswap(rAX)
		if m.signed {
			t.shiftImm(shSar, rAX, 16)
		} else {
			t.shiftImm(shShr, rAX, 16)
		}
	default:
		t.loadPage8(rAX)
	}
	t.setGPR(in.rt, rAX)
}

// storeValue loads the value a store writes into eax (rax for stfd), converted as the
// interpreter's stfs does. Clobbers ecx, edx and esi.
func (t *translator) storeValue(in *inst, m memForm) {
	switch m.fp {
	case fpNone:
		t.getGPR(rAX, in.rt)
	case fpDouble:
		t.load64(rAX, fprOff(in.rt))
	case fpWord:
		t.load32(rAX, fprOff(in.rt)) // the low word (the host is little-endian)
	case fpSingle:
		t.load64(rAX, fprOff(in.rt))
		t.doubleToSingle()
	}
}

// branch emits the block's closing branch, instruction n-1, and its returns: LR for LK,
// the CTR and CR condition, the branch counters as the interpreter keeps them.
func (t *translator) branch(n int, in *inst, op Op) {
	end := in.pc + 4
	lk := in.w&1 != 0
	t.countBlock()
	if op == opB {
		if lk {
			t.storeImm32(offLR, end)
		}
		t.incState64(offBranches)
		t.leave(n, in.imm)
		return
	}
	switch op {
	case opBclr:
		t.load32(rBX, offLR)
		t.aluImm(aluAnd, rBX, ^uint32(3))
	case opBcctr:
		t.load32(rBX, offCTR)
		t.aluImm(aluAnd, rBX, ^uint32(3))
	}
	if lk {
		t.storeImm32(offLR, end)
	}
	bo, bi := uint32(in.rt), uint32(in.ra)
	var notTaken []int
	if op != opBcctr && bo&4 == 0 {
		t.decState32(offCTR)
		if bo&2 == 0 { // branch while CTR != 0
			notTaken = append(notTaken, t.jcc(ccE))
		} else {
			notTaken = append(notTaken, t.jcc(ccNE))
		}
	}
	if bo&16 == 0 {
		t.testStateImm(offCR, 1<<(31-bi&31))
		if bo&8 != 0 { // branch if the bit is set
			notTaken = append(notTaken, t.jcc(ccE))
		} else {
			notTaken = append(notTaken, t.jcc(ccNE))
		}
	}
	t.incState64(offBranches)
	if op == opBc {
		t.leave(n, in.imm)
	} else {
		t.leaveTo(n)
	}
	if len(notTaken) == 0 {
		return
	}
	for _, p := range notTaken {
		t.patch(p)
	}
	t.incState64(offNotTaken)
	t.leave(n, end)
}

// leaveTo ends a completed block going to the pc in ebx (bclr, bcctr): straight into the
// translation of one of the (at most dynLinks) blocks of this page the dispatcher recorded in
// nc.dyn for this exit, when the pc is one of them and the budget left covers any block;
// otherwise back to the dispatcher.
func (t *translator) leaveTo(n int) {
	t.nc.dynamic = true
	var back []int
	t.mov(rAX, rBX)
	t.aluImm(aluXor, rAX, t.blk.start&^pageMask)
	t.aluImm(aluCmp, rAX, pageMask)
	back = append(back, t.jcc(ccA))
	t.aluState64Imm(aluCmp, offLeft, maxBlock)
	back = append(back, t.jcc(ccB))
	t.movImm64(rAX, uint64(uintptr(unsafe.Pointer(&t.nc.dyn))))
	t.loadInd64(rAX, rAX)
	t.test64(rAX, rAX)
	back = append(back, t.jcc(ccE))
	for k := range dynLinks {
		t.cmpInd32(rBX, rAX, uint8(unsafe.Offsetof(dynLink{}.pc)+4*uintptr(k)))
		miss := t.jcc(ccNE)
		t.loadInd64At(rAX, rAX, uint8(unsafe.Offsetof(dynLink{}.entry)+8*uintptr(k)))
		t.jmpReg(rAX)
		t.patch(miss)
	}
	for _, p := range back {
		t.patch(p)
	}
	t.movImm64(rAX, t.result(n))
	t.or64(rAX, rBX)
	t.ret()
}
