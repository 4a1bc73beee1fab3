package probes

import (
	"encoding/binary"

	"github.com/dpclsh/dpclsh/ppc"
)

// Trampoline is a base trampoline built for one point at one address of the
// instrumentation region: frame, saves, the snippets each behind a toggle word, restores,
// the displaced instruction relocated, and the branch back.
type Trampoline struct {
	Point   Point
	Base    uint32
	Words   []uint32
	Patch   uint32   // the b that replaces Point.Word at Point.Addr
	Toggles []Toggle // one per snippet, in order
	Frame   int32    // bytes below the interrupted r1 (gap included)
	// Resume is where the relocated displaced instruction starts: jumping there runs the
	// original instruction and continues after the point, without the probes.
	Resume uint32
	// Fixups map each snippet access to program memory that may fault to the address
	// where a node faulting there must resume (the snippet's fixup): the runtime hands
	// them to the machine's fault redirection.
	Fixups []Fixup
}

// Fixup is one faulting-access address and its recovery address.
type Fixup struct {
	At, Resume uint32
}

// Toggle is a snippet's activation word: On runs the snippet, Off jumps over it.
type Toggle struct {
	Addr    uint32
	On, Off uint32
}

// Size is the trampoline's length in bytes.
func (t *Trampoline) Size() uint32 { return uint32(4 * len(t.Words)) }

// Bytes returns the trampoline as big-endian words.
func (t *Trampoline) Bytes() []byte {
	b := make([]byte, 4*len(t.Words))
	for i, w := range t.Words {
		binary.BigEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// Disasm prints the trampoline at its base address.
func (t *Trampoline) Disasm() string { return disasmWords(t.Words, t.Base) }

// Contains reports whether addr lies in the trampoline.
func (t *Trampoline) Contains(addr uint32) bool { return addr-t.Base < t.Size() }

// Busy reports whether a stopped node still needs the trampoline: its PC or one of the
// addresses it may return to (see ReturnAddresses) lies inside.
func (t *Trampoline) Busy(pc uint32, returns []uint32) bool {
	if t.Contains(pc) {
		return true
	}
	for _, a := range returns {
		if t.Contains(a) {
			return true
		}
	}
	return false
}

// ReturnAddresses lists the code addresses a stopped node may still return to: LR, the LR
// each frame of the r1 back chain saved (SysV PPC32: at the caller's frame + 4) and, for
// every frame that belongs to a trampoline (inTramp reports trampoline code), the LR the
// trampoline saved for the code it interrupted (FrameLR) — a trampoline keeps the
// interrupted LR there, not where the ABI's walk looks. Slots read this way may be stale,
// which only makes the answer conservative. The walk stops at a null, non-increasing or
// unreadable link; it is never cut short, since a deep recursion through a snippet's call
// still returns into every trampoline on its way.
func ReturnAddresses(pc, lr, r1 uint32, read32 func(addr uint32) (uint32, error), inTramp func(addr uint32) bool) []uint32 {
	out := []uint32{lr}
	add := func(addr uint32) {
		if v, err := read32(addr); err == nil {
			out = append(out, v)
		}
	}
	if inTramp(pc) || inTramp(lr) {
		// The frame at r1 is the trampoline's, or (a callee mid-prologue) its back chain is.
		add(r1 + FrameLR)
		if up, err := read32(r1); err == nil {
			add(up + FrameLR)
		}
	}
	for sp := r1; ; {
		next, err := read32(sp)
		if err != nil || next == 0 || next <= sp {
			break
		}
		ra, err := read32(next + 4)
		if err != nil {
			break
		}
		out = append(out, ra)
		if inTramp(ra) {
			add(next + FrameLR)
		}
		sp = next
	}
	return out
}

// saveSet is what a trampoline saves and restores for its snippets.
type saveSet struct {
	gprs, fprs              uint32
	cr, lr, ctr, xer, fpscr bool
	calls                   bool // a snippet calls a function: the recursion guard is set
	leave                   bool // a snippet may leave the function (FrameLeave)
	pointTime               bool // a snippet reads the time base of the point's arrival
	scratch                 int32
}

func saves(snippets []*Code) saveSet {
	var s saveSet
	for _, c := range snippets {
		s.gprs |= c.Clobber | c.Reads
		s.fprs |= c.FClob | c.FReads
		s.cr = s.cr || c.CR
		s.xer = s.xer || c.XER
		s.ctr = s.ctr || c.CTR
		s.fpscr = s.fpscr || c.FPSCR
		s.scratch = max(s.scratch, c.Scratch)
		s.lr = s.lr || c.LR
		if c.PointTime {
			s.pointTime, s.cr = true, true // the read's loop compares in CR0
			s.gprs |= 1<<0 | 1<<3
		}
		if c.Leave {
			s.leave, s.cr = true, true // the exit test clobbers CR0
			s.gprs |= 1
		}
		if c.Calls {
			s.calls = true
			s.gprs |= volatileGPRs
			s.fprs |= volatileFPRs
			s.cr, s.lr, s.ctr, s.xer, s.fpscr = true, true, true, true, true
		}
	}
	if s.cr || s.lr || s.ctr || s.xer {
		s.gprs |= 1 // r0 carries the special registers to and from the frame
	}
	if s.fpscr {
		s.fprs |= 1 // f0 carries FPSCR
	}
	return s
}

// sprSaves lists the special registers saved through r0, with their frame slots.
func (s saveSet) sprSaves() []struct {
	spr uint32
	off int32
} {
	type e = struct {
		spr uint32
		off int32
	}
	var out []e
	if s.lr {
		out = append(out, e{sprLR, FrameLR})
	}
	if s.ctr {
		out = append(out, e{sprCTR, FrameCTR})
	}
	if s.xer {
		out = append(out, e{sprXER, FrameXER})
	}
	return out
}

// TrampolineSize is the size of the trampoline BuildTrampoline makes for p and snippets:
// it depends neither on the base address nor on the guard word's, so the region can be
// allocated first.
func TrampolineSize(p Point, snippets []*Code) (uint32, error) {
	const anyGuard = 4
	active := make([]bool, len(snippets))
	t, err := BuildTrampoline(p, snippets, active, p.Addr, anyGuard)
	if err != nil {
		return 0, err
	}
	return t.Size(), nil
}

// BuildTrampoline lays out the base trampoline for point p at base with the snippets in
// order; active[i] says whether snippet i starts enabled (DPCL installs inactive). guard is
// the address of the node's recursion guard word (zero-initialized, in the instrumentation
// region): when a snippet calls a program function, the trampoline sets the word around
// its snippets and skips them while it is set, so a probe inside a function a snippet
// calls does not recurse (DynInst's trampoline guard). Snippets without calls ignore it.
func BuildTrampoline(p Point, snippets []*Code, active []bool, base, guard uint32) (*Trampoline, error) {
	if len(active) != len(snippets) {
		return nil, errorf("trampoline for %v: %d snippets but %d activation flags", p, len(snippets), len(active))
	}
	patch, err := ppc.Branch(p.Addr, base, false)
	if err != nil {
		return nil, errorf("trampoline for %v: instrumentation region out of branch reach: %w", p, err)
	}
	s := saves(snippets)
	frame := StackGap + (FrameScratch+s.scratch+15)&^15
	t := &Trampoline{Point: p, Base: base, Patch: patch, Frame: frame}
	var a asm
	reloc := a.newLabel()
	if br := decodeBranch(p.Word, p.Addr); guarded(p.Kind, br) {
		a.bc(br.bo^boCondTrue, br.bi, reloc)
	}
	a.stwu(1, -frame, 1)
	if s.pointTime {
		readPointTime(&a)
	}
	saveRegs(&a, s)
	if s.leave {
		a.li32(0, 0)
		a.stw(0, FrameLeave, 1)
	}
	skip := a.newLabel()
	if s.calls {
		if guard == 0 {
			return nil, errorf("trampoline for %v: a snippet calls a function but no recursion guard word was given", p)
		}
		setGuard(&a, guard, 1, skip)
	}
	for i, c := range snippets {
		skipWord, err := ppc.Branch(0, uint32(4*(len(c.Words)+1)), false)
		if err != nil {
			return nil, errorf("trampoline for %v: snippet %d: %w", p, i, err)
		}
		tog := Toggle{Addr: base + uint32(4*a.pc()), On: nop, Off: skipWord}
		t.Toggles = append(t.Toggles, tog)
		if active[i] {
			a.emit(tog.On)
		} else {
			a.emit(tog.Off)
		}
		start := base + uint32(4*a.pc())
		for _, f := range c.Faults {
			for _, at := range f.At {
				t.Fixups = append(t.Fixups, Fixup{At: start + uint32(4*at), Resume: start + uint32(4*f.Fixup)})
			}
		}
		a.w = append(a.w, c.Words...)
	}
	if s.calls {
		setGuard(&a, guard, 0, skip)
	}
	a.bind(skip)
	if s.leave {
		emitLeave(&a, s, frame)
	}
	restoreRegs(&a, s)
	a.addi(1, 1, frame)
	a.bind(reloc)
	a.resolve()
	t.Resume = base + uint32(4*a.pc())
	words, err := relocate(p, t.Resume, decodeBranch(p.Word, p.Addr).target)
	if err != nil {
		return nil, err
	}
	t.Words = append(a.w, words...)
	return t, nil
}

// BuildRedirect makes the branch at src (a b or bc inside a function, without link) go to
// target instead: its trampoline at base holds only the relocated branch. An entry probe
// at a function whose first instruction is also a loop head redirects the loop's branches
// (Program.BranchesTo) to the entry trampoline's Resume, so it fires once per call.
func BuildRedirect(src Point, target, base uint32) (*Trampoline, error) {
	br := decodeBranch(src.Word, src.Addr)
	if (br.kind != brB && br.kind != brBC) || br.link {
		return nil, &PointError{Addr: src.Addr, Func: src.Func, Why: "only b and bc without link can be redirected"}
	}
	patch, err := ppc.Branch(src.Addr, base, false)
	if err != nil {
		return nil, errorf("redirect %v: instrumentation region out of branch reach: %w", src, err)
	}
	words, err := relocate(src, base, target)
	if err != nil {
		return nil, err
	}
	return &Trampoline{Point: src, Base: base, Words: words, Patch: patch, Resume: base}, nil
}

// emitLeave tests FrameLeave after the snippets: 0 goes on to the usual restore, else the
// registers are restored (r3/r4/f1 hold a skip's value) and the function is left: a
// return for 1, a branch through CTR to the replacement otherwise. r0, CR0 and CTR are
// volatile at an entry, the only point where snippets may leave.
func emitLeave(a *asm, s saveSet, frame int32) {
	stay, ret := a.newLabel(), a.newLabel()
	a.lwz(0, FrameLeave, 1)
	a.cmpwi(0, 0, 0)
	a.bc(boTrue, crEQ, stay)
	restoreRegs(a, s)
	a.lwz(0, FrameLeave, 1)
	a.addi(1, 1, frame)
	a.cmpwi(0, 0, 1)
	a.bc(boTrue, crEQ, ret)
	a.mtspr(sprCTR, 0)
	a.emit(build("bcctr", boAlways, 0, 0).Word)
	a.bind(ret)
	a.emit(build("bclr", boAlways, 0, 0).Word)
	a.bind(stay)
}

// setGuard writes v to the guard word; setting it first jumps to skip when it is already
// set. r11, r12 and CR0 are free here: a calling snippet makes the trampoline save them.
func setGuard(a *asm, guard, v uint32, skip label) {
	a.addis(12, 0, ha(guard))
	if v == 1 {
		a.lwz(11, lo(guard), 12)
		a.cmpwi(0, 11, 0)
		a.bc(boFalse, crEQ, skip)
	}
	a.li32(11, v)
	a.stw(11, lo(guard), 12)
}

// boCondTrue is the BO bit that selects "branch if the CR bit is set" over "if clear".
const boCondTrue = 0x08

// guarded reports whether an exit or call point is a branch taken only on a CR condition
// (beqlr, a conditional tail call, a conditional bcl): its probes then run only when the
// branch is taken, so an exit probe counts returns, not passes over a beqlr. Conditions
// that also decrement CTR are not tested ahead (that would change CTR): probes there run
// on every pass.
func guarded(k PointKind, br branch) bool {
	return (k == PointExit || k == PointCall) && br.kind != brNone && br.kind != brB &&
		br.bo&0x10 == 0 && br.bo&0x04 != 0
}

// readPointTime saves r0, r3 and CR, the registers it uses, and stores the time base in
// FrameTBU/FrameTBL: the same few instructions after the point whatever the snippets save
// next (saveRegs leaves those three alone then).
func readPointTime(a *asm) {
	a.stw(0, gprSlot(0), 1)
	a.stw(3, gprSlot(3), 1)
	a.mfcr(0)
	a.stw(0, FrameCR, 1)
	again := a.newLabel()
	a.bind(again)
	a.mfspr(3, sprTBU)
	a.mfspr(0, sprTBL)
	a.stw(0, FrameTBL, 1)
	a.mfspr(0, sprTBU)
	a.cmpw(0, 3, 0)
	a.bc(boFalse, crEQ, again)
	a.stw(3, FrameTBU, 1)
}

func saveRegs(a *asm, s saveSet) {
	for r := uint32(0); r <= lastGPR; r++ {
		if s.pointTime && (r == 0 || r == 3) {
			continue // readPointTime saved it
		}
		if s.gprs&(1<<r) != 0 {
			a.stw(r, gprSlot(r), 1)
		}
	}
	if s.cr && !s.pointTime {
		a.mfcr(0)
		a.stw(0, FrameCR, 1)
	}
	for _, e := range s.sprSaves() {
		a.mfspr(0, e.spr)
		a.stw(0, e.off, 1)
	}
	for f := uint32(0); f <= lastFPR; f++ {
		if s.fprs&(1<<f) != 0 {
			a.stfd(f, fprSlot(f), 1)
		}
	}
	if s.fpscr {
		a.mffs(0)
		a.stfd(0, FrameFPSCR, 1)
	}
}

func restoreRegs(a *asm, s saveSet) {
	if s.fpscr {
		a.lfd(0, FrameFPSCR, 1)
		a.mtfsf(0xff, 0)
	}
	for f := uint32(0); f <= lastFPR; f++ {
		if s.fprs&(1<<f) != 0 {
			a.lfd(f, fprSlot(f), 1)
		}
	}
	if s.cr {
		a.lwz(0, FrameCR, 1)
		a.mtcrf(0xff, 0)
	}
	for _, e := range s.sprSaves() {
		a.lwz(0, e.off, 1)
		a.mtspr(e.spr, 0)
	}
	for r := uint32(0); r <= lastGPR; r++ {
		if s.gprs&(1<<r) != 0 {
			a.lwz(r, gprSlot(r), 1)
		}
	}
}
