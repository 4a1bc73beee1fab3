package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestReplaceBindingsHelpAndCompletion: app:replace and probe.skip have help text and
// complete.
func TestReplaceBindingsHelpAndCompletion(t *testing.T) {
	s, _ := scripttest.New(t)
	scripttest.Eval(t, s, `app = dpcl.launch("../../probes/testdata/replace-O2.elf", {quiet = true})`)
	for expr, want := range map[string]string{
		"probe.skip":  "At a function entry only: returns from the function at once",
		"app.replace": "h:remove() restores fn",
	} {
		v := scripttest.Eval(t, s, "return "+expr)
		var b bytes.Buffer
		s.Help(&b, v[0])
		if !strings.Contains(b.String(), want) {
			t.Errorf("help(%s) lacks %q:\n%s", expr, want, b.String())
		}
	}
	for text, want := range map[string][]string{"probe.sk": {"skip"}, "app:rep": {"replace"}} {
		if _, words := s.Complete(text); !slices.Contains(words, want[0]) {
			t.Errorf("Complete(%q) = %v, lacks %q", text, words, want[0])
		}
	}
	scripttest.Eval(t, s, "app:close()")
}
