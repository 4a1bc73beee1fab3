package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestModuleBindingsHelpAndCompletion: every C-module binding has help text and completes.
func TestModuleBindingsHelpAndCompletion(t *testing.T) {
	s, _ := scripttest.New(t)
	scripttest.Eval(t, s, `app = dpcl.launch("../../examples/apps/bin/ring.elf", {nodes = 2, per_io = 8, quiet = true})
		mod = app:load_module("../../examples/cmodules/msgstats.o")`)
	helps := map[string]string{
		"app.load_module": "before anything is written; a module already loaded is refused",
		"probe.call":      "probe.call(mod, function_name, args...)",
		"mod.global":      "like app:global",
		"mod.read":        "summed over every rank",
		"mod.functions":   "static=",
		"mod.globals":     "section=",
		"'dpcl.CModule'":  "a C probe module",
	}
	for expr, want := range helps {
		v := scripttest.Eval(t, s, "return "+expr)
		var b bytes.Buffer
		s.Help(&b, v[0])
		if !strings.Contains(b.String(), want) {
			t.Errorf("help(%s) lacks %q:\n%s", expr, want, b.String())
		}
	}
	completes := map[string][]string{
		"app:load": {"load_module"},
		"mod:gl":   {"global", "globals"},
		"mod:re":   {"read"},
		"mod:fu":   {"functions"},
	}
	for text, want := range completes {
		_, words := s.Complete(text)
		for _, w := range want {
			if !slices.Contains(words, w) {
				t.Errorf("Complete(%q) = %v, lacks %q", text, words, w)
			}
		}
	}
	if got := scripttest.Eval(t, s, `return mod.name, tostring(mod.base), mod.size > 0`); got[0].String() != "msgstats" ||
		!strings.HasPrefix(got[1].String(), "0x0f") || got[2].String() != "true" {
		t.Errorf("fields: %v", got)
	}
	scripttest.Eval(t, s, "app:close()")
}
