package probes

import (
	"errors"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/ppc"
)

func global(t *testing.T, p *Program, path ...string) *Exp {
	t.Helper()
	e, err := p.Global(path[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range path[1:] {
		if step[0] == '[' {
			var i int32
			for _, c := range step[1 : len(step)-1] {
				i = 10*i + int32(c-'0')
			}
			e, err = Element(e, IntConst(i))
		} else {
			e, err = Member(e, step)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// TestGlobalsReadAndWrite reads every kind of global of globals.c (types from DWARF) at
// each call of probe_here, and writes counter: the values sent are the initializers the C
// source gives, updated as main updates them, and the program prints the write.
func TestGlobalsReadAndWrite(t *testing.T) {
	p := startProcess(t, "globals.elf")
	in := newInstrumenter(t, p, "globals.elf")
	prog := in.prog
	step := Arg(0, Int)
	dyn, err := Element(global(t, prog, "table"), step)
	if err != nil {
		t.Fatal(err)
	}
	reads := []*Exp{
		global(t, prog, "counter"), global(t, prog, "ucount"), global(t, prog, "ll"),
		global(t, prog, "fl"), global(t, prog, "dbl"), global(t, prog, "grid", "n"),
		global(t, prog, "grid", "h"), global(t, prog, "grid", "s", "[1]"), global(t, prog, "grid", "flag"),
		global(t, prog, "grid", "big"), global(t, prog, "grid", "f"),
		Load(global(t, prog, "grid", "p"), MemI32, 0), Load(global(t, prog, "ptr"), MemI32, 4),
		global(t, prog, "matrix", "[1]", "[2]"), dyn, Load(IntConst(16), MemI32, 0), viaPointer(t, prog),
	}
	if got := reads[7].String(); got != "grid.s[1]" {
		t.Errorf("tostring of a field element: %q", got)
	}
	bump := AssignTo(global(t, prog, "counter"), Binary(KAdd, global(t, prog, "counter"), IntConst(1000)))
	code, err := Compile(Seq(Send(reads...), bump), &Target{Tag: 1, FaultCounter: in.variable(Int).Addr})
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := prog.Lookup("probe_here")
	pts, _ := prog.Points(fn, PointEntry)
	in.add(pts[0], code, true)
	ins := in.points[pts[0].Addr].tr
	fixups := map[uint32]uint32{}
	for _, f := range ins.Fixups {
		fixups[f.At] = f.Resume
	}
	runWithFixups(t, p, fixups)
	if len(p.sends) != 3 {
		t.Fatalf("%d sends, want one per call of probe_here", len(p.sends))
	}
	if want := "counter 2961 grid.n 10 table 20 40 60 un 3 bits 2\n"; p.out.String() != want {
		t.Errorf("program printed %q, want %q", p.out.String(), want)
	}
	for s, vals := range p.sends {
		// grid.p is &table[1] (doubled after call 1), ptr + 4 bytes is table[3] (never
		// changed), table[step] is read before main doubles it, address 16 faults (0).
		want := []float64{-42 + 1000*float64(s) + float64(s*(s-1)/2), 4000000000, 1 << 40, 2.75, -3.5, float64(7 + s), 0.25, -2, 200,
			-5000000000, 1.5, []float64{20, 20, 40}[s], 40, 6, float64(10 * (s + 1)), 0, -2}
		for i, v := range vals {
			got := float64(v.I)
			if v.T == Double {
				got = v.F
			}
			if got != want[i] {
				t.Errorf("call %d: %s = %v, want %v", s, reads[i], got, want[i])
			}
		}
	}
}

// runWithFixups runs the process, resuming faulting probe accesses at their fixups.
func runWithFixups(t *testing.T, p *process, fixups map[uint32]uint32) {
	for !p.exited {
		st := p.cpu.Run(1 << 24)
		switch {
		case st.Kind == ppc.StopBudget:
		case st.Kind == ppc.StopFault && fixups[st.Fault.PC] != 0:
			p.cpu.PC = fixups[st.Fault.PC]
		case st.Kind == ppc.StopSyscall:
			p.syscall(t)
		default:
			t.Fatalf("program stopped: %v %v", st.Kind, st.Fault)
		}
	}
}

// TestGlobalErrors: what a probe cannot read is an error at construction naming it.
func TestGlobalErrors(t *testing.T) {
	prog := openProgram(t, "globals.elf")
	for _, c := range []struct {
		name, want string
	}{
		{"no_such_global", "no such global"},
		{"tabel", "no such global"},
		{"un", "union"},
		{"bits", "bit-field"},
	} {
		_, err := prog.Global(c.name)
		var ge *GlobalError
		if !errors.As(err, &ge) || ge.Name != c.name || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Global(%q) = %v, want a GlobalError with %q", c.name, err, c.want)
		}
	}
	if _, err := prog.Global("counte"); err == nil || !strings.Contains(err.Error(), "did you mean counter") {
		t.Errorf("a near miss does not suggest: %v", err)
	}
	grid := global(t, prog, "grid")
	if _, err := Check(grid); err == nil || !strings.Contains(err.Error(), "take a field") {
		t.Errorf("a struct used as a value: %v", err)
	}
	if _, err := Member(grid, "m"); err == nil || !strings.Contains(err.Error(), "fields: n, h, s, flag, big, f, p") {
		t.Errorf("a missing field: %v", err)
	}
	if _, err := Element(global(t, prog, "table"), IntConst(5)); err == nil || !strings.Contains(err.Error(), "out of range 0..4") {
		t.Errorf("a constant index out of range: %v", err)
	}
	if _, err := Check(AssignTo(global(t, prog, "fl"), DoubleConst(1))); err != nil {
		t.Errorf("storing a double into a float global: %v", err)
	}
	if _, err := Check(AssignTo(global(t, prog, "counter"), DoubleConst(1))); err == nil || !strings.Contains(err.Error(), "counter") {
		t.Errorf("storing a double into an int global: %v", err)
	}
}

// viaPointer is gp->s[1] through the DWARF type of gp (struct grid *).
func viaPointer(t *testing.T, prog *Program) *Exp {
	d, err := Deref(global(t, prog, "gp"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Member(d, "s")
	if err == nil {
		d, err = Element(s, IntConst(1))
	}
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "(*gp).s[1]" {
		t.Errorf("tostring through a pointer: %q", d)
	}
	return d
}

// TestPointerIndexesAsInC: p[i] of a pointer global is *(p + i), as C reads it (libmpi's
// derived-type table is a pointer once it can grow): ptr is &table[2], so ptr[1] is
// table[3] and gp[0].s[1] is grid.s[1], each read by the program's own instructions.
func TestPointerIndexesAsInC(t *testing.T) {
	p := startProcess(t, "globals.elf")
	in := newInstrumenter(t, p, "globals.elf")
	prog := in.prog
	viaPtr, err := Element(global(t, prog, "ptr"), IntConst(1))
	if err != nil {
		t.Fatal(err)
	}
	g0, err := Element(global(t, prog, "gp"), Binary(KSub, Arg(0, Int), Arg(0, Int)))
	if err == nil {
		g0, err = Member(g0, "s")
	}
	if err == nil {
		g0, err = Element(g0, IntConst(1))
	}
	if err != nil {
		t.Fatal(err)
	}
	code, err := Compile(Send(viaPtr, g0), &Target{Tag: 1, FaultCounter: in.variable(Int).Addr})
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := prog.Lookup("probe_here")
	pts, _ := prog.Points(fn, PointEntry)
	in.add(pts[0], code, true)
	ins := in.points[pts[0].Addr].tr
	fixups := map[uint32]uint32{}
	for _, f := range ins.Fixups {
		fixups[f.At] = f.Resume
	}
	runWithFixups(t, p, fixups)
	if len(p.sends) == 0 {
		t.Fatal("no sends")
	}
	for s, vals := range p.sends {
		if len(vals) != 2 || vals[0].I != 40 || vals[1].I != -2 {
			t.Errorf("call %d: ptr[1], gp[0].s[1] = %v, want [40 -2]", s, vals)
		}
	}
	if _, err := Element(global(t, prog, "counter"), IntConst(0)); err == nil || !strings.Contains(err.Error(), "not an array or a pointer") {
		t.Errorf("indexing an int: %v", err)
	}
}
