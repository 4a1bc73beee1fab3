package probes

import (
	"fmt"
	"strconv"
	"strings"
)

// Registers and the call stack as probe data (bpftrace's reg() and ustack, DynInst's
// BPatch_registerExpr).

// RegLR is the register number Reg gives the link register; 0..31 are the GPRs.
const RegLR = 32

// MaxUstackDepth is the deepest call chain one Ustack sends (a send carries at most
// MaxSendValues values).
const MaxUstackDepth = MaxSendValues

// Reg reads register n as the program had it at the point (int): a GPR for n in 0..31,
// the link register for RegLR. r1 is the interrupted stack pointer, not the trampoline's.
func Reg(n int) *Exp { return &Exp{Kind: KReg, Idx: n} }

// SP is the program's stack pointer r1 at the point.
func SP() *Exp { return Reg(1) }

// LR is the program's link register at the point: at a function entry, the address the
// function returns to.
func LR() *Exp { return Reg(RegLR) }

// Ustack stands for depth return addresses of the call chain at the point, innermost
// first, only as an operand of Send: the link register, then the LR each frame of the r1
// back chain saved (SysV PPC32: 4 bytes above the caller's frame). At a function's entry
// or exit the list is exactly the chain of callers; inside a function body, after its
// prologue, the first entry is LR as it stands (often stale) and the function's own
// return address follows. The walk stops at a null, non-increasing or unreadable link
// (which counts a fault and never stops the rank); the remaining values are 0.
func Ustack(depth int) *Exp { return &Exp{Kind: KUstack, Idx: depth} }

// ParseReg maps a register name to Reg's number: "r0".."r31", "sp" (r1) and "lr".
func ParseReg(name string) (int, error) {
	switch name {
	case "sp":
		return 1, nil
	case "lr":
		return RegLR, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(name, "r")); err == nil && strings.HasPrefix(name, "r") && n >= 0 && n <= 31 {
		return n, nil
	}
	return 0, errorf("unknown register %q (want \"r0\"..\"r31\", \"sp\" or \"lr\")", name)
}

// regName is the name ParseReg reads back.
func regName(n int) string {
	switch n {
	case 1:
		return "sp"
	case RegLR:
		return "lr"
	}
	return fmt.Sprintf("r%d", n)
}

// checkStackData checks a register read and a call stack.
func checkStackData(e *Exp) (Type, error) {
	if e.Kind == KReg {
		if e.Idx < 0 || e.Idx > RegLR {
			return Void, typeErr(e, "register %d out of range (r0..r31, lr)", e.Idx)
		}
		return Int, nil
	}
	if err := checkUstackDepth(e); err != nil {
		return Void, err
	}
	return Void, typeErr(e, "ustack(%d) is not a value: send it (probe.send(probe.ustack(%d)))", e.Idx, e.Idx)
}

// checkUstackDepth checks a call stack as a send operand.
func checkUstackDepth(e *Exp) error {
	if e.Idx < 1 || e.Idx > MaxUstackDepth {
		return typeErr(e, "ustack depth %d out of range 1..%d", e.Idx, MaxUstackDepth)
	}
	return nil
}

func (e *Exp) formatStackData(b *strings.Builder) {
	if e.Kind == KUstack {
		b.WriteString("ustack(" + strconv.Itoa(e.Idx) + ")")
		return
	}
	switch e.Idx {
	case 1, RegLR:
		b.WriteString(regName(e.Idx) + "()")
	default:
		b.WriteString("reg(" + strconv.Quote(regName(e.Idx)) + ")")
	}
}
