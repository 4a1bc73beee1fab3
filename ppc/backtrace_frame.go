package ppc

// frameState says where the innermost function's caller is: frameLive when r1 still
// points at the function's own frame (else at its caller's), lrSaved when the return
// address is in the caller's frame at 4 rather than in LR.
type frameState struct {
	frameLive, lrSaved bool
	// lrClobbered: a branch and link in the prologue (the PIC idiom bcl 20,31,.+4) has
	// replaced LR since the function began, so an unsaved return address is in the
	// register mflr copied it into (raReg), not in LR; raReg is -1 when no mflr did.
	lrClobbered bool
	raReg       int
}

// How far the analysis looks: a prologue's stores and an epilogue's restores lie within
// a few instructions of the function's start and of its return.
const (
	prologueWords = 256
	epilogueWords = 16
)

// Instruction patterns of gcc's SysV PPC32 prologues and epilogues (mask, value).
var (
	insStwuR1   = [2]uint32{0xffff0000, 0x94210000} // stwu r1,-N(r1): the frame is made
	insStwuxR1  = [2]uint32{0xffff07ff, 0x7c21016e} // stwux r1,r1,rB
	insMflr     = [2]uint32{0xfc1fffff, 0x7c0802a6} // mflr rD
	insMtlr     = [2]uint32{0xfc1fffff, 0x7c0803a6} // mtlr rS
	insStwR1    = [2]uint32{0xfc1f0000, 0x90010000} // stw rS,d(r1)
	insAddiR1   = [2]uint32{0xffe00000, 0x38200000} // addi r1,rA,N: the frame is popped
	insLwzR1    = [2]uint32{0xffe00000, 0x80200000} // lwz r1,d(rA)
	insOrToR1   = [2]uint32{0xfc1f07ff, 0x7c010378} // or r1,rS,rB (mr r1,rS)
	insReturn   = [2]uint32{0xfc0007ff, 0x4c000020} // bclr (blr and conditional returns)
	insBranch   = [2]uint32{0xfc000000, 0x48000000} // b, bl, ba, bla
	insBranchC  = [2]uint32{0xfc000000, 0x40000000} // bc
	insBranchLR = [2]uint32{0xfc0007fe, 0x4c000420} // bcctr, bcctrl
	insBclrl    = [2]uint32{0xfc0007ff, 0x4c000021} // bclrl
)

func is(w uint32, p [2]uint32) bool { return w&p[0] == p[1] }

func isBranch(w uint32) bool {
	return is(w, insBranch) || is(w, insBranchC) || is(w, insBranchLR) || is(w, insBclrl)
}

func popsFrame(w uint32) bool { return is(w, insAddiR1) || is(w, insLwzR1) || is(w, insOrToR1) }

// analyseFrame reads the code of the function starting at fn around pc. Looking ahead
// first: straight-line code from pc to a return is an epilogue (or a leaf's tail) — a
// pop of r1 ahead means the frame is still live, an mtlr ahead that LR is not yet the
// return address (it is still in its save slot). A stwu r1 ahead means the frame is not
// made yet. Otherwise pc is in the body, and the prologue from fn up to pc says whether
// a frame was made and LR saved (mflr rX, then stw rX into the frame). A branch and link
// before the mflr (the PIC idiom bcl 20,31,.+4; mflr r30) copies no return address.
func analyseFrame(pc, fn uint32, read func(uint32) (uint32, bool)) frameState {
	if st, ok := lookAhead(pc, read); ok {
		return st
	}
	st := frameState{raReg: -1}
	var lrIn uint32 // the registers mflr copied the return address into
	lrIsReturn := true
	for a := fn; a < pc && a-fn < 4*prologueWords; a += 4 {
		w, ok := read(a)
		if !ok {
			break
		}
		switch rs := (w >> 21) & 31; {
		case is(w, insStwuR1) || is(w, insStwuxR1):
			st.frameLive = true
		case is(w, insMflr) && lrIsReturn:
			lrIn |= 1 << rs
			if st.raReg < 0 {
				st.raReg = int(rs)
			}
		case is(w, insStwR1) && lrIn&(1<<rs) != 0:
			st.lrSaved = true
		case isBranch(w) && w&1 == 1: // a link: LR no longer holds the return address
			lrIsReturn = false
			st.lrClobbered = true
		}
	}
	return st
}

// lookAhead recognises an epilogue (or a prologue not yet run) ahead of pc.
func lookAhead(pc uint32, read func(uint32) (uint32, bool)) (frameState, bool) {
	st := frameState{raReg: -1}
	mtlrAhead := false
	for i := uint32(0); i < epilogueWords; i++ {
		w, ok := read(pc + 4*i)
		switch {
		case !ok:
			return st, false
		case is(w, insStwuR1):
			// The frame is not made: r1 is the caller's, LR the return address. (stwux
			// also grows the stack for alloca in a body, so only stwu counts here.)
			return frameState{raReg: -1}, true
		case is(w, insReturn):
			st.lrSaved = mtlrAhead
			return st, true
		case isBranch(w):
			return st, false
		case popsFrame(w):
			st.frameLive = true
		case is(w, insMtlr):
			mtlrAhead = true
		}
	}
	return st, false
}
