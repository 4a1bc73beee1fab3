package runtime

import (
	"strings"
	"testing"
)

const crashELF = "../bgl/testdata/bin/mpicrash.elf"

// TestBacktraceEveryInstruction single-steps rank 0 of mpicrash through step and the
// leaf deref it calls, from step's first instruction to its return into main, and walks
// the stack at every instruction: before a frame is made, between stwu and the LR save,
// in the leaf (which never saves LR), in each epilogue after mtlr and after the frame is
// popped. The caller chain must be whole at each one: no caller dropped, none stale.
func TestBacktraceEveryInstruction(t *testing.T) {
	a, err := Launch(Options{Exe: crashELF, Nodes: 1, PerIO: 8, Topology: "b:4"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	step, _ := a.Prog.Lookup("step")
	deref, _ := a.Prog.Lookup("deref")
	d := a.Job.Debug(0)
	if err := d.SetBreakpoint(0, step.Addr); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	stepFor(t, a, 1_000_000)
	if r, _ := d.Regs(0); r.PC != step.Addr {
		t.Fatalf("rank 0 is at 0x%08x, not at step's breakpoint", r.PC)
	}
	d.ClearBreakpoint(0, step.Addr)
	p, _ := a.Process(0)
	const tail = "main < __libc_start_call_main < __libc_start_main"
	seen := map[string]int{}
	for i := 0; i < 64; i++ {
		r, _ := d.Regs(0)
		want := ""
		switch {
		case r.PC-step.Addr < step.Size:
			want = "step < " + tail
		case r.PC-deref.Addr < deref.Size:
			want = "deref < step < " + tail
		default:
			if seen["step"] == 0 || seen["deref"] == 0 {
				t.Fatalf("left step at 0x%08x having stepped %v", r.PC, seen)
			}
			return
		}
		frames, err := p.Backtrace()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range frames {
			names = append(names, f.Func)
		}
		if got := strings.Join(names, " < "); got != want {
			t.Errorf("pc 0x%08x: backtrace %s, want %s", r.PC, got, want)
		}
		seen[strings.Fields(want)[0]]++
		if err := d.Step(0); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("rank 0 did not return from step within 64 instructions")
}
