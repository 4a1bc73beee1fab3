package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
	lua "github.com/yuin/gopher-lua"
)

// TestTraceHelpCompletionAndErrors: dpcl.trace has help and completes; a mistake in the
// program, or a probe the program does not offer, is raised (at the caller's line, as Lua
// errors are) with the program's line and a caret,
// and the application stays usable.
func TestTraceHelpCompletionAndErrors(t *testing.T) {
	s, _ := scripttest.New(t)
	v := scripttest.Eval(t, s, "return dpcl.trace")
	var b bytes.Buffer
	s.Help(&b, v[0])
	if !strings.Contains(b.String(), "dpcl.trace(app, program") || !strings.Contains(b.String(), "mapmerge") {
		t.Errorf("help(dpcl.trace):\n%s", b.String())
	}
	if _, words := s.Complete("dpcl.tra"); !slices.Contains(words, "trace") {
		t.Errorf("Complete(dpcl.tra) = %v, lacks trace", words)
	}
	scripttest.Eval(t, s, `app = dpcl.launch("../../examples/apps/bin/hello_mpi.elf", {nodes = 2, quiet = true})`)
	for _, tc := range []struct{ program, want string }{
		{"MPI_Init:entry {\n  @x = hist(arg0, 1)\n}",
			"test.lua:1: stdin:2:8: hist() takes 1 argument(s), got 2\n  @x = hist(arg0, 1)\n       ^"},
		{"MPI_Init:entry { @ = count() }\nNo_such_fn:entry { @ = count() }",
			"test.lua:1: stdin:2:1: probe 'No_such_fn:entry': app:points: no function matches function \"No_such_fn\"\nNo_such_fn:entry { @ = count() }\n^"},
	} {
		s.L.SetGlobal("PROGRAM", lua.LString(tc.program))
		v := scripttest.Eval(t, s, "local ok, err = pcall(dpcl.trace, app, PROGRAM) return err")
		if got := v[0].String(); got != tc.want {
			t.Errorf("dpcl.trace(app, %q):\n got %q\nwant %q", tc.program, got, tc.want)
		}
	}
	v = scripttest.Eval(t, s, `return dpcl.trace(app, "MPI_Init:entry { @[rank] = count() }", {out = function() end}).maps[""]["1"]`)
	if v[0].String() != "1" {
		t.Errorf("after the errors, @[rank] = count() gives rank 1 %v, want 1", v[0])
	}
	scripttest.Eval(t, s, "app:close()")
}
