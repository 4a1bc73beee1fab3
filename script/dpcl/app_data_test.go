package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestDataBindingsHelpAndCompletion: every binding of the probe language's data has help
// text and completes.
func TestDataBindingsHelpAndCompletion(t *testing.T) {
	s, _ := scripttest.New(t)
	scripttest.Eval(t, s, `app = dpcl.launch("../../probes/testdata/globals.elf", {quiet = true})
		arr = app:array("int", 4); stk = app:stack("int64", 8); g = app:global("grid")`)
	helps := map[string]string{
		"app.array":      "app:array(\"int\"|\"int64\"|\"double\", n [, name]) -> Array",
		"app.stack":      "counted: s:overflows(), s:underflows()",
		"app.global":     "typed from DWARF",
		"app.func_name":  "probe.func() calls id",
		"probe.point":    "in the list it was installed on",
		"probe.func":     "app:func_name(id)",
		"probe.load":     "counts a fault (h:stats().faults)",
		"probe.store":    "does nothing and counts a fault",
		"probe.timebase": "ticks of dpcl.timebase_hz (700e6 on BG/L",
		"probe.send":     "up to 256 values",
		"arr.set":        "Out of range: no store, one overflow",
		"arr.read":       "t[i+1] is a[i]",
		"arr.overflows":  "summed over every rank",
		"stk.push":       "A full stack refuses it",
		"stk.pop":        "an empty stack yields 0",
		"stk.depth":      "number of elements",
		"stk.underflows": "Pops of an empty stack",
		"g.deref":        "probe.arg(0):deref(\"int\", 4)",
		"g.field":        "a method name hides",
		"dpcl":           "dpcl.timebase_hz is the rate of probe.timebase()",
		"'probe.Array'":  "a[i], #a",
		"'probe.Stack'":  "push, pop and depth build expressions",
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
		"app:ar":   {"array"},
		"app:gl":   {"global"},
		"app:fu":   {"func_name", "functions"},
		"arr:ov":   {"overflows"},
		"stk:un":   {"underflows"},
		"stk:de":   {"depth"},
		"probe.po": {"point"},
		"probe.lo": {"load"},
		"g:de":     {"deref"},
	}
	for text, want := range completes {
		_, words := s.Complete(text)
		for _, w := range want {
			if !slices.Contains(words, w) {
				t.Errorf("Complete(%q) = %v, lacks %q", text, words, w)
			}
		}
	}
	scripttest.Eval(t, s, "app:close()")
}
