package dpcl

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script"
)

func runChunk(t *testing.T, src string) string {
	t.Helper()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoString(src, "t.lua"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return out.String()
}

// TestAppCosts checks that a launch's costs reach the application: a named set, a table
// over a set, and app:costs() printing every parameter with its source.
func TestAppCosts(t *testing.T) {
	out := runChunk(t, `
local app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 8, per_io = 8, quiet = true,
  costs = {set = "ubgl", fe_recv_ns = 12345}})
local c = app:costs()
print("values", c.fe_recv_ns, c.io_latency_ns, c.daemon_recv_ns)
app:close()
local d = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 8, per_io = 8, quiet = true, costs = "default"})
print("default", d:costs().io_latency_ns)
d:close()`)
	for _, want := range []string{"values\t12345\t53598446\t20000", "default\t60000",
		"fe_recv_ns", "front-end: receive and hand one message", "cn_latency_ns", "Gara et al. 2005"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
