package dpcl

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/scripttest"
)

// newShellSession is a session with output captured, closed at the end of the test.
func newShellSession(t *testing.T) (*script.Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

// TestCompleteProgramNames completes the program's function names, file:LINE places and
// data symbols inside the string arguments of app:points, app:functions, app:global.
func TestCompleteProgramNames(t *testing.T) {
	s, _ := scripttest.New(t)
	if err := s.DoString(`app = dpcl.launch("../../examples/apps/bin/ring.elf", {nodes = 8, per_io = 8, quiet = true})`, "t"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text, partial string
		has, hasNot   []string
	}{
		{`app:points("MPI_A`, "MPI_A", []string{"MPI_Allreduce"}, []string{"MPI_Send", "main"}},
		{`x = app:functions( 'MPI_Se`, "MPI_Se", []string{"MPI_Send"}, []string{"MPI_Recv"}},
		{`app:points("ring.c:`, "ring.c:", []string{"ring.c:20"}, []string{"main"}},
		{`app:points("mai`, "mai", []string{"main"}, []string{"ring.c:20"}},
		{`app:global("environ`, "environ", []string{"environ"}, []string{"main"}},
		{`app:points("MPI_A", "ent`, "ent", nil, []string{"MPI_Allreduce"}},
		{`nosuch:points("MPI_A`, "MPI_A", nil, []string{"MPI_Allreduce"}},
	}
	for _, tc := range tests {
		partial, words := s.Complete(tc.text)
		if partial != tc.partial {
			t.Errorf("Complete(%q): partial %q, want %q", tc.text, partial, tc.partial)
		}
		for _, w := range tc.has {
			if !slices.Contains(words, w) {
				t.Errorf("Complete(%q) lacks %q: %s", tc.text, w, strings.Join(words, " "))
			}
		}
		for _, w := range tc.hasNot {
			if slices.Contains(words, w) {
				t.Errorf("Complete(%q) offers %q", tc.text, w)
			}
		}
	}
}

const loopLaunch = `app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, args = {"6"}, quiet = true})
`

// TestHandleQueue: messages of a probe without a callback queue on its handle; h:next and
// h:messages take them in order; a batch session prints nothing.
func TestHandleQueue(t *testing.T) {
	s, out := scripttest.New(t)
	err := s.DoString(loopLaunch+`
n = app:var("int")
h = app:install(app:points("step", "entry"), probe.seq{n:assign(n + 1), probe.send(n)}, {filter = "sum"})
h:activate()
app:start()
app:wait()
st = h:stats()
first = h:next()
rest = {}
for m in h:messages() do rest[#rest + 1] = m.value end
print(st.queued, first.value, first.count, table.concat(rest, ","), h:next(), h:stats().queued)`, "t")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "6\t16\t16\t32,48,64,80,96\tnil\t0\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestCallbackErrors: the first error of a probe's callback is reported in full, the probe
// is deactivated after three with one line, and h:stats().errors counts them.
func TestCallbackErrors(t *testing.T) {
	s, out := scripttest.New(t)
	err := s.DoString(loopLaunch+`
calls = {n = 0}
h = app:install(app:points("step", "entry"), probe.send(1), {filter = "sum",
  callback = function(m) calls.n = calls.n + 1; error("bad value " .. m.value) end})
h:activate()
app:start()
app:wait()
print(calls.n, h:stats().errors, h.state)`, "t")
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Count(got, "dpcl: callback of probe") != 1 || !strings.Contains(got, "dpcl: callback of probe 1: t:5: bad value 16") {
		t.Errorf("the first error in full, once:\n%s", got)
	}
	if !strings.Contains(got, "dpcl: probe 1: the callback failed 3 times; probe deactivated (h:stats().errors)\n") {
		t.Errorf("no deactivation line:\n%s", got)
	}
	if !strings.HasSuffix(got, "3\t3\tinstalled\n") {
		t.Errorf("calls, errors, state:\n%s", got)
	}
}

// TestExecuteAfterEnd: one-shot handles end as "done"; app:execute on a finished job
// returns nil and a reason, so the sampling loop ends cleanly.
func TestExecuteAfterEnd(t *testing.T) {
	s, out := scripttest.New(t)
	err := s.DoString(strings.Replace(loopLaunch, `"6"`, `"20000"`, 1)+`
app:start()
h = app:execute(probe.send(probe.rank()), {filter = "sum"})
dpcl.sleep(0.002)
print(h.state, h:next().value)
samples = {n = 0}
while app:status() == "running" do
  dpcl.sleep(0.0005)
  local hh, why = app:execute(probe.send(1), {filter = "sum", print = false})
  if hh then samples.n = samples.n + 1 else samples.why = why end
end
print(app:status(), samples.n > 0, samples.why)
print(app:execute(probe.send(1)))`, "t")
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := "done\t120\n"
	if got := out.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\nnil\tapp:execute: no live rank in the context (the job's ranks have ended)\n") ||
		!strings.Contains(got, "exited\ttrue\t") {
		t.Errorf("output:\n%s", got)
	}
}

// TestUnits: times are virtual seconds with exact nanoseconds beside them, dpcl.poll
// takes virtual seconds, the timebase frequency is a constant, and the old spelling
// timeout_ms still works with one deprecation line per session.
func TestUnits(t *testing.T) {
	s, out := scripttest.New(t)
	err := s.DoString(loopLaunch+`
h = app:install(app:points("step", "entry"), probe.send(1), {filter = "sum", sync = "timeout", timeout_ms = 1})
h2 = app:install(app:points("step", "entry"), probe.send(1), {filter = "sum", sync = "timeout", timeout_ms = 2})
h3 = app:install(app:points("step", "entry"), probe.send(1), {filter = "sum", sync = "timeout", timeout = 0.001})
h:activate()
app:start()
dpcl.poll(0.0001)
app:wait()
m = h:next()
print(dpcl.timebase_hz, math.floor(m.time_ns) == m.time_ns, m.time == m.time_ns / 1e9, m.time > 0 and m.time < 0.1)`, "t")
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := "dpclsh: timeout_ms is deprecated and goes away in the next release: use timeout (virtual seconds)\n" +
		"700000000\ttrue\ttrue\ttrue\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// TestOptionChecks: option values out of range and unknown keys are errors that name the
// option and what is allowed; internal filter names are not offered.
func TestOptionChecks(t *testing.T) {
	const ring = `"../../examples/apps/bin/ring.elf"`
	tests := []struct{ src, want string }{
		{`dpcl.launch(` + ring + `, {nodes = 0})`, "nodes = 0 is out of range: want 1..65536"},
		{`dpcl.launch(` + ring + `, {nodes = 65537})`, "nodes = 65537 is out of range: want 1..65536"},
		{`dpcl.launch(` + ring + `, {nodes = 2.5})`, "nodes must be an integer, got number 2.5"},
		{`dpcl.launch(` + ring + `, {per_io = 4})`, "per_io = 4 is out of range: want 8..64"},
		{`dpcl.launch(` + ring + `, {seed = -1})`, "seed = -1 is out of range"},
		{`dpcl.launch(` + ring + `, {topology = "b:1"})`, `topology "b:1"`},
		{`dpcl.launch(` + ring + `, {args = {"1", {}}})`, "args[2] must be a string or a number, got table"},
		{`dpcl.launch(` + ring + `, {args = {x = "1"}})`, `args must be an array of strings, but it has the key "x"`},
		{`dpcl.launch(` + ring + `, {nodez = 3})`, `unknown option "nodez"`},
		{`dpcl.launch(` + ring + `, {[1] = 3})`, `unknown option "1"`},
		{`app = dpcl.launch(` + ring + `, {nodes = 8, per_io = 8, quiet = true})
app:install(app:points("MPI_Send"), probe.send(1), {fliter = "sum"})`, `unknown option "fliter" (allowed: context, filter, sync, timeout, timeout_ms, params, callback, print, warn)`},
		{`app = dpcl.launch(` + ring + `, {nodes = 8, per_io = 8, quiet = true})
app:install(app:points("MPI_Send"), probe.send(1), {filter = "nosuch"})`, `unknown filter "nosuch" (have [avg concat eqclass histogram mapmerge max min none sum topk])`},
		{`app = dpcl.launch(` + ring + `, {nodes = 8, per_io = 8, quiet = true})
app:install(app:points("MPI_Send"), probe.send(1), {filter = "sum", sync = "timeout", timeout = 0})`, "timeout must be a positive number of virtual seconds"},
		{`dpcl.poll(-1)`, "virtual_s must be a non-negative number"},
	}
	for _, tc := range tests {
		s, out := scripttest.New(t)
		err := s.DoString(tc.src, "t.lua")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\n  error %v, want %q\n%s", tc.src, err, tc.want, out.String())
		}
	}
}

// TestHelpStatesUnits: help() and help(dpcl) state the units rule.
func TestHelpStatesUnits(t *testing.T) {
	s, out := scripttest.New(t)
	if err := s.DoString(`help() help(dpcl) help("dpcl.Address")`, "t"); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.Count(got, "durations are seconds, virtual (simulated) unless the name says wall") != 2 ||
		!strings.Contains(got, "m.time_ns") || !strings.Contains(got, "printed as 0x%08x") {
		t.Errorf("help output:\n%s", got)
	}
}
