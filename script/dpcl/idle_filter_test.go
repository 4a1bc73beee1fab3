package dpcl_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// TestIdleReportsFilterFailureOnce: in the REPL (the job advancing while the session
// idles) a failing filter is reported once, as it happens, without any app:wait; its
// handle turns "failed" and the other probe and the job go on.
func TestIdleReportsFilterFailureOnce(t *testing.T) {
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.DoString(`
app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, args = {"5"}, quiet = true})
bad = app:install(app:points("step", "entry"), probe.send(1),
  {filter = filter.load("../../examples/filters/fail_at.lua"), params = {wave = 2}})
got = {n = 0}
good = app:install(app:points("step", "entry"), probe.send(1),
  {filter = "sum", callback = function(m) got.n = got.n + m.value end})
bad:activate()
good:activate()
exits = {n = 0}
app:on("exit", function() exits.n = exits.n + 1 end)
app:start()`, "stdin")
	if err != nil {
		t.Fatal(err)
	}
	stop := s.StartIdle()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(out.String(), "failed at the") {
		s.RunPending()
		time.Sleep(time.Millisecond)
	}
	for time.Now().Before(deadline) {
		s.RunPending()
		if err := s.DoString(`done = exits.n == 16`, "stdin"); err != nil {
			t.Fatal(err)
		}
		if lua.LVAsBool(s.L.GetGlobal("done")) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	if err := s.DoString(`app:wait()
assert(bad.state == "failed", bad.state)
assert(good.state == "active", good.state)
assert(got.n == 80, "got " .. got.n)`, "stdin"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), "dpcl: probe 1 failed at the daemon of I/O node"); n != 1 {
		t.Fatalf("reported %d times:\n%s", n, out.String())
	}
}
