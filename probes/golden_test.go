package probes

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/codegen.golden")

// TestCodegenGolden pins the code of a few typical probes: a change in code generation
// shows up as a readable diff.
func TestCodegenGolden(t *testing.T) {
	slots := NewSlots(0x0f000000, 0x1000)
	n, _ := slots.Alloc("n", Int)
	w, _ := slots.Alloc("w", Int64)
	d, _ := slots.Alloc("d", Double)
	calls, _ := slots.AllocArray("calls", Int, 64)
	timers, _ := slots.AllocStack("timers", Int64, 16)
	exps := []*Exp{
		Assign(n, Binary(KAdd, Ref(n), IntConst(1))),
		Assign(w, Binary(KAdd, Ref(w), Counter("cycles"))),
		Assign(d, Binary(KAdd, Ref(d), Arg(0, Double))),
		When(Binary(KEq, Rank(), IntConst(0)), Send(Arg(0, Int), Retval(Int64), Timebase()), nil),
		Assign(n, Binary(KDiv, Arg(0, Int), Arg(1, Int))),
		Assign(n, Call("f", Arg(2, Int64), DoubleConst(0.5))),
		SetIndex(calls, FuncIndex(), Binary(KAdd, Index(calls, FuncIndex()), IntConst(1))),
		Push(timers, Timebase()),
		Assign(w, Binary(KAdd, Ref(w), Binary(KSub, Timebase(), Pop(timers)))),
		Send(Load(Arg(0, Int), MemU16, 6), Whole(calls)),
	}
	target := &Target{Tag: 9, Resolve: func(string) (uint32, bool) { return 0x10000400, true }}
	var b strings.Builder
	for _, e := range exps {
		c, err := Compile(e, target)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Compile(e, target)
		if !slices.Equal(c.Words, again.Words) {
			t.Errorf("%v compiles to different code each time", e)
		}
		fmt.Fprintf(&b, "== %v  (%d bytes, scratch %d)\n%s", e, c.Size(), c.Scratch, c.Disasm(0x0f001000))
	}
	const file = "testdata/codegen.golden"
	if *update {
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./probes -run TestCodegenGolden -update)", err)
	}
	if b.String() != string(want) {
		t.Errorf("code generation changed; run with -update and review the diff:\n%s", b.String())
	}
}
