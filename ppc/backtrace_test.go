package ppc

import (
	"strings"
	"testing"
)

// symbols is a Symbolizer over a few named ranges.
type symbols []struct {
	name       string
	start, end uint32
	opaque     bool
}

func (s symbols) Locate(addr uint32) (Location, bool) {
	for _, f := range s {
		if addr >= f.start && addr < f.end {
			return Location{Func: f.name, Start: f.start, Opaque: f.opaque}, true
		}
	}
	return Location{}, false
}

// fakeMemory holds words; anything else is unmapped.
type fakeMemory map[uint32]uint32

func (m fakeMemory) read(addr uint32) (uint32, bool) { w, ok := m[addr]; return w, ok }

// framed writes a function at start that has made its frame and saved LR (stwu r1,-16(r1);
// mflr r0; stw r0,20(r1)) followed by a body of nops.
func (m fakeMemory) framed(start uint32) {
	for i, w := range []uint32{0x9421fff0, 0x7c0802a6, 0x90010014} {
		m[start+4*uint32(i)] = w
	}
	for a := start + 12; a < start+0x40; a += 4 {
		m[a] = 0x60000000
	}
}

func names(frames []Frame) string {
	var s []string
	for _, f := range frames {
		s = append(s, f.String())
	}
	return strings.Join(s, " < ")
}

// TestBacktraceStopsOnBadChains: whatever the stack holds, the walk ends: at a back
// chain that loops or shrinks, at unmapped memory, at unknown or opaque code, and never
// past its limit.
func TestBacktraceStopsOnBadChains(t *testing.T) {
	syms := symbols{{"f", 0x1000, 0x1040, false}, {"g", 0x2000, 0x2040, false}, {"tramp", 0x3000, 0x3040, true}}
	const sp = 0x8000
	tests := []struct {
		name  string
		stack func(m fakeMemory)
		start WalkStart
		want  string
	}{
		{"chain loops on itself", func(m fakeMemory) { m[sp], m[sp+4] = sp, 0x2010 }, WalkStart{PC: 0x1020, SP: sp}, "f+0x20"},
		{"chain shrinks", func(m fakeMemory) { m[sp] = sp - 16; m[sp-16+4] = 0x2010 }, WalkStart{PC: 0x1020, SP: sp}, "f+0x20"},
		{"chain runs into unmapped memory", func(m fakeMemory) { m[sp] = sp + 16; m[sp+20] = 0x2010; m[sp+16] = 0x90000 },
			WalkStart{PC: 0x1020, SP: sp}, "f+0x20 < g+0x10"},
		{"endless chain", func(m fakeMemory) {
			for a := uint32(sp); a < sp+16*100; a += 16 {
				m[a], m[a+4] = a+16, 0x2010
			}
		}, WalkStart{PC: 0x1020, SP: sp}, "f+0x20" + strings.Repeat(" < g+0x10", 5)},
		{"return address in unknown code", func(m fakeMemory) { m[sp] = sp + 16; m[sp+20] = 0x7000 },
			WalkStart{PC: 0x1020, SP: sp}, "f+0x20"},
		{"caller in opaque code", func(m fakeMemory) { m[sp] = sp + 16; m[sp+20] = 0x3010; m[sp+16] = sp + 32; m[sp+36] = 0x2010 },
			WalkStart{PC: 0x1020, SP: sp}, "f+0x20 < tramp+0x10"},
		{"pc in unknown code: the caller is in LR", func(m fakeMemory) { m[sp] = sp + 16; m[sp+20] = 0x2020 },
			WalkStart{PC: 0, LR: 0x1010, SP: sp}, "0x00000000 < f+0x10 < g+0x20"},
		{"pc in opaque code", func(m fakeMemory) { m[sp] = sp + 16; m[sp+20] = 0x2010 },
			WalkStart{PC: 0x3008, LR: 0x1010, SP: sp}, "tramp+0x8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fakeMemory{}
			m.framed(0x1000)
			m.framed(0x2000)
			tt.stack(m)
			if got := names(Backtrace(tt.start, m.read, syms, 6)); got != tt.want {
				t.Errorf("backtrace %s, want %s", got, tt.want)
			}
		})
	}
}

// TestDescribeFrames: the report's wording for lines, offsets, notes and unknown pcs.
func TestDescribeFrames(t *testing.T) {
	frames := []Frame{
		{PC: 0x100, Loc: Location{Func: "deref", Start: 0xf0, File: "a.c", Line: 9}},
		{PC: 0x210, Loc: Location{Func: "step", Start: 0x200, File: "a.c", Line: 16, Note: "displaced"}},
		{PC: 0x384, Loc: Location{Func: "__libc_start_call_main", Start: 0x300}},
	}
	if got, want := DescribeFrames(frames), "in deref (a.c:9); called from step (a.c:16) [displaced] <- __libc_start_call_main+0x84"; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	frames[0].Loc = Location{}
	if got, want := DescribeFrames(frames[:2]), "called from step (a.c:16) [displaced]"; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}

// TestBacktraceInPICPrologue: gcc's -fPIC-style prologue copies the return address with
// mflr r0, then replaces LR with bcl 20,31,.+4 to find its GOT, and stores r0 only later.
// Stopped in between, the caller's return address is in r0: LR names the function itself.
func TestBacktraceInPICPrologue(t *testing.T) {
	syms := symbols{{"step", 0x1000, 0x1040, false}, {"main", 0x2000, 0x2040, false}}
	m := fakeMemory{}
	for i, w := range []uint32{
		0x9421ffd0, // stwu r1,-48(r1)
		0x7c0802a6, // mflr r0
		0x429f0005, // bcl 20,31,.+4
		0x93e1002c, // stw r31,44(r1)
		0x7fc802a6, // mflr r30
		0x90010034, // stw r0,52(r1)
		0x60000000, 0x60000000, 0x60000000, 0x60000000,
	} {
		m[0x1000+4*uint32(i)] = w
	}
	m.framed(0x2000)
	const sp = 0x8000
	m[sp] = sp + 48      // step's frame links to main's
	m[sp+48] = sp + 96   // main's to its caller's (unknown code: the walk ends)
	m[sp+48+52] = 0x7000 // main's return address, saved in its caller's frame
	for pc, want := range map[uint32]string{
		0x1010: "step+0x10 < main+0x20", // after bcl, before stw r0: r0 holds it
		0x1018: "step+0x18 < main+0x20", // after stw r0,52(r1)
	} {
		start := WalkStart{PC: pc, LR: 0x100c, SP: sp}
		start.GPR[0] = 0x2020
		if pc == 0x1018 {
			m[sp+48+4] = 0x2020
		}
		if got := names(Backtrace(start, m.read, syms, 6)); got != want {
			t.Errorf("pc %#x: backtrace %s, want %s", pc, got, want)
		}
	}
}
