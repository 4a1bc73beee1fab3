package probes

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/dpclsh/dpclsh/ppc"
)

// Target describes what compiled code depends on outside the expression: the probe's tag
// in its sends and how call() names resolve. One Target serves every node of a job, so the
// same expression compiles to the same bytes everywhere. Hypercall numbers come from
// bgl/abi: rank() is HcRank, counter() is HcCounter, send() is HcAisSend.
type Target struct {
	// Tag identifies the probe in every packet it sends (see DecodeSend).
	Tag uint32
	// Resolve returns the entry address of a program function for call().
	Resolve func(name string) (uint32, bool)
	// FaultCounter, when not 0, is the address of an int the code increments each time
	// a load or store of program memory faults (see FaultFix); the probe's handle owns it.
	FaultCounter uint32
}

// Code is one compiled snippet: position-independent words (branches are relative, calls
// and variables absolute), to be placed in a base trampoline's frame (see Frame*).
type Code struct {
	Exp     *Exp
	Type    Type
	Words   []uint32
	Scratch int32  // bytes of frame scratch used above FrameScratch
	Clobber uint32 // GPRs written (bit n = rn)
	FClob   uint32 // FPRs written
	Reads   uint32 // GPRs read from the save slots (arguments, return value)
	FReads  uint32 // FPRs read from the save slots
	Calls   bool   // calls a program function: every volatile register, CR, FPSCR clobbered
	CR      bool   // writes CR0
	XER     bool   // writes XER[CA]
	CTR     bool   // writes CTR
	FPSCR   bool   // floating-point arithmetic or compares update FPSCR
	Syscall bool   // makes a hypercall (sc)
	LR      bool   // reads the interrupted LR from FrameLR (lr(), ustack())
	Leave   bool   // may leave the function through FrameLeave (skip(), jump())
	// Bounded: a sum checks its count and counts one out of range in FaultCounter, as
	// a faulting access does, so the code needs a fault counter even without Faults.
	Bounded bool
	// PointTime reads FrameTBU/FrameTBL (point_timebase()): the trampoline reads the time
	// base there on arrival.
	PointTime bool
	// Idents are the point-identity placeholders ForPoint fills in.
	Idents []IdentFix
	// Faults are the accesses to program memory that may fault, with their fixups: a
	// node that faults on one of them must resume at its fixup (see Trampoline.Fixups).
	Faults []FaultFix
}

// Size is the snippet's length in bytes, known before it is written anywhere.
func (c *Code) Size() uint32 { return uint32(4 * len(c.Words)) }

// Bytes returns the snippet as big-endian machine words.
func (c *Code) Bytes() []byte {
	b := make([]byte, 4*len(c.Words))
	for i, w := range c.Words {
		binary.BigEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// Disasm prints the snippet as if placed at base, one "address: word  text" line each.
func (c *Code) Disasm(base uint32) string {
	return disasmWords(c.Words, base)
}

func disasmWords(words []uint32, base uint32) string {
	var b strings.Builder
	for i, w := range words {
		pc := base + uint32(4*i)
		text := fmt.Sprintf(".long 0x%x", w)
		if inst, err := ppc.Decode(w); err == nil {
			text = ppc.Disasm(inst, pc)
		}
		fmt.Fprintf(&b, "%8x:\t%08x\t%s\n", pc, w, text)
	}
	return b.String()
}

// CompileError is a failure to generate code for a node.
type CompileError struct {
	Node *Exp
	Why  string
}

// Unprefixed is the error's text without "probes: "; Error adds it.
func (e *CompileError) Unprefixed() string { return fmt.Sprintf("compile %s: %s", e.Node, e.Why) }

func (e *CompileError) Error() string { return "probes: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *CompileError) Package() string { return "probes" }

// Compile type-checks e and generates its code for target t (nil: tag 0, no functions).
// The result does not depend on where it is placed nor on the node it runs on.
func Compile(e *Exp, t *Target) (code *Code, err error) {
	typ, err := Check(e)
	if err != nil {
		return nil, err
	}
	if t == nil {
		t = &Target{}
	}
	g := &gen{t: t, gfree: poolMask(firstGPR, lastGPR), ffree: poolMask(firstFPR, lastFPR)}
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(*CompileError)
			if !ok {
				panic(r)
			}
			code, err = nil, ce
		}
	}()
	g.free(g.exp(e))
	faults := g.emitFixups()
	g.a.resolve()
	return &Code{
		Exp: e, Type: typ, Words: g.a.w, Scratch: (g.maxSP + 7) &^ 7,
		Clobber: g.clobG, FClob: g.clobF, Reads: g.readG, FReads: g.readF,
		Calls: g.calls, CR: g.cr, XER: g.xer, CTR: g.ctr, FPSCR: g.fpscr, Syscall: g.sc, LR: g.lr, Leave: g.leaves,
		PointTime: g.pointTime, Bounded: g.bounded,
		Idents: g.idents, Faults: faults,
	}, nil
}

// typeOf is the checked type of a node of the tree being compiled.
func (g *gen) typeOf(e *Exp) Type { return typeOf(e) }

func poolMask(first, last uint32) uint32 { return (1<<(last+1) - 1) &^ (1<<first - 1) }

// val is where a generated value lives: r for int, hi:r for int64, f for double.
type val struct {
	t     Type
	r, hi uint32
	f     uint32
}

type gen struct {
	a            asm
	t            *Target
	gfree, ffree uint32
	clobG, clobF uint32
	readG, readF uint32
	calls, cr    bool
	xer, ctr     bool
	fpscr, sc    bool
	lr, leaves   bool
	pointTime    bool
	bounded      bool           // a sum's count is range-checked (FaultCounter)
	sumSlots     map[*Exp]int32 // the frame slot of each enclosing sum's index
	sp, maxSP    int32
	idents       []IdentFix
	fixes        []pendingFix
}

func (g *gen) fail(n *Exp, format string, args ...any) {
	panic(&CompileError{Node: n, Why: fmt.Sprintf(format, args...)})
}

var errNoRegs = errors.New("expression needs more registers than the volatile set holds; split it with probe variables")

func (g *gen) allocG(n *Exp) uint32 {
	for r := uint32(firstGPR); r <= lastGPR; r++ {
		if g.gfree&(1<<r) != 0 {
			g.gfree &^= 1 << r
			g.clobG |= 1 << r
			return r
		}
	}
	g.fail(n, "%v", errNoRegs)
	return 0
}

func (g *gen) allocF(n *Exp) uint32 {
	for f := uint32(firstFPR); f <= lastFPR; f++ {
		if g.ffree&(1<<f) != 0 {
			g.ffree &^= 1 << f
			g.clobF |= 1 << f
			return f
		}
	}
	g.fail(n, "%v", errNoRegs)
	return 0
}

func (g *gen) freeG(r uint32) { g.gfree |= 1 << r }

// alloc reserves registers for a value of type t.
func (g *gen) alloc(n *Exp, t Type) val {
	switch t {
	case Int:
		return val{t: t, r: g.allocG(n)}
	case Int64:
		return val{t: t, hi: g.allocG(n), r: g.allocG(n)}
	case Double:
		return val{t: t, f: g.allocF(n)}
	}
	return val{}
}

func (g *gen) free(v val) {
	switch v.t {
	case Int:
		g.gfree |= 1 << v.r
	case Int64:
		g.gfree |= 1<<v.r | 1<<v.hi
	case Double:
		g.ffree |= 1 << v.f
	}
}

// scratch reserves n bytes (8-aligned) of frame scratch; release with g.sp = mark.
func (g *gen) scratch(n int32) int32 {
	off := g.sp
	g.sp += (n + 7) &^ 7
	g.maxSP = max(g.maxSP, g.sp)
	if FrameScratch+g.sp > 0x7000 {
		panic(&CompileError{Why: "snippet needs too much frame scratch"})
	}
	return FrameScratch + off
}

func (g *gen) useR0() { g.clobG |= 1 }

// move copies v into dst (same type).
func (g *gen) move(dst, v val) {
	switch v.t {
	case Int:
		if dst.r != v.r {
			g.a.mr(dst.r, v.r)
		}
	case Int64:
		if dst.r != v.r {
			g.a.mr(dst.r, v.r)
		}
		if dst.hi != v.hi {
			g.a.mr(dst.hi, v.hi)
		}
	case Double:
		if dst.f != v.f {
			g.a.fmr(dst.f, v.f)
		}
	}
}
