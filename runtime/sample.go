package runtime

import (
	"encoding/binary"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/bgl/abi"
	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/probes"
)

// MaxSampleHz is the highest sampling rate: one sample per 700 cycles at 1 MHz, seven
// times the handler's own cost.
const MaxSampleHz = 1_000_000

// Profile is a sampling profile of the ranks of a context: the timer interrupts
// Job.SetSampling takes, merged by call stack as they are collected.
type Profile struct {
	app     *App
	Period  uint64 // cycles between samples
	ranks   *contexts.Set
	stacks  map[string]*probes.StackSample
	order   []string // stacks in first-seen order, for a deterministic file
	stopped bool
}

// Sample starts sampling the context's ranks (nil: all) hz times per second of each
// rank's virtual time, walking depth frames.
func (a *App) Sample(hz, depth int, ctx *contexts.Set) (*Profile, error) {
	if hz < 1 || hz > MaxSampleHz {
		return nil, errorf("sample: hz %d out of range 1..%d", hz, MaxSampleHz)
	}
	if ctx == nil {
		ctx = contexts.All(a.Size())
	}
	period := uint64(abi.ClockHz / hz)
	if err := a.m.SetSampling(period, depth, ctx.Contains); err != nil {
		return nil, errorf("sample: %w", err)
	}
	p := &Profile{app: a, Period: period, ranks: ctx, stacks: map[string]*probes.StackSample{}}
	a.profiles = append(a.profiles, p)
	return p, nil
}

// Stop ends the sampling; the samples taken stay in the profile.
func (p *Profile) Stop() {
	if !p.stopped {
		p.collect()
		p.app.m.SetSampling(0, 0, nil)
		p.stopped = true
	}
}

// collect merges the samples taken since the last collection.
func (p *Profile) collect() {
	for _, s := range p.app.m.TakeSamples() {
		var key []byte
		for _, pc := range s.Stack {
			key = binary.BigEndian.AppendUint32(key, pc)
		}
		k := string(key)
		m, ok := p.stacks[k]
		if !ok {
			m = &probes.StackSample{Stack: s.Stack}
			p.stacks[k] = m
			p.order = append(p.order, k)
		}
		m.Samples += int64(s.Weight)
		m.Cycles += int64(s.Weight * p.Period)
	}
}

// Samples are the merged samples so far, one per distinct stack.
func (p *Profile) Samples() []probes.StackSample {
	p.collect()
	out := make([]probes.StackSample, 0, len(p.order))
	for _, k := range p.order {
		out = append(out, *p.stacks[k])
	}
	return out
}

// Count is one row of a profile's table: a function or a line and its samples.
type Count struct {
	Name    string // "hot" or "file.c:12"
	Samples int64
	Percent float64
}

// Top is the n functions holding the most samples (their pc's function, inlined code
// counted in the function it is inlined into), most first, ties by name.
func (p *Profile) Top(n int) []Count {
	return p.table(func(pc uint32) (string, bool) {
		fn, ok := p.app.Prog.FuncAt(pc)
		if !ok {
			return "(unknown)", true
		}
		return fn.Name, true
	}, n)
}

// Lines is the samples per source line of file (a base name or a path suffix), most
// first.
func (p *Profile) Lines(file string) []Count {
	return p.table(func(pc uint32) (string, bool) {
		f, line := p.app.Prog.LineOf(pc)
		if f == "" || (filepath.Base(f) != file && !strings.HasSuffix(f, "/"+file) && f != file) {
			return "", false
		}
		return filepath.Base(f) + ":" + strconv.Itoa(line), true
	}, 0)
}

func (p *Profile) table(key func(uint32) (string, bool), n int) []Count {
	counts := map[string]int64{}
	var total int64
	for _, s := range p.Samples() {
		total += s.Samples
		if k, ok := key(s.Stack[0]); ok {
			counts[k] += s.Samples
		}
	}
	var out []Count
	for k, c := range counts {
		out = append(out, Count{Name: k, Samples: c, Percent: 100 * float64(c) / float64(total)})
	}
	slices.SortFunc(out, func(x, y Count) int {
		if x.Samples != y.Samples {
			return int(y.Samples - x.Samples)
		}
		return strings.Compare(x.Name, y.Name)
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// Program is the sampled application's program, which resolves the samples' addresses.
func (p *Profile) Program() *probes.Program { return p.app.Prog }
