package probes

import (
	"encoding/binary"
	"fmt"

	"github.com/dpclsh/dpclsh/ppc"
)

// PointKind says where in a function a point is.
type PointKind uint8

// Point kinds. PointInsn is an arbitrary instruction boundary (PointAt), PointLine the
// start of a source line (LinePoints), PointInlined the start of an inlined copy of a
// function (InlinedPoints).
const (
	PointEntry PointKind = iota
	PointExit
	PointCall
	PointInsn
	PointLine
	PointInlined
)

var pointKindNames = [...]string{"entry", "exit", "call", "insn", "line", "inlined"}

func (k PointKind) String() string {
	if int(k) < len(pointKindNames) {
		return pointKindNames[k]
	}
	return fmt.Sprintf("PointKind(%d)", k)
}

// ParsePointKind maps "entry", "exit", "call" to their kind.
func ParsePointKind(s string) (PointKind, error) {
	for i, n := range pointKindNames[:PointInsn] {
		if n == s {
			return PointKind(i), nil
		}
	}
	return 0, errorf("unknown point kind %q (want \"entry\", \"exit\" or \"call\")", s)
}

// Point is an instruction a probe can be spliced in front of.
type Point struct {
	Kind   PointKind
	Func   string
	Addr   uint32
	Word   uint32 // the original instruction, displaced into the trampoline
	Target uint32 // call sites and branching exits: the branch target (0 for blr, bctr)
	Callee string // call sites and tail calls: the function at Target, when known
	File   string
	Line   int
	// BranchTarget is set on an entry whose first instruction is also reached by a branch
	// from inside the function: see BranchesTo and BuildRedirect.
	BranchTarget bool
}

func (p Point) String() string {
	s := fmt.Sprintf("%s %s 0x%x", p.Func, p.Kind, p.Addr)
	if p.Callee != "" {
		s += " -> " + p.Callee
	}
	if p.File != "" {
		s += fmt.Sprintf(" (%s:%d)", p.File, p.Line)
	}
	return s
}

// PointError says why an instruction cannot carry a probe.
type PointError struct {
	Addr uint32
	Func string
	Why  string
}

// Unprefixed is the error's text without "probes: "; Error adds it.
func (e *PointError) Unprefixed() string {
	return fmt.Sprintf("point 0x%x in %s: %s", e.Addr, e.Func, e.Why)
}

func (e *PointError) Error() string { return "probes: " + e.Unprefixed() }

// Package is the name the error's text starts with.
func (e *PointError) Package() string { return "probes" }

// Points lists fn's points of one kind in address order: its entry; every instruction that
// leaves it (blr and conditional returns, branches and bctr out of it — a bctr after a
// bounds check or an indexed load is a switch dispatch and stays inside); or its call sites (bl, bcl other
// than the bcl 20,31,.+4 PIC idiom, bctrl). Instructions inside a lwarx..stwcx. window are
// never points; an exit or call found there is an error.
func (b *Program) Points(fn Func, kind PointKind) ([]Point, error) {
	insns, err := b.scan(fn)
	if err != nil {
		return nil, err
	}
	var out []Point
	for i, in := range insns {
		p, ok := b.classify(fn, insns, i, kind)
		if !ok {
			continue
		}
		if in.atomic {
			return nil, &PointError{Addr: in.addr, Func: fn.Name, Why: fmt.Sprintf("%s inside a lwarx..stwcx. window", kind)}
		}
		out = append(out, p)
	}
	return out, nil
}

// PointAt validates an arbitrary instruction boundary as a point: inside a function, a
// word the 440 decodes, not inside a lwarx..stwcx. window (the trampoline's stores would
// break the reservation every time), and not a bclrl (its relocation cannot leave LR
// right).
func (b *Program) PointAt(addr uint32) (Point, error) {
	fn, ok := b.FuncAt(addr)
	if !ok {
		return Point{}, &PointError{Addr: addr, Why: "not inside a known function"}
	}
	if addr%4 != 0 {
		return Point{}, &PointError{Addr: addr, Func: fn.Name, Why: "not an instruction boundary"}
	}
	insns, err := b.scan(fn)
	if err != nil {
		return Point{}, err
	}
	in := insns[(addr-fn.Addr)/4]
	if _, err := ppc.Decode(in.word); err != nil {
		return Point{}, &PointError{Addr: addr, Func: fn.Name, Why: fmt.Sprintf("0x%08x is not a PowerPC 440 instruction (data in the code?)", in.word)}
	}
	if in.atomic {
		return Point{}, &PointError{Addr: addr, Func: fn.Name, Why: "inside a lwarx..stwcx. window"}
	}
	if in.br.kind == brLR && in.br.link {
		return Point{}, &PointError{Addr: addr, Func: fn.Name, Why: "bclrl cannot be relocated"}
	}
	p := b.point(fn, in, PointInsn)
	p.Target, p.Callee = in.br.target, b.calleeName(in.br)
	return p, nil
}

// insn is one scanned instruction of a function.
type insn struct {
	addr, word uint32
	br         branch
	atomic     bool // after a lwarx, up to and including its stwcx.
	target     bool // some branch inside the function jumps here
}

// maxWindow bounds a lwarx..stwcx. window: a lwarx with no stwcx. this close is treated
// as a window to the end of the function.
const maxWindow = 32

func (b *Program) scan(fn Func) ([]insn, error) {
	code, ok := b.code(fn.Addr, fn.Size&^3)
	if !ok {
		return nil, &PointError{Addr: fn.Addr, Func: fn.Name, Why: "function extends past its code section"}
	}
	out := make([]insn, fn.Size/4)
	for i := range out {
		a := fn.Addr + uint32(4*i)
		w := binary.BigEndian.Uint32(code[4*i:])
		out[i] = insn{addr: a, word: w, br: decodeBranch(w, a)}
	}
	markWindows(out)
	for _, in := range out {
		t := in.br.target
		if in.br.kind != brNone && in.br.kind != brLR && in.br.kind != brCTR && t >= fn.Addr && t-fn.Addr < fn.Size {
			out[(t-fn.Addr)/4].target = true
		}
	}
	return out, nil
}

func markWindows(in []insn) {
	for i := range in {
		if !isLwarx(in[i].word) {
			continue
		}
		for j := i + 1; j < len(in) && j <= i+maxWindow; j++ {
			in[j].atomic = true
			if isStwcx(in[j].word) {
				break
			}
		}
	}
}

func isLwarx(w uint32) bool { return w&0xfc0007fe == 31<<26|20<<1 }
func isStwcx(w uint32) bool { return w&0xfc0007ff == 31<<26|150<<1|1 }

// isIndexedLoad matches lwzx, the load of a switch jump table entry.
func isIndexedLoad(w uint32) bool { return w&0xfc0007fe == 31<<26|23<<1 }

func (b *Program) point(fn Func, in insn, kind PointKind) Point {
	file, line := b.LineOf(in.addr)
	return Point{Kind: kind, Func: fn.Name, Addr: in.addr, Word: in.word, File: file, Line: line}
}

func (b *Program) calleeName(br branch) string {
	if br.target == 0 {
		return ""
	}
	if f, ok := b.FuncAt(br.target); ok && f.Addr == br.target {
		return f.Name
	}
	return ""
}

func (b *Program) classify(fn Func, insns []insn, i int, kind PointKind) (Point, bool) {
	in := insns[i]
	inside := func(t uint32) bool { return t >= fn.Addr && t-fn.Addr < fn.Size }
	br := in.br
	var ok bool
	switch kind {
	case PointEntry:
		ok = i == 0
	case PointExit:
		switch br.kind {
		case brLR:
			ok = !br.link
		case brB, brBC:
			ok = !br.link && !inside(br.target)
		case brCTR:
			ok = !br.link && !switchDispatch(insns, i)
		}
	case PointCall:
		ok = br.link && br.kind != brNone && !br.pic(in.addr)
	}
	if !ok {
		return Point{}, false
	}
	p := b.point(fn, in, kind)
	if kind != PointEntry {
		p.Target, p.Callee = br.target, b.calleeName(br)
	} else {
		p.BranchTarget = in.target
	}
	return p, true
}

// BranchesTo lists the branches inside fn that jump to target without linking (b, bc):
// for an entry that is also a loop head, the branches to redirect (see BuildRedirect).
func (b *Program) BranchesTo(fn Func, target uint32) ([]Point, error) {
	insns, err := b.scan(fn)
	if err != nil {
		return nil, err
	}
	var out []Point
	for _, in := range insns {
		br := in.br
		if (br.kind == brB || br.kind == brBC) && !br.link && br.target == target {
			p := b.point(fn, in, PointInsn)
			p.Target = target
			out = append(out, p)
		}
	}
	return out, nil
}

// switchDispatch reports whether the bctr at i is a switch's jump-table dispatch rather
// than a tail call through a pointer: gcc bounds-checks the index with an unsigned compare
// (cmplwi) or loads the entry with lwzx shortly before.
func switchDispatch(insns []insn, i int) bool {
	for j := i - 1; j >= 0 && j >= i-switchWindow; j-- {
		if w := insns[j].word; isIndexedLoad(w) || w>>26 == 10 {
			return true
		}
	}
	return false
}

// switchWindow is how far before a bctr switchDispatch looks.
const switchWindow = 12
