package dpcl_test

import (
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script/dpcl"

	"github.com/dpclsh/dpclsh/script/scripttest"
)

// TestDpclRefusesAWiderContext: a probe's context may not name more ranks than the job has.
func TestDpclRefusesAWiderContext(t *testing.T) {
	s, _ := scripttest.New(t)
	err := s.DoString(`local app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, quiet = true})
app:install(app:points("tick", "entry"), 1, {context = ctx.all(17)})`, "t.lua")
	if err == nil || !strings.Contains(err.Error(), "context of 17 ranks for an application of 16") {
		t.Errorf("error %v, want the context's size named", err)
	}
}

// TestHandlePrintsInREPL: in an interactive session the messages of a probe without a
// callback are printed as they arrive, unless print = false.
func TestHandlePrintsInREPL(t *testing.T) {
	s, out := scripttest.New(t)
	dpcl.SetInteractive(s, true)
	err := s.DoString(`app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, args = {"6"}, quiet = true})

n = app:var("int")
h = app:install(app:points("step", "entry"), probe.seq{n:assign(n + 1), probe.send(n)}, {filter = "sum"})
q = app:install(app:points("step", "entry"), probe.send(probe.rank()), {context = ctx.single(app, 3), print = false})
h:activate() q:activate()
app:start()
app:wait()
print(q:stats().queued, h:stats().queued, q:next().rank)`, "t")
	if err != nil {
		t.Fatal(err)
	}
	// waves that spent over a millisecond in the tree say so
	want := "probe 1 (16 ranks): 16\n" +
		"probe 1 (16 ranks): 32  (sent 0.015 ms, 1.9 ms in the tree)\n" +
		"probe 1 (16 ranks): 48  (sent 0.015-0.016 ms, 3.4 ms in the tree)\n" +
		"probe 1 (16 ranks): 64  (sent 0.016-0.017 ms, 4.5 ms in the tree)\n" +
		"probe 1 (16 ranks): 80  (sent 0.016-0.017 ms, 5.0 ms in the tree)\n" +
		"probe 1 (16 ranks): 96  (sent 0.016-0.018 ms, 5.2 ms in the tree)\n6\t0\t3\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	if err := s.DoString(`app:install(app:points("step"), 1, {print = 1})`, "t"); err == nil || !strings.Contains(err.Error(), "print must be a boolean") {
		t.Errorf("print = 1: %v", err)
	}
}
