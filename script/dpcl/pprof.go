package dpcl

import (
	"github.com/dpclsh/dpclsh/probes"
	"github.com/google/pprof/profile"
)

// Profiles are written in pprof's format (github.com/google/pprof/profile) because it is
// what `go tool pprof` reads: flame graphs, top lists and annotated source come with it.
// The format is built here, in the Lua host, because the packages below it use the
// standard library only (deps_test.go).

// pprofProfile builds a pprof profile of the samples, with one sample type per event (samples,
// cycles) and period the cycles of one timer period. Each address is a location whose
// lines are the inlined frames at it, innermost first, from DWARF: the inlined function
// at the instruction's own line, then each caller at the line of the call the inlined copy
// replaces. A return address is resolved at its call (the instruction before it).
func pprofProfile(b *probes.Program, samples []probes.StackSample, period int64) *profile.Profile {
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
