package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
	lua "github.com/yuin/gopher-lua"
)

// TestStackBindingsHelpAndCompletion: the register and stack bindings have help text and
// complete.
func TestStackBindingsHelpAndCompletion(t *testing.T) {
	s, _ := scripttest.New(t)
	scripttest.Eval(t, s, `app = dpcl.launch("../../probes/testdata/stack-O0.elf", {quiet = true})`)
	helps := map[string]string{
		"probe.reg":     `"r0".."r31", "sp" (r1) or "lr"`,
		"probe.lr":      "the address it returns to",
		"probe.sp":      "stack pointer r1",
		"probe.ustack":  "per frame walked",
		"app.symbolize": "function+0xoff (file.c:line)",
	}
	for expr, want := range helps {
		v := scripttest.Eval(t, s, "return "+expr)
		var b bytes.Buffer
		s.Help(&b, v[0])
		if !strings.Contains(b.String(), want) {
			t.Errorf("help(%s) lacks %q:\n%s", expr, want, b.String())
		}
	}
	for text, want := range map[string][]string{
		"probe.us": {"ustack"}, "probe.re": {"reg", "retval"}, "probe.l": {"lr"}, "app:sy": {"symbolize"},
	} {
		_, words := s.Complete(text)
		for _, w := range want {
			if !slices.Contains(words, w) {
				t.Errorf("Complete(%q) = %v, lacks %q", text, words, w)
			}
		}
	}
	scripttest.Eval(t, s, "app:close()")
}

// TestSymbolize: app:symbolize names a return address by the call before it, and a stack
// up to its first 0.
func TestSymbolize(t *testing.T) {
	s, _ := scripttest.New(t)
	v := scripttest.Eval(t, s, `app = dpcl.launch("../../probes/testdata/stack-O0.elf", {quiet = true})
		local up = app:functions("up")[1]
		local one = app:symbolize(up.addr + 8)
		local t = app:symbolize({up.addr + 8, 0, up.addr + 8})
		app:close()
		return one, #t, t[1]`)
	one := lua.LVAsString(v[0])
	if !strings.HasPrefix(one, "up+0x8 (stack.c:") || one != lua.LVAsString(v[2]) || lua.LVAsNumber(v[1]) != 1 {
		t.Errorf("symbolize = %q, a table of %v frames starting %q; want up+0x8 (stack.c:N) and one frame", one, v[1], v[2])
	}
	v = scripttest.Eval(t, s, `local a = dpcl.launch("../../probes/testdata/stack-O0.elf", {quiet = true})
		local ok, err = pcall(a.symbolize, a, {1, "x"}); a:close(); return err`)
	if err := lua.LVAsString(v[0]); !strings.Contains(err, "value 2 of the stack is a string, not an address") {
		t.Errorf("symbolize of a string: %q", err)
	}
}
