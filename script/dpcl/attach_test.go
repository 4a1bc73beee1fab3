package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestAttachBindingsHelpAndCompletion: dpcl.attach, app:detach, app:attached and
// bgl.launch have help text and complete.
func TestAttachBindingsHelpAndCompletion(t *testing.T) {
	s, _ := scripttest.New(t)
	scripttest.Eval(t, s, `job = bgl.launch("../../examples/apps/bin/hello_mpi.elf", {nodes = 2, per_io = 8, quiet = true})
app = dpcl.attach(job)`)
	helps := map[string]string{
		"dpcl.attach":  "dpclsh exec --listen 127.0.0.1:PORT",
		"app.detach":   "lets the job run on without the tool",
		"app.attached": "nil when the tool launched it",
		"bgl.launch":   "listen =",
		"job.wait":     "highest rank status",
	}
	for expr, want := range helps {
		v := scripttest.Eval(t, s, "return "+expr)
		var b bytes.Buffer
		s.Help(&b, v[0])
		if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), want) {
			t.Errorf("help(%s) lacks %q:\n%s", expr, want, b.String())
		}
	}
	for text, want := range map[string][]string{
		"dpcl.att": {"attach"}, "app:det": {"detach"}, "app:atta": {"attached"}, "bgl.la": {"launch"},
		"job:ad": {"address"},
	} {
		_, words := s.Complete(text)
		for _, w := range want {
			if !slices.Contains(words, w) {
				t.Errorf("Complete(%q) = %v, lacks %q", text, words, w)
			}
		}
	}
	scripttest.Eval(t, s, "app:detach() assert(job:wait() == 0) job:close()")
}
