package probes

import (
	"fmt"
	"strings"
	"testing"
)

// replaceOutput is what replace.c prints when work and spin are replaced (or not) and
// wide and half are skipped with the given values (or not): the C program's semantics
// computed here.
func replaceOutput(replaced bool, workSkip map[int]int32, wide, half string) string {
	var b strings.Builder
	for i := 1; i <= 3; i++ {
		n := 10 * i
		work := int32(n * (n - 1) / 2)
		spin := uint32(i)
		if replaced {
			work += 1000000
			spin += 7
		} else {
			for {
				spin = spin*5 + 1
				if spin&0xff == 0x3f {
					break
				}
			}
		}
		if v, ok := workSkip[n]; ok {
			work = v
		}
		fmt.Fprintf(&b, "work(%d) = %d spin(%d) = %d\n", n, work, i, spin)
	}
	fmt.Fprintf(&b, "wide %s half %s\n", wide, half)
	return b.String()
}

// leaveAt installs e at fn's entry; when the entry is a loop head, the loop's branches go
// to the trampoline's Resume, as the runtime redirects them.
func (in *instrumenter) leaveAt(fn string, e *Exp) {
	entry := points(in.t, in.prog, fn, PointEntry)[0]
	if err := CheckAt(e, entry); err != nil {
		in.t.Fatal(err)
	}
	in.add(entry, in.compile(e), true)
	if !entry.BranchTarget {
		return
	}
	srcs, err := in.prog.BranchesTo(mustFunc(in.t, in.prog, fn), entry.Addr)
	if err != nil {
		in.t.Fatal(err)
	}
	for _, src := range srcs {
		tr, err := BuildRedirect(src, in.points[entry.Addr].tr.Resume, in.next)
		if err != nil {
			in.t.Fatal(err)
		}
		in.next += (tr.Size() + 15) &^ 15
		in.poke(tr.Base, tr.Bytes())
		in.poke(src.Addr, wordsBytes([]uint32{tr.Patch}))
	}
}

// TestReplaceAndSkip: jump() makes calls of work and spin (a loop head at -O2) run their
// _fast twins with the caller's arguments; skip() returns an int (only when work's
// argument is 20; spin's only for 6, a value its loop passes through but no caller
// passes), an int64 and a double at once; removing the replacement after the
// first call restores the original results.
func TestReplaceAndSkip(t *testing.T) {
	for _, name := range []string{"replace-O0.elf", "replace-O2.elf"} {
		t.Run(name, func(t *testing.T) {
			p := startProcess(t, name)
			in := newInstrumenter(t, p, name)
			if name == "replace-O2.elf" && !points(t, in.prog, "spin", PointEntry)[0].BranchTarget {
				t.Fatal("spin's entry is not a loop head at -O2")
			}
			in.leaveAt("work", Jump("work_fast"))
			in.leaveAt("spin", Jump("spin_fast"))
			if out, want := p.finish(t), replaceOutput(true, nil, "15", "1.5"); out != want {
				t.Errorf("replaced: got\n%swant\n%s", out, want)
			}

			p = startProcess(t, name)
			in = newInstrumenter(t, p, name)
			in.leaveAt("work", When(Binary(KEq, Arg(0, Int), IntConst(20)), Skip(IntConst(-1)), nil))
			in.leaveAt("wide", Skip(Int64Const(99)))
			in.leaveAt("half", Skip(DoubleConst(0.25)))
			// spin(1) loops through x = 6 at -O2: the loop must not re-enter the entry's
			// trampoline, or this skip would fire inside the loop.
			in.leaveAt("spin", When(Binary(KEq, Arg(0, Int), IntConst(6)), Skip(IntConst(12345)), nil))
			if out, want := p.finish(t), replaceOutput(false, map[int]int32{20: -1}, "99", "0.25"); out != want {
				t.Errorf("skipped: got\n%swant\n%s", out, want)
			}

			// Replaced for the first call of work, restored for the others.
			p = startProcess(t, name)
			in = newInstrumenter(t, p, name)
			in.leaveAt("work", Jump("work_fast"))
			fast := in.variable(Int)
			in.leaveAt("work_fast", Assign(fast, Binary(KAdd, Ref(fast), IntConst(1))))
			for p.run(t, 100) && readInt(t, p, fast) == 0 {
			}
			in.remove(points(t, in.prog, "work", PointEntry)[0].Addr)
			want := strings.Replace(replaceOutput(false, nil, "15", "1.5"), "work(10) = 45", "work(10) = 1000045", 1)
			if out := p.finish(t); out != want {
				t.Errorf("replaced then removed: got\n%swant\n%s", out, want)
			}
		})
	}
}

// TestLeaveOnlyAtEntry: skip and jump at an exit are refused, naming the function.
func TestLeaveOnlyAtEntry(t *testing.T) {
	prog := openProgram(t, "replace-O2.elf")
	exit := points(t, prog, "work", PointExit)[0]
	for _, e := range []*Exp{Skip(nil), Jump("work_fast")} {
		err := CheckAt(e, exit)
		if err == nil || !strings.Contains(err.Error(), "leave work at its entry only") {
			t.Errorf("CheckAt(%v, exit of work) = %v", e, err)
		}
	}
	if _, err := Compile(Jump("nope"), &Target{Resolve: prog.Resolve}); err == nil || !strings.Contains(err.Error(), "function nope not found") {
		t.Errorf("jump to a missing function: %v", err)
	}
}
