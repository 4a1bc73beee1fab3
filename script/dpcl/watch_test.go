package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
	lua "github.com/yuin/gopher-lua"
)

// TestWatchBindingsHelpCompletionAndErrors: app:watch and w:remove have help text and
// complete; a bad target or mode is an error naming it.
func TestWatchBindingsHelpCompletionAndErrors(t *testing.T) {
	s, _ := scripttest.New(t)
	scripttest.Eval(t, s, `app = dpcl.launch("../../probes/testdata/watch-O2.elf", {quiet = true})
		w = app:watch(app:global("x"))`)
	for expr, want := range map[string]string{
		"app.watch": "each access to such a page costs its rank 1200 virtual cycles",
		"w.remove":  "the pages get their permissions back",
	} {
		v := scripttest.Eval(t, s, "return "+expr)
		var b bytes.Buffer
		s.Help(&b, v[0])
		if !strings.Contains(b.String(), want) {
			t.Errorf("help(%s) lacks %q:\n%s", expr, want, b.String())
		}
	}
	for text, want := range map[string]string{"app:wat": "watch", "w:re": "remove"} {
		if _, words := s.Complete(text); !slices.Contains(words, want) {
			t.Errorf("Complete(%q) = %v, lacks %q", text, words, want)
		}
	}
	v := scripttest.Eval(t, s, `local _, e1 = pcall(app.watch, app, app:global("x"), {on = "exec"})
		local _, e2 = pcall(app.watch, app, probe.int(3))
		local _, e3 = pcall(app.watch, app, 0x10, 4)
		w:remove()
		local _, e4 = pcall(w.remove, w)
		app:close()
		return e1, e2, e3, e4`)
	for i, want := range []string{`on must be "write", "read" or "rw", not "exec"`, "a program global (app:global)",
		"0x10+4 is not mapped", "already removed"} {
		if got := lua.LVAsString(v[i]); !strings.Contains(got, want) {
			t.Errorf("error %d = %q, want %q", i+1, got, want)
		}
	}
}
