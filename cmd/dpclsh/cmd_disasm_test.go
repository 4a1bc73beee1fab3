package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

const disasmELF = "../../ppc/testdata/isa/hello-O2-static.elf"

// foldLines keeps the "ADDR:<TAB>TEXT" lines of a listing as "addr text", white space
// folded and "<symbol+off>" notes dropped, so ours and objdump's compare.
func foldLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		parts := strings.Split(l, "\t")
		if len(parts) < 2 || !strings.HasSuffix(parts[0], ":") {
			continue
		}
		text := parts[len(parts)-1]
		if i := strings.Index(text, " <"); i >= 0 && strings.HasSuffix(text, ">") {
			text = text[:i]
		}
		lines = append(lines, strings.TrimSpace(parts[0])+" "+strings.Join(strings.Fields(text), " "))
	}
	return lines
}

// TestDisasmFunctionMatchesObjdump lists main and puts, a weak alias objdump only knows
// as _IO_puts, and compares the lines with objdump --disassemble.
func TestDisasmFunctionMatchesObjdump(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"disasm", disasmELF, "main", "puts"}, nil, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	text := out.String()
	if !strings.Contains(text, " <main>:\n") || !strings.Contains(text, " <puts>:\n") {
		t.Fatalf("no function headers in:\n%s", text)
	}
	objdump := oracletest.Require(t, oracletest.Objdump)
	want, err := exec.Command(objdump, "-d", "-z", "-M440", "--disassemble=main", disasmELF).Output()
	if err != nil {
		t.Fatal(err)
	}
	want2, err := exec.Command(objdump, "-d", "-z", "-M440", "--disassemble=_IO_puts", disasmELF).Output()
	if err != nil {
		t.Fatal(err)
	}
	got, exp := foldLines(text), append(foldLines(string(want)), foldLines(string(want2))...)
	if len(got) != len(exp) || len(got) == 0 {
		t.Fatalf("%d lines, objdump %d", len(got), len(exp))
	}
	for i := range got {
		if got[i] != exp[i] {
			t.Errorf("line %d: ours %q objdump %q", i, got[i], exp[i])
		}
	}
}

func TestDisasmErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, exitUsage, "usage: dpclsh disasm"},
		{[]string{"no/such.elf"}, exitError, "no/such.elf"},
		{[]string{disasmELF, "no_such_function"}, exitError, `no function symbol "no_such_function"`},
		{[]string{"subcommands.go"}, exitError, "subcommands.go"},
	} {
		var out, errb bytes.Buffer
		if code := run(append([]string{"disasm"}, c.args...), nil, &out, &errb); code != c.code ||
			!strings.Contains(errb.String(), c.msg) {
			t.Errorf("disasm %v: exit %d, stderr %q; want %d and %q", c.args, code, errb.String(), c.code, c.msg)
		}
	}
}
