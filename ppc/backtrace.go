package ppc

import (
	"fmt"
	"strings"
)

// Location names a code address: the function holding it and its source line.
type Location struct {
	Func  string // the function, or what else holds the code (a tool's module, a trampoline)
	Start uint32 // the function's first address; 0 when an offset would mean nothing
	File  string // "" without line information
	Line  int
	// Opaque marks code that keeps no standard frame (a probe trampoline): a walk that
	// reaches it ends there.
	Opaque bool
	// At, when not 0, says the code is a copy of the program's instruction at At run with
	// the program's registers (an instruction a trampoline displaced): the walk reads the
	// code around At instead.
	At uint32
	// Note says how the code got where it is; printed after the name in brackets.
	Note string
}

// Symbolizer names code addresses; false when nothing is known of addr.
type Symbolizer interface {
	Locate(addr uint32) (Location, bool)
}

// Frame is one entry of a backtrace: the pc of the innermost frame, or the return
// address of a caller; Loc is the zero Location when addr is unknown.
type Frame struct {
	PC  uint32
	Loc Location
}

// String is "func (file:line)", "func+0xOFF" without line information, or the address.
func (f Frame) String() string {
	var s string
	pc := f.PC
	if f.Loc.At != 0 {
		pc = f.Loc.At
	}
	switch {
	case f.Loc.Func == "":
		return fmt.Sprintf("0x%08x", f.PC)
	case f.Loc.Line > 0:
		s = fmt.Sprintf("%s (%s:%d)", f.Loc.Func, f.Loc.File, f.Loc.Line)
	case f.Loc.Start != 0:
		s = fmt.Sprintf("%s+0x%x", f.Loc.Func, pc-f.Loc.Start)
	default:
		s = f.Loc.Func
	}
	if f.Loc.Note != "" {
		s += " [" + f.Loc.Note + "]"
	}
	return s
}

// DescribeFrames is the tail of a fault report: "in F0; called from F1 <- F2 ...", or
// "called from ..." alone when nothing is known of the pc, "" when nothing at all is.
func DescribeFrames(frames []Frame) string {
	var b strings.Builder
	if len(frames) > 0 && frames[0].Loc.Func != "" {
		b.WriteString("in " + frames[0].String())
	}
	if len(frames) > 1 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString("called from ")
		for i, f := range frames[1:] {
			if i > 0 {
				b.WriteString(" <- ")
			}
			b.WriteString(f.String())
		}
	}
	return b.String()
}

// WalkStart is what a stack walk starts from: the registers of the stopped process.
// GPR matters only between a prologue's mflr and its store of the return address.
type WalkStart struct {
	PC, LR, SP uint32
	GPR        [32]uint32
}

// ReportFrames is how many frames a fault report names: the few innermost.
const ReportFrames = 8

// Backtrace walks the SysV PPC32 back chain from start: r1 points at the innermost
// frame, whose word 0 links to the caller's frame, and a function that calls keeps its
// return address at 4 in its caller's frame. The innermost function may not have made its
// frame yet (before its stwu r1), may have popped it (in its epilogue), or may never save
// LR (a leaf): its code around the pc says which (frameState), so its caller is found in
// LR rather than dropped. read returns the word at an address (false when unmapped). The
// walk takes at most limit frames and stops at a back chain that does not grow, an
// unreadable word, an address nothing is known of, or opaque code.
func Backtrace(start WalkStart, read func(addr uint32) (uint32, bool), sym Symbolizer, limit int) []Frame {
	loc, known := sym.Locate(start.PC)
	frames := []Frame{{PC: start.PC, Loc: loc}}
	if loc.Opaque {
		return frames
	}
	if loc.At != 0 {
		start.PC = loc.At
	}
	ra, sp, ok := firstCaller(start, loc, known, read)
	for ok && len(frames) < limit {
		// A return address's line is its call's: the instruction before it.
		loc, known := sym.Locate(ra - 4)
		if !known || ra == 0 {
			break
		}
		frames = append(frames, Frame{PC: ra, Loc: loc})
		if loc.Opaque {
			break
		}
		ra, sp, ok = nextCaller(sp, read)
	}
	return frames
}

// firstCaller returns the innermost function's return address and its caller's frame.
func firstCaller(start WalkStart, loc Location, known bool, read func(uint32) (uint32, bool)) (ra, sp uint32, ok bool) {
	st := frameState{raReg: -1}
	if known && loc.Start != 0 {
		st = analyseFrame(start.PC, loc.Start, read)
	}
	sp = start.SP
	if st.frameLive {
		back, ok := read(start.SP)
		if !ok || back <= start.SP || back%8 != 0 {
			return 0, 0, false
		}
		sp = back
	}
	switch {
	case !st.lrSaved && st.lrClobbered && st.raReg >= 0:
		// Between "mflr rX; bcl 20,31,.+4" and "stw rX": the return address is in rX.
		return start.GPR[st.raReg], sp, true
	case !st.lrSaved && st.lrClobbered:
		return 0, 0, false // LR was replaced and nothing kept the return address
	case !st.lrSaved:
		return start.LR, sp, true
	}
	ra, ok = read(sp + 4)
	return ra, sp, ok
}

// nextCaller steps from a caller's frame sp to its own caller: the return address
// saved at 4 in the frame sp links to.
func nextCaller(sp uint32, read func(uint32) (uint32, bool)) (ra, back uint32, ok bool) {
	back, ok = read(sp)
	if !ok || back <= sp || back%8 != 0 {
		return 0, 0, false
	}
	ra, ok = read(back + 4)
	return ra, back, ok
}
