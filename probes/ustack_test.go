package probes

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// callLines reads the "call:caller->callee" markers of testdata/stack.c: the line of each
// call of the chain.
func callLines(t *testing.T) map[string]int {
	b, err := os.ReadFile("testdata/stack.c")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	re := regexp.MustCompile(`call:(\w+->\w+)`)
	for i, l := range strings.Split(string(b), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			lines[m[1]] = i + 1
		}
	}
	return lines
}

// wantChain is leaf's callers when main calls down(n), innermost first, as
// "function (stack.c:line)" of each call.
func wantChain(lines map[string]int, n int) []string {
	at := func(caller, callee string) string {
		return fmt.Sprintf("%s (stack.c:%d)", caller, lines[caller+"->"+callee])
	}
	out := []string{at("down", "leaf")}
	for range n {
		out = append(out, at("up", "down"), at("down", "up"))
	}
	return append(out, at("main", "down"))
}

// TestUstackCallChain: at leaf's entry, ustack lists exactly the call chain stack.c builds,
// functions and call lines from DWARF, at -O0 and -O2; lr() is its first return address,
// reg("r3") leaf's argument, and the walk ends at the null back chain of _start.
func TestUstackCallChain(t *testing.T) {
	lines := callLines(t)
	const depth = 64
	for _, name := range []string{"stack-O0.elf", "stack-O2.elf"} {
		t.Run(name, func(t *testing.T) {
			p := startProcess(t, name)
			in := newInstrumenter(t, p, name)
			code := in.compile(Send(LR(), Reg(3), SP(), Ustack(depth)))
			for _, pt := range points(t, in.prog, "leaf", PointEntry) {
				in.add(pt, code, true)
			}
			if out := p.finish(t); !strings.Contains(out, "down(3) = 159\n") {
				t.Fatalf("output changed:\n%s", out)
			}
			if len(p.sends) != 4 {
				t.Fatalf("%d sends, want one per call of down from main (4)", len(p.sends))
			}
			for n, vals := range p.sends {
				pcs := make([]uint32, depth)
				for i := range pcs {
					pcs[i] = uint32(vals[3+i].I)
				}
				if uint32(vals[0].I) != pcs[0] {
					t.Errorf("down(%d): lr() = %#x, ustack starts at %#x", n, vals[0].I, pcs[0])
				}
				if vals[1].I != 0 {
					t.Errorf("down(%d): reg(\"r3\") = %d, leaf's argument is 0", n, vals[1].I)
				}
				// Each level of recursion adds the same two frames (up's and down's).
				sp := uint32(vals[2].I)
				if n >= 2 {
					prev, first := uint32(p.sends[n-1][2].I), uint32(p.sends[n-2][2].I)
					if sp%16 != 0 || sp >= prev || prev-sp != first-prev {
						t.Errorf("down(%d): sp() = %#x after %#x, %#x: not the frames of one more level", n, sp, prev, first)
					}
				}
				frames := in.prog.Stack(pcs)
				if len(frames) == depth {
					t.Fatalf("down(%d): the walk did not end within %d frames", n, depth)
				}
				want := wantChain(lines, n)
				if len(frames) < len(want) {
					t.Fatalf("down(%d): %d frames %v, want at least %v", n, len(frames), frames, want)
				}
				for i, w := range want {
					f := frames[i]
					got := f.Func + " (" + f.File + ":" + strconv.Itoa(f.Line) + ")"
					if got != w {
						t.Errorf("down(%d): frame %d = %s (%v), want %s", n, i, got, f, w)
					}
				}
			}
		})
	}
}

// TestRegisterReads: reg() reads the saved slots for r0 and r3..r12, the interrupted r1
// from the back chain, LR from its save slot and the other GPRs directly.
func TestRegisterReads(t *testing.T) {
	m := newMachine(t)
	env := &goEnv{}
	for r := range env.gprs {
		env.gprs[r] = uint32(0x1000 + r)
	}
	m.setFrame(t, env)
	mem := m.cpu.Mem
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(mem.Write32(hFrameR1+FrameBackChain, 0x30001230))
	must(mem.Write32(hFrameR1+FrameLR, 0x10000444))
	m.cpu.GPR[2], m.cpu.GPR[20], m.cpu.GPR[31] = 0x222, 0x2020, 0x3131
	code, err := Compile(Send(Reg(0), Reg(5), Reg(12), SP(), LR(), Reg(2), Reg(20), Reg(31)), &testTarget)
	if err != nil {
		t.Fatal(err)
	}
	if !code.LR || code.Reads != 1|1<<5|1<<12 {
		t.Errorf("code reads LR %v, GPR slots %#x; want LR and r0, r5, r12", code.LR, code.Reads)
	}
	m.runSnippet(t, code)
	want := []int64{0x1000, 0x1005, 0x100c, 0x30001230, 0x10000444, 0x222, 0x2020, 0x3131}
	if len(m.sends) != 1 || fmt.Sprint(ints(m.sends[0])) != fmt.Sprint(want) {
		t.Fatalf("sends %v, want %v", m.sends, want)
	}
}

func ints(vs []Value) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = v.I
	}
	return out
}

// TestUstackStopsAtBadFrames: a walk ends at a null or non-increasing link without a
// fault, and at a link into unmapped memory with one counted fault; the rank goes on and
// the rest of the values are 0.
func TestUstackStopsAtBadFrames(t *testing.T) {
	const (
		f1 = hStackTop - 0x8000
		f2 = hStackTop - 0x7000
	)
	cases := []struct {
		name   string
		link   uint32 // 0(f2)
		want   []int64
		faults uint32
	}{
		{"null", 0, []int64{0x10000040, 0x10000101, 0x10000202, 0, 0}, 0},
		{"non-increasing", f1, []int64{0x10000040, 0x10000101, 0x10000202, 0, 0}, 0},
		{"unmapped", hStackTop + 0x100, []int64{0x10000040, 0x10000101, 0x10000202, 0, 0}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newMachine(t)
			m.setFrame(t, &goEnv{})
			mem := m.cpu.Mem
			for _, w := range [][2]uint32{
				{hFrameR1 + FrameBackChain, f1 - 0x100}, {hFrameR1 + FrameLR, 0x10000040},
				{f1 - 0x100, f1}, {f1 + 4, 0x10000101}, {f1, f2}, {f2 + 4, 0x10000202}, {f2, c.link},
				{hFaults, 0},
			} {
				if err := mem.Write32(w[0], w[1]); err != nil {
					t.Fatal(err)
				}
			}
			code, err := Compile(Send(Ustack(5)), &testTarget)
			if err != nil {
				t.Fatal(err)
			}
			m.runSnippet(t, code)
			if len(m.sends) != 1 || fmt.Sprint(ints(m.sends[0])) != fmt.Sprint(c.want) {
				t.Fatalf("sends %v, want %v\n%s", m.sends, c.want, code.Disasm(hCode))
			}
			if n, _ := mem.Read32(hFaults); n != c.faults {
				t.Errorf("%d faults counted, want %d", n, c.faults)
			}
		})
	}
}

// TestUstackIsOnlyASendOperand: ustack has no value of its own and a depth in range.
func TestUstackIsOnlyASendOperand(t *testing.T) {
	for _, c := range []struct {
		e    *Exp
		want string
	}{
		{Ustack(4), "ustack(4) is not a value: send it"},
		{Binary(KAdd, Ustack(4), IntConst(1)), "not a value"},
		{Send(Ustack(0)), "ustack depth 0 out of range 1..256"},
		{Send(Ustack(300)), "send takes 1 to 256 values"},
		{Reg(33), "register 33 out of range"},
	} {
		_, err := Check(c.e)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check(%v) = %v, want %q", c.e, err, c.want)
		}
	}
	if s := Send(LR(), SP(), Reg(7), Ustack(3)).String(); s != `send(lr(), sp(), reg("r7"), ustack(3))` {
		t.Errorf("String() = %s", s)
	}
}
