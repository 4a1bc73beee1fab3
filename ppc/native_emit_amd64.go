//go:build linux

package ppc

import "unsafe"

// The translator: one predecoded block to amd64 code, instruction by instruction, with
// the guest registers in the CPU struct at [rdi + offset]. Every guest instruction loads
// its operands from the CPU, computes in eax/ebx/ecx/edx/esi and stores its result back:
// no register allocation, so an exit anywhere leaves the CPU exactly as the interpreter
// would. The code returns in rax the index of the first instruction it did not run (high
// 32 bits) and the guest PC to continue at (low 32 bits).

// Offsets of the guest state in CPU.
var (
	offGPR      = uint32(unsafe.Offsetof(CPU{}.GPR))
	offCR       = uint32(unsafe.Offsetof(CPU{}.CR))
	offXER      = uint32(unsafe.Offsetof(CPU{}.XER))
	offLR       = uint32(unsafe.Offsetof(CPU{}.LR))
	offCTR      = uint32(unsafe.Offsetof(CPU{}.CTR))
	offBranches = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.Branches))
	offNotTaken = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.BranchesNotTaken))
	offInsts    = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.Instructions))
	offCycles   = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.Cycles))
	offLoads    = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.Loads))
	offStores   = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.Stores))
	offFPOps    = uint32(unsafe.Offsetof(CPU{}.Count) + unsafe.Offsetof(Counters{}.FPOps))
	offNative   = uint32(unsafe.Offsetof(CPU{}.translated))
	offLeft     = uint32(unsafe.Offsetof(CPU{}.nativeLeft))
	offRTag     = uint32(unsafe.Offsetof(CPU{}.victim) + unsafe.Offsetof(victimCache{}.rTag))
	offWTag     = uint32(unsafe.Offsetof(CPU{}.victim) + unsafe.Offsetof(victimCache{}.wTag))
	offRPage    = uint32(unsafe.Offsetof(CPU{}.victim) + unsafe.Offsetof(victimCache{}.rPage))
	offWPage    = uint32(unsafe.Offsetof(CPU{}.victim) + unsafe.Offsetof(victimCache{}.wPage))
)

// translator holds the code of one block being translated and the jumps to its exits.
type translator struct {
	x86
	blk   *block
	nc    *nativeCode // the translation being made: its link slots
	insts []inst
	exits []exitJump
	links int // link slots used
}

// exitJump is a jump to the exit that leaves the block before instruction index.
type exitJump struct{ pos, index int }

// translateCode returns the machine code of the longest prefix of b that the translator
// covers and the prefix's length (0: none, the interpreter runs the block); nc is the
// translation it is for, whose link slots the code reads.
func translateCode(b *block, nc *nativeCode) ([]byte, int) {
	nc.targets = [2]uint32{noLink, noLink}
	t := &translator{blk: b, nc: nc, insts: b.insts}
	n := 0
	for i := range b.insts {
		in := &b.insts[i]
		d, err := Decode(in.w)
		if err != nil {
			break
		}
		mark, marks := len(t.b), len(t.exits)
		if !t.inst(i, in, d.Op) {
			t.b, t.exits = t.b[:mark], t.exits[:marks]
			break
		}
		n = i + 1
		if in.ends {
			break // the closing branch returned on every path
		}
	}
	if n == 0 {
		return nil, 0
	}
	switch {
	case n < len(b.insts): // the interpreter runs the rest
		t.retImm(n, b.insts[n].pc)
	case !b.insts[n-1].ends: // a page end or the longest block: falls through
		t.countBlock()
		t.leave(n, b.end)
	}
	t.emitExits()
	return t.b, n
}

// retImm returns to the dispatcher: the block (by its word in the page), the index of
// the first instruction not run and the pc to continue at.
func (t *translator) retImm(index int, pc uint32) {
	t.movImm64(rAX, t.result(index)|uint64(pc))
	t.ret()
}

// result is the high half of what the code returns.
func (t *translator) result(index int) uint64 {
	return uint64(t.blk.start&pageMask>>2)<<40 | uint64(index)<<32
}

// countBlock adds the whole block to the counters and takes it from the budget left
// (CPU.nativeLeft): every path that completes the block runs it once.
func (t *translator) countBlock() {
	b := t.blk
	n := uint32(len(b.insts))
	t.aluState64Imm(aluAdd, offInsts, n)
	t.aluState64Imm(aluAdd, offNative, n)
	t.aluState64Imm(aluSub, offLeft, n)
	t.aluState64Imm(aluAdd, offCycles, uint32(b.cycles))
	for _, c := range []struct {
		off uint32
		n   uint64
	}{{offLoads, b.loads}, {offStores, b.stores}, {offFPOps, b.fpops}} {
		if c.n != 0 {
			t.aluState64Imm(aluAdd, c.off, uint32(c.n))
		}
	}
}

// leave ends a completed block going to pc: straight into the translation of the block
// there when pc is in this block's page, that block's translation is linked (its
// address is in one of nc.links, filled by the dispatcher) and the budget left covers
// any block; otherwise back to the dispatcher.
func (t *translator) leave(n int, pc uint32) {
	if pc>>pageShift != t.blk.start>>pageShift || t.links == len(t.nc.links) {
		t.retImm(n, pc)
		return
	}
	k := t.links
	t.links++
	t.nc.targets[k] = pc
	t.aluState64Imm(aluCmp, offLeft, maxBlock)
	short := t.jcc(ccB)
	t.movImm64(rAX, uint64(uintptr(unsafe.Pointer(&t.nc.links[k]))))
	t.loadInd64(rAX, rAX)
	t.test64(rAX, rAX)
	unlinked := t.jcc(ccE)
	t.jmpReg(rAX)
	t.patch(short)
	t.patch(unlinked)
	t.retImm(n, pc)
}

// emitExits emits one return per exit index and points its jumps at it.
func (t *translator) emitExits() {
	done := map[int]bool{}
	for _, e := range t.exits {
		if done[e.index] {
			continue
		}
		done[e.index] = true
		for _, f := range t.exits {
			if f.index == e.index {
				t.patch(f.pos)
			}
		}
		t.retImm(e.index, t.insts[e.index].pc)
	}
}

func gprOff(r uint8) uint32 { return offGPR + 4*uint32(r&31) }

func (t *translator) getGPR(h byte, r uint8) { t.load32(h, gprOff(r)) }
func (t *translator) setGPR(r uint8, h byte) { t.store32(gprOff(r), h) }

// getRA0 loads (RA|0).
func (t *translator) getRA0(h byte, r uint8) {
	if r == 0 {
		t.alu(aluXor, h, h)
		return
	}
	t.getGPR(h, r)
}

// crField sets CR field bf from the flags of a compare (LT by signed or unsigned order,
// GT, EQ) and XER[SO]. Clobbers ecx and edx.
func (t *translator) crField(bf uint32, unsigned bool) {
	lt := byte(ccL)
	if unsigned {
		lt = ccB
	}
	t.movImm32(rCX, 4)
	t.movImm32(rDX, 8)
	t.cmov(lt, rCX, rDX)
	t.movImm32(rDX, 2)
	t.cmov(ccE, rCX, rDX)
	t.load32(rDX, offXER)
	t.shiftImm(shShr, rDX, 31)
	t.alu(aluOr, rCX, rDX)
	sh := 28 - 4*(bf&7)
	if sh != 0 {
		t.shiftImm(shShl, rCX, uint8(sh))
	}
	t.load32(rDX, offCR)
	t.aluImm(aluAnd, rDX, ^(uint32(0xf) << sh))
	t.alu(aluOr, rDX, rCX)
	t.store32(offCR, rDX)
}

// cr0 sets CR0 from eax as a signed comparison with zero.
func (t *translator) cr0() {
	t.test(rAX, rAX)
	t.crField(0, false)
}

// overflowToOV sets XER[OV], and XER[SO] with it, from the host overflow flag, as an OE
// form does: x86's OF after add, sub, neg and the two-operand imul is PowerPC's signed
// 32-bit overflow of add, subf, neg and mullw. Clobbers ecx and edx.
func (t *translator) overflowToOV() {
	t.movImm32(rCX, 0) // mov, not xor: the flags must survive
	t.setcc(ccO, rCX)
	t.shiftImm(shShl, rCX, 30)
	t.load32(rDX, offXER)
	t.aluImm(aluAnd, rDX, ^uint32(XerOV))
	t.alu(aluOr, rDX, rCX)
	t.shiftImm(shShl, rCX, 1)
	t.alu(aluOr, rDX, rCX)
	t.store32(offXER, rDX)
}

// carryToCA copies the host carry flag to XER[CA]. Clobbers ecx and edx.
func (t *translator) carryToCA() {
	t.sbb(rCX, rCX)
	t.aluImm(aluAnd, rCX, XerCA)
	t.load32(rDX, offXER)
	t.aluImm(aluAnd, rDX, ^uint32(XerCA))
	t.alu(aluOr, rDX, rCX)
	t.store32(offXER, rDX)
}

// logicalOps are the X-form logical instructions: RA <- RS op RB, with the complement of
// RB first (andc, orc) or of the result (nand, nor, eqv).
var logicalOps = map[Op]struct {
	op          byte
	notB, notRe bool
}{
	opAnd: {aluAnd, false, false}, opAndc: {aluAnd, true, false}, opOr: {aluOr, false, false},
	opOrc: {aluOr, true, false}, opXor: {aluXor, false, false}, opNand: {aluAnd, false, true},
	opNor: {aluOr, false, true}, opEqv: {aluXor, false, true},
}

// immLogicalOps are the D-form logical instructions: op, shifted (the "is" forms), Rc.
var immLogicalOps = map[Op]struct {
	op           byte
	shifted, dot bool
}{
	opOri: {aluOr, false, false}, opOris: {aluOr, true, false}, opXori: {aluXor, false, false},
	opXoris: {aluXor, true, false}, opAndiDot: {aluAnd, false, true}, opAndisDot: {aluAnd, true, true},
}

// inst emits instruction i of the block; false when it is outside the translated set
// (the caller drops what was emitted).
func (t *translator) inst(i int, in *inst, op Op) bool {
	if m, ok := memForms[op]; ok {
		if in.ends { // an invalid update form: it faults in the interpreter
			return false
		}
		t.memAccess(i, in, m)
		return true
	}
	switch op {
	case opB, opBc, opBclr, opBcctr:
		if i != len(t.insts)-1 {
			return false
		}
		t.branch(i+1, in, op)
		return true
	}
	if in.ends {
		return false
	}
	if ok, handled := t.fpInst(i, in, op); handled {
		return ok
	}
	rc := in.w&bitRc != 0
	if l, ok := logicalOps[op]; ok {
		t.getGPR(rAX, in.rt)
		t.getGPR(rBX, in.rb)
		if l.notB {
			t.not(rBX)
		}
		t.alu(l.op, rAX, rBX)
		if l.notRe {
			t.not(rAX)
		}
		t.finishA(in, rc)
		return true
	}
	if l, ok := immLogicalOps[op]; ok {
		ui := in.w & 0xffff
		if l.shifted {
			ui <<= 16
		}
		t.getGPR(rAX, in.rt)
		t.aluImm(l.op, rAX, ui)
		t.finishA(in, l.dot)
		return true
	}
	return t.arith(in, op, rc)
}

// finishA writes eax to RA and sets CR0 when rc.
func (t *translator) finishA(in *inst, rc bool) {
	t.setGPR(in.ra, rAX)
	if rc {
		t.cr0()
	}
}

// finishT writes eax to RT and sets CR0 when rc.
func (t *translator) finishT(in *inst, rc bool) {
	t.setGPR(in.rt, rAX)
	if rc {
		t.cr0()
	}
}

// arith emits the arithmetic, rotate, shift, compare and register-move forms.
func (t *translator) arith(in *inst, op Op, rc bool) bool {
	oe := in.w&bitOE != 0
	switch op {
	case opAddi, opAddis:
		imm := in.imm
		if op == opAddis {
			imm <<= 16
		}
		t.getRA0(rAX, in.ra)
		t.aluImm(aluAdd, rAX, imm)
		t.setGPR(in.rt, rAX)
	case opAdd, opSubf, opMullw:
		t.getGPR(rAX, in.ra)
		t.getGPR(rBX, in.rb)
		switch op {
		case opAdd:
			t.alu(aluAdd, rAX, rBX)
		case opSubf:
			t.alu(aluSub, rBX, rAX)
			t.mov(rAX, rBX)
		default:
			t.imul(rAX, rBX)
		}
		if oe {
			t.overflowToOV()
		}
		t.finishT(in, rc)
	case opNeg:
		t.getGPR(rAX, in.ra)
		t.neg(rAX)
		if oe {
			t.overflowToOV()
		}
		t.finishT(in, rc)
	case opAddic, opAddicDot:
		t.getGPR(rAX, in.ra)
		t.aluImm(aluAdd, rAX, in.imm)
		t.carryToCA()
		t.finishT(in, op == opAddicDot)
	case opSubfic:
		// ~RA + imm + 1 = imm - RA; its carry is the absence of a borrow.
		t.movImm32(rAX, in.imm)
		t.aluState(aluSub, rAX, gprOff(in.ra))
		t.cmc()
		t.carryToCA()
		t.setGPR(in.rt, rAX)
	case opMulli:
		t.getGPR(rBX, in.ra)
		t.imulImm(rAX, rBX, in.imm)
		t.setGPR(in.rt, rAX)
	case opExtsb, opExtsh:
		t.getGPR(rBX, in.rt)
		if op == opExtsb {
			t.movsx8(rAX, rBX)
		} else {
			t.movsx16(rAX, rBX)
		}
		t.finishA(in, rc)
	case opCntlzw:
		// 31 - bsr(RS), and 32 for zero: bsr leaves ZF and an undefined result then.
		t.getGPR(rBX, in.rt)
		t.movImm32(rDX, 0xffffffff)
		t.bsr(rAX, rBX)
		t.cmov(ccE, rAX, rDX)
		t.neg(rAX)
		t.aluImm(aluAdd, rAX, 31)
		t.finishA(in, rc)
	case opRlwinm, opRlwimi, opRlwnm:
		t.getGPR(rAX, in.rt)
		if op == opRlwnm {
			t.getGPR(rCX, in.rb) // rol masks its count to 5 bits, as rlwnm does
			t.shiftCL(shRol, rAX)
		} else if in.rb&31 != 0 {
			t.shiftImm(shRol, rAX, in.rb&31)
		}
		t.aluImm(aluAnd, rAX, in.imm)
		if op == opRlwimi {
			t.getGPR(rBX, in.ra)
			t.aluImm(aluAnd, rBX, ^in.imm)
			t.alu(aluOr, rAX, rBX)
		}
		t.finishA(in, rc)
	case opSlw, opSrw:
		// The count is RB mod 64; x86 takes it mod 32, so a count of 32-63 is zeroed apart.
		shift := byte(shShl)
		if op == opSrw {
			shift = shShr
		}
		t.getGPR(rCX, in.rb)
		t.getGPR(rAX, in.rt)
		t.shiftCL(shift, rAX)
		t.alu(aluXor, rDX, rDX)
		t.aluImm(aluAnd, rCX, 32) // not test: the flags must come from this bit only
		t.cmov(ccNE, rAX, rDX)
		t.finishA(in, rc)
	case opSrawi:
		t.srawi(in, rc)
	case opSraw:
		t.sraw(in, rc)
	case opMulhw, opMulhwu:
		if oe { // no OE form: the interpreter decides what the bit does
			return false
		}
		t.mulHighWord(in, op == opMulhw, rc)
	case opDivw, opDivwu:
		if oe {
			return false
		}
		t.divWord(in, op == opDivw, rc)
	case opCmp, opCmpl:
		t.getGPR(rAX, in.ra)
		t.getGPR(rBX, in.rb)
		t.alu(aluCmp, rAX, rBX)
		t.crField(uint32(in.rt>>2), op == opCmpl)
	case opCmpi, opCmpli:
		imm := in.imm
		if op == opCmpli {
			imm &= 0xffff
		}
		t.getGPR(rAX, in.ra)
		t.aluImm(aluCmp, rAX, imm)
		t.crField(uint32(in.rt>>2), op == opCmpli)
	case opMfspr, opMtspr:
		off := offLR
		switch sprNum(in.w) {
		case sprLR:
		case sprCTR:
			off = offCTR
		default:
			return false
		}
		if op == opMfspr {
			t.load32(rAX, off)
			t.setGPR(in.rt, rAX)
		} else {
			t.getGPR(rAX, in.rt)
			t.store32(off, rAX)
		}
	case opMfcr:
		t.load32(rAX, offCR)
		t.setGPR(in.rt, rAX)
	case opMtcrf:
		m := fieldMask(in.w >> 12 & 0xff)
		t.getGPR(rAX, in.rt)
		t.aluImm(aluAnd, rAX, m)
		t.load32(rBX, offCR)
		t.aluImm(aluAnd, rBX, ^m)
		t.alu(aluOr, rAX, rBX)
		t.store32(offCR, rAX)
	default:
		f, ok := carryForms[op]
		if !ok || oe {
			return false
		}
		t.carryAdd(in, f, rc)
	}
	return true
}

// srawi: CA is set when RS is negative and 1 bits are shifted out.
func (t *translator) srawi(in *inst, rc bool) {
	n := in.rb & 31
	t.getGPR(rAX, in.rt)
	t.mov(rBX, rAX)
	t.aluImm(aluAnd, rBX, 1<<n-1)
	t.mov(rDX, rAX)
	t.shiftImm(shSar, rDX, 31)
	t.alu(aluAnd, rBX, rDX)
	t.neg(rBX) // CF = (rbx != 0)
	t.carryToCA()
	if n != 0 {
		t.shiftImm(shSar, rAX, n)
	}
	t.finishA(in, rc)
}
