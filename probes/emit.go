package probes

import (
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// The word builder the code generator and the trampoline builder use: every instruction
// goes through ppc.Build, by base mnemonic with its operands in the ISA's order. The
// typed helpers below only name the forms the generator uses.

// label is a position in the code, bound once.
type label int

type fixup struct {
	at   int // word index of the branch
	to   label
	long bool // b (LI) rather than bc (BD)
}

// asm accumulates machine words with forward and backward branches to labels.
type asm struct {
	w      []uint32
	labels []int // word index or -1
	fix    []fixup
}

// opCache maps mnemonics to Ops; read-only once built.
var opCache = func() map[string]ppc.Op {
	m := map[string]ppc.Op{}
	for _, op := range ppc.Ops() {
		m[op.Name()] = op
	}
	return m
}()

// build encodes one instruction; operands out of range are a generator bug.
func build(name string, args ...int64) ppc.Inst {
	op, ok := opCache[name]
	if !ok {
		panic(fmt.Sprintf("probes: the ppc table has no %q", name))
	}
	return ppc.MustBuild(op, args...)
}

func (a *asm) emit(w uint32) { a.w = append(a.w, w) }

func (a *asm) ins(name string, args ...int64) { a.emit(build(name, args...).Word) }

func (a *asm) pc() int { return len(a.w) }

func (a *asm) newLabel() label {
	a.labels = append(a.labels, -1)
	return label(len(a.labels) - 1)
}

func (a *asm) bind(l label) { a.labels[l] = len(a.w) }

// resolve sets the displacement of every branch to a label; labels are within a snippet or
// a trampoline, far inside bc's ±32 KiB reach.
func (a *asm) resolve() {
	for _, f := range a.fix {
		off := int64(4 * (a.labels[f.to] - f.at))
		inst, err := ppc.Decode(a.w[f.at])
		if err != nil {
			panic(err)
		}
		arg := ppc.ArgBD
		if f.long {
			arg = ppc.ArgLI
		}
		if inst, err = inst.WithArg(arg, off); err != nil {
			panic(err)
		}
		a.w[f.at] = inst.Word
	}
	a.fix = nil
}

func r(v uint32) int64 { return int64(v) }

func (a *asm) addi(rt, ra uint32, si int32)       { a.ins("addi", r(rt), r(ra), int64(si)) }
func (a *asm) addis(rt, ra uint32, si int32)      { a.ins("addis", r(rt), r(ra), int64(si)) }
func (a *asm) subfic(rt, ra uint32, si int32)     { a.ins("subfic", r(rt), r(ra), int64(si)) }
func (a *asm) mulli(rt, ra uint32, si int32)      { a.ins("mulli", r(rt), r(ra), int64(si)) }
func (a *asm) ori(ra, rs uint32, ui uint16)       { a.ins("ori", r(ra), r(rs), int64(ui)) }
func (a *asm) xori(ra, rs uint32, ui uint16)      { a.ins("xori", r(ra), r(rs), int64(ui)) }
func (a *asm) xoris(ra, rs uint32, ui uint16)     { a.ins("xoris", r(ra), r(rs), int64(ui)) }
func (a *asm) andiDot(ra, rs uint32, ui uint16)   { a.ins("andi.", r(ra), r(rs), int64(ui)) }
func (a *asm) cmpwi(bf, ra uint32, si int32)      { a.ins("cmpi", r(bf), 0, r(ra), int64(si)) }
func (a *asm) lwz(rt uint32, d int32, ra uint32)  { a.ins("lwz", r(rt), int64(d), r(ra)) }
func (a *asm) stw(rs uint32, d int32, ra uint32)  { a.ins("stw", r(rs), int64(d), r(ra)) }
func (a *asm) stwu(rs uint32, d int32, ra uint32) { a.ins("stwu", r(rs), int64(d), r(ra)) }
func (a *asm) lfd(ft uint32, d int32, ra uint32)  { a.ins("lfd", r(ft), int64(d), r(ra)) }
func (a *asm) stfd(fs uint32, d int32, ra uint32) { a.ins("stfd", r(fs), int64(d), r(ra)) }

// x31 emits an arithmetic form "op rt, ra[, rb]" (rb is dropped for neg, subfze, ...).
func (a *asm) x31(name string, rt, ra, rb uint32) {
	if len(opCache[name].Args()) == 2 {
		a.ins(name, r(rt), r(ra))
		return
	}
	a.ins(name, r(rt), r(ra), r(rb))
}

// logical emits a logical or shift form "op ra, rs, rb" (destination first, as in the
// mnemonic).
func (a *asm) logical(name string, ra, rs, rb uint32) { a.ins(name, r(ra), r(rs), r(rb)) }

// Mnemonics of the integer forms the generator uses.
const (
	xoAdd    = "add"
	xoAddc   = "addc"
	xoAdde   = "adde"
	xoSubf   = "subf"
	xoSubfc  = "subfc"
	xoSubfe  = "subfe"
	xoSubfze = "subfze"
	xoNeg    = "neg"
	xoMullw  = "mullw"
	xoMulhwu = "mulhwu"
	xoDivw   = "divw"
	xoAnd    = "and"
	xoOr     = "or"
	xoXor    = "xor"
	xoNor    = "nor"
	xoSlw    = "slw"
	xoSrw    = "srw"
	xoSraw   = "sraw"
)

// Special purpose registers.
const (
	sprXER = 1
	sprLR  = 8
	sprCTR = 9
	sprTBL = 268
	sprTBU = 269
)

func (a *asm) mr(ra, rs uint32)        { a.logical(xoOr, ra, rs, rs) }
func (a *asm) srawi(ra, rs, sh uint32) { a.ins("srawi", r(ra), r(rs), r(sh)) }
func (a *asm) cmpw(bf, ra, rb uint32)  { a.ins("cmp", r(bf), 0, r(ra), r(rb)) }
func (a *asm) cmplw(bf, ra, rb uint32) { a.ins("cmpl", r(bf), 0, r(ra), r(rb)) }
func (a *asm) mfcr(rt uint32)          { a.ins("mfcr", r(rt)) }
func (a *asm) mtcrf(crm, rs uint32)    { a.ins("mtcrf", r(crm), r(rs)) }
func (a *asm) mfspr(rt, spr uint32)    { a.ins("mfspr", r(rt), r(spr)) }
func (a *asm) mtspr(spr, rs uint32)    { a.ins("mtspr", r(spr), r(rs)) }
func (a *asm) orDot(ra, rs, rb uint32) { a.emit(build("or", r(ra), r(rs), r(rb)).WithRc(true).Word) }
func (a *asm) rlwinm(ra, rs, sh, mb, me uint32) {
	a.ins("rlwinm", r(ra), r(rs), r(sh), r(mb), r(me))
}

// CR logical operations.
func (a *asm) cror(bt, ba, bb uint32)  { a.ins("cror", r(bt), r(ba), r(bb)) }
func (a *asm) crnor(bt, ba, bb uint32) { a.ins("crnor", r(bt), r(ba), r(bb)) }
func (a *asm) crxor(bt, ba, bb uint32) { a.ins("crxor", r(bt), r(ba), r(bb)) }
func (a *asm) creqv(bt, ba, bb uint32) { a.ins("creqv", r(bt), r(ba), r(bb)) }

// Branch options: BO values and CR0 bit numbers.
const (
	boTrue   = 12 // branch if CR bit set
	boFalse  = 4  // branch if CR bit clear
	boAlways = 20
	crLT     = 0
	crGT     = 1
	crEQ     = 2
)

// bc branches to l on CR bit bi per bo.
func (a *asm) bc(bo, bi uint32, l label) {
	a.fix = append(a.fix, fixup{at: a.pc(), to: l})
	a.ins("bc", r(bo), r(bi), 0)
}

// b branches to l.
func (a *asm) b(l label) {
	a.fix = append(a.fix, fixup{at: a.pc(), to: l, long: true})
	a.ins("b", 0)
}

func (a *asm) bctrl() { a.emit(build("bcctr", boAlways, 0, 0).WithLK(true).Word) }
func (a *asm) sc()    { a.ins("sc", 0) }

// Floating point.
func (a *asm) fArith(name string, frt, fra, frb uint32) { a.ins(name, r(frt), r(fra), r(frb)) }
func (a *asm) fmul(frt, fra, frc uint32)                { a.ins("fmul", r(frt), r(fra), r(frc)) }
func (a *asm) fneg(frt, frb uint32)                     { a.ins("fneg", r(frt), r(frb)) }
func (a *asm) fmr(frt, frb uint32)                      { a.ins("fmr", r(frt), r(frb)) }
func (a *asm) fcmpu(bf, fra, frb uint32)                { a.ins("fcmpu", r(bf), r(fra), r(frb)) }
func (a *asm) mffs(frt uint32)                          { a.ins("mffs", r(frt)) }
func (a *asm) mtfsf(flm, frb uint32)                    { a.ins("mtfsf", r(flm), r(frb)) }

const (
	xoFadd = "fadd"
	xoFsub = "fsub"
	xoFdiv = "fdiv"
)

// nop is "ori r0,r0,0".
var nop = build("ori", 0, 0, 0).Word

// li32 loads a 32-bit constant into rt in one or two instructions.
func (a *asm) li32(rt uint32, v uint32) {
	if int32(v) >= -0x8000 && int32(v) < 0x8000 {
		a.addi(rt, 0, int32(v))
		return
	}
	a.addis(rt, 0, int32(int16(v>>16)))
	if v&0xffff != 0 {
		a.ori(rt, rt, uint16(v))
	}
}

// ha and lo split an address for "addis t, 0, ha; lwz r, lo(t)".
func ha(addr uint32) int32 { return int32(int16((addr + 0x8000) >> 16)) }
func lo(addr uint32) int32 { return int32(int16(addr)) }
