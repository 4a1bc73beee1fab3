package probes

import (
	"slices"

	"github.com/google/pprof/profile"
)

// Profiles are written in pprof's format (github.com/google/pprof/profile) because it is
// what `go tool pprof` reads: flame graphs, top lists and annotated source come with it.

// StackSample is one profiling sample: the interrupted pc, then the return addresses of
// its callers innermost first (a zero ends the walk early), and what it stands for in
// each of the profile's sample types.
type StackSample struct {
	Stack   []uint32
	Samples int64 // timer periods
	Cycles  int64 // virtual cycles
}

// Pprof builds a pprof profile of the samples, with one sample type per event (samples,
// cycles) and period the cycles of one timer period. Each address is a location whose
// lines are the inlined frames at it, innermost first, from DWARF: the inlined function
// at the instruction's own line, then each caller at the line of the call the inlined copy
// replaces. A return address is resolved at its call (the instruction before it).
func (b *Program) Pprof(samples []StackSample, period int64) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cycles", Unit: "cycles"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "cycles"},
		Period:     period,
	}
	funcs := map[string]*profile.Function{}
	locs := map[uint32]*profile.Location{}
	function := func(name, file string) *profile.Function {
		if f, ok := funcs[name]; ok {
			return f
		}
		f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: name, Filename: file}
		funcs[name] = f
		p.Function = append(p.Function, f)
		return f
	}
	location := func(addr uint32, caller bool) *profile.Location {
		key := addr
		if l, ok := locs[key]; ok {
			return l
		}
		at := addr
		if caller && addr >= 4 {
			at = addr - 4
		}
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(at)}
		for _, fr := range b.InlinedFrames(at) {
			l.Line = append(l.Line, profile.Line{Function: function(fr.Func, fr.File), Line: int64(fr.Line)})
		}
		locs[key] = l
		p.Location = append(p.Location, l)
		return l
	}
	for _, s := range samples {
		ps := &profile.Sample{Value: []int64{s.Samples, s.Cycles}}
		for i, pc := range s.Stack {
			if pc == 0 {
				break
			}
			ps.Location = append(ps.Location, location(pc, i > 0))
		}
		if len(ps.Location) > 0 {
			p.Sample = append(p.Sample, ps)
		}
	}
	return p
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
