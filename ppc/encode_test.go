package ppc

import (
	"errors"
	"testing"
)

func TestBuildMatchesAssemble(t *testing.T) {
	cases := []struct {
		op   string
		args []int64
		rc   bool
		text string
	}{
		{"addi", []int64{3, 1, -16}, false, "addi r3,r1,-16"},
		{"addi", []int64{3, 0, 7}, false, "li r3,7"},
		{"stwu", []int64{1, -16, 1}, false, "stwu r1,-16(r1)"},
		{"lwz", []int64{0, 20, 1}, false, "lwz r0,20(r1)"},
		{"or", []int64{3, 4, 4}, true, "mr. r3,r4"},
		{"rlwinm", []int64{3, 4, 2, 0, 29}, false, "slwi r3,r4,2"},
		{"mfspr", []int64{0, 8}, false, "mflr r0"},
		{"mtspr", []int64{9, 12}, false, "mtctr r12"},
		{"bclr", []int64{20, 0, 0}, false, "blr"},
		{"cmpi", []int64{7, 0, 3, -1}, false, "cmpwi cr7,r3,-1"},
		{"mullw", []int64{3, 4, 5}, false, "mullw r3,r4,r5"},
		{"macchw", []int64{3, 4, 5}, false, "macchw r3,r4,r5"},
		{"fmadd", []int64{1, 2, 3, 4}, true, "fmadd. f1,f2,f3,f4"},
		{"lfd", []int64{1, 8, 31}, false, "lfd f1,8(r31)"},
	}
	for _, c := range cases {
		op, ok := OpByName(c.op)
		if !ok {
			t.Fatalf("no op %s", c.op)
		}
		inst, err := Build(op, c.args...)
		if err != nil {
			t.Fatalf("Build(%s %v): %v", c.op, c.args, err)
		}
		if c.rc {
			inst = inst.WithRc(true)
		}
		want, err := Assemble(c.text, 0)
		if err != nil {
			t.Fatalf("Assemble(%q): %v", c.text, err)
		}
		if inst.Word != want {
			t.Errorf("Build(%s %v) = %08x (%s), Assemble(%q) = %08x", c.op, c.args, inst.Word,
				Disasm(inst, 0), c.text, want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	addi, _ := OpByName("addi")
	var ee *EncodeError
	if _, err := Build(addi, 3, 1, 40000); !errors.As(err, &ee) || ee.Arg != ArgSI || ee.Value != 40000 {
		t.Errorf("out-of-range SI: %v", err)
	}
	if _, err := Build(addi, 3, 1); !errors.As(err, &ee) {
		t.Errorf("missing operand: %v", err)
	}
	if _, err := Branch(0x10000000, 0x14000000, false); err == nil {
		t.Error("branch beyond 32 MiB accepted")
	}
	if _, err := BranchCond(0x10000000, 12, 2, 0x10000002, false); err == nil {
		t.Error("unaligned bc target accepted")
	}
	defer func() {
		if recover() == nil {
			t.Error("WithRc on addi did not panic")
		}
	}()
	MustBuild(addi, 3, 1, 0).WithRc(true)
}

func TestBranchHelpers(t *testing.T) {
	w, err := BranchCond(0x1000, 16, 0, 0xff0, false)
	if err != nil || DisasmWord(w, 0x1000) != "bdnz+   ff0" {
		t.Errorf("BranchCond = %08x %q, %v", w, DisasmWord(w, 0x1000), err)
	}
	for _, c := range []struct{ w, pc, target uint32 }{
		{0x4bfffe9d, 0x10000164, 0x10000000}, {0x41820038, 0x100001c4, 0x100001fc}, {0x48000402, 0, 0x400},
	} {
		inst, _ := Decode(c.w)
		if got, ok := BranchTarget(inst, c.pc); !ok || got != c.target {
			t.Errorf("BranchTarget(%08x) = %x, %v; want %x", c.w, got, ok, c.target)
		}
	}
	if _, ok := BranchTarget(MustBuild(opAddi, 1, 1, 1), 0); ok {
		t.Error("addi has a branch target")
	}
}
