package probes

import (
	"slices"
)

// StackSample is one profiling sample: the interrupted pc, then the return addresses of
// its callers innermost first (a zero ends the walk early), and what it stands for in
// each of the profile's sample types.
type StackSample struct {
	Stack   []uint32
	Samples int64 // timer periods
	Cycles  int64 // virtual cycles
}

// SourceFrame is one frame of the source-level call chain at an address.
type SourceFrame struct {
	Func string
	File string // as DWARF names it
	Line int
}

// InlinedFrames is the source-level call chain at addr, innermost first: the functions
// inlined there (DW_TAG_inlined_subroutine), innermost first, then the function holding
// the code. The first frame has addr's own line, each further one the line of the call
// the frame before it replaces. An address outside every function is one frame named
// by its address.
func (b *Program) InlinedFrames(addr uint32) []SourceFrame {
	fn, ok := b.FuncAt(addr)
	if !ok {
		return []SourceFrame{{Func: Frame{PC: addr}.String()}}
	}
	file, line := b.LineOf(addr)
	type copyAt struct {
		name, callFile string
		callLine       int
		size           uint32
	}
	var copies []copyAt
	for _, c := range b.img.InlinedCopies() {
		for _, r := range c.Ranges {
			if addr >= r.Start && uint64(addr) < r.End() {
				copies = append(copies, copyAt{c.Func, c.CallFile, c.CallLine, r.Size})
				break
			}
		}
	}
	// Nested copies: the innermost has the smallest range.
	slices.SortStableFunc(copies, func(x, y copyAt) int { return int(x.size) - int(y.size) })
	var out []SourceFrame
	for _, c := range copies {
		out = append(out, SourceFrame{Func: c.name, File: file, Line: line})
		file, line = c.callFile, c.callLine
	}
	return append(out, SourceFrame{Func: fn.Name, File: file, Line: line})
}
