package dpcl_test

import (
	"bytes"
	"os"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/script"

	lua "github.com/yuin/gopher-lua"
)

func runDpcl(t *testing.T, path string) string {
	t.Helper()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoFile(path, nil); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return out.String()
}

// virtualTimes matches the virtual timestamps loop.lua prints. They are left out of the
// golden comparison: glibc's start-up reads /proc/self/exe, whose answer is the program's
// absolute path, so the times shift with where the checkout lives. TestDpclDeterminism
// checks that they do not change between runs.
var virtualTimes = regexp.MustCompile(`at [0-9]+ ns`)

func TestDpclSession(t *testing.T) {
	got := virtualTimes.ReplaceAllString(runDpcl(t, "testdata/dpcl/loop.lua"), "at T ns")
	want, err := os.ReadFile("testdata/dpcl/loop.golden")
	if os.Getenv("DPCL_REWRITE") != "" {
		os.WriteFile("testdata/dpcl/loop.golden", []byte(got), 0o644)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("output differs from testdata/dpcl/loop.golden:\n%s", got)
	}
	for _, s := range []string{"callback failure on wave 3", "loop.lua:", "wave 12:"} {
		if !strings.Contains(got, s) {
			t.Errorf("output lacks %q", s)
		}
	}
}

// TestDpclDeterminism runs the whole session under one and two worker threads.
func TestDpclDeterminism(t *testing.T) {
	old := goruntime.GOMAXPROCS(1)
	one := runDpcl(t, "testdata/dpcl/loop.lua")
	goruntime.GOMAXPROCS(2)
	two := runDpcl(t, "testdata/dpcl/loop.lua")
	goruntime.GOMAXPROCS(8)
	eight := runDpcl(t, "testdata/dpcl/loop.lua")
	goruntime.GOMAXPROCS(old)
	if one != two || one != eight {
		t.Fatalf("GOMAXPROCS=1:\n%s\nGOMAXPROCS=2:\n%s\nGOMAXPROCS=8:\n%s", one, two, eight)
	}
}

func TestDpclErrors(t *testing.T) {
	const launch = `local app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, quiet = true})
`
	tests := []struct{ src, want string }{
		{`dpcl.launch("no/such.elf")`, "dpcl.launch: launch: open no/such.elf"},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodez = 3})`, `unknown option "nodez"`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 0})`, "nodes = 0 is out of range: want 1..65536"},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 70000})`, "nodes = 70000 is out of range"},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {per_io = 3})`, "per_io = 3 is out of range: want 8..64"},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {topology = "k:1"})`, `topology "k:1": the K of "k:K" must be an integer >= 2`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, topology = "b:4^2"})`, `16 back-ends, but the job has 2 I/O nodes`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {costs = {daemon_recv_nz = 1}})`, `costs: daemon_recv_nz: unknown parameter`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {costs = {fe_recv_ns = -1}})`, `costs: fe_recv_ns: -1 is not a non-negative number`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {costs = {io_latency_ns = "fast"}})`, `costs: io_latency_ns must be a number`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {costs = "bgq"})`, `costs: bgq: no such parameter set`},
		{`dpcl.launch("../../runtime/testdata/bin/loop.elf", {clocks = {seed = 1, skew = 3}})`, `clocks: unknown key "skew"`},
		{launch + `app:install(app:points("tick", "entry"), true)`, "use e:eq(x)"},
		{launch + `app:install({}, 1)`, "no points"},
		{launch + `app:points("nothing_matches*", "entry")`, `no function matches function "nothing_matches*"`},
		{launch + `app:points("mian")`, "did you mean main"},
		{launch + `app:points{regex = "^MPI_Nothing$"}`, "no function matches function regexp"},
		{launch + `app:points{regex = "("}`, "bad function regexp"},
		{launch + `app:points{regex = "^main$", knd = "exit"}`, `unknown key "knd"`},
		{launch + `app:points(0x3)`, "not inside a known function"},
		{launch + `app:points("loop.c:100000")`, "no code at this line"},
		{launch + `app:install(app:points("tick", "entry"), 1, {filter = "nosuch"})`, "nosuch"},
		{launch + `app:wait()`, "the job has not started"},
		{launch + `local h = app:install(app:points("tick", "entry"), 1); h:remove(); h:activate()`, "probe 1 is removed"},
		{launch + `app:on("crash", print)`, `event must be "exit", "fault", "unsupported", "memory" or "watch"`},
		{launch + `app:process(16)`, "rank 16 is not in 0..15"},
		{launch + `app:process(3):reg("r99")`, `no register "r99"`},
		{launch + `app:close(); app:start()`, "the application is closed"},
		// execute after the job's end returns nil and a reason (raised here to check it)
		{launch + `app:start(); app:wait(); local h, why = app:execute(probe.send(1)); assert(h == nil); error(why)`,
			"app:execute: no live rank in the context (the job's ranks have ended)"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		err = s.DoString(tc.src, "t.lua")
		s.Close()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\n  error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestDpclIdleAdvances lets the REPL's idle time run the job: callbacks arrive on the
// session goroutine while no chunk runs.
func TestDpclIdleAdvances(t *testing.T) {
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.DoString(`
app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 16, per_io = 8, args = {"5"}, quiet = true})
n = app:var("int")
got = 0
h = app:install(app:points("step", "entry"), probe.seq{n:assign(n + 1), probe.send(n)},
  {filter = "sum", callback = function(m) got = got + 1 end})
h:activate()
exits = 0
app:on("exit", function() exits = exits + 1 end)
app:start()`, "stdin")
	if err != nil {
		t.Fatal(err)
	}
	stop := s.StartIdle()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		s.RunPending()
		if lua.LVAsNumber(s.L.GetGlobal("exits")) == 16 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	stop()
	if err := s.DoString(`assert(got == 5, "got " .. got); assert(app:status() == "exited", app:status())`, "stdin"); err != nil {
		t.Fatal(err)
	}
}

// TestDpclDeterminismMPI runs the quickstart on 64 ranks of the MPI jacobi, program output
// included, under one and two worker threads: the same bytes.
func TestDpclDeterminismMPI(t *testing.T) {
	if _, err := os.Stat("../../examples/apps/bin/jacobi.elf"); err != nil {
		t.Skip("SKIP: examples/apps/bin/jacobi.elf is not built")
	}
	src := `local q = dofile("../../examples/quickstart.lua")
q.run{exe = "../../examples/apps/bin/jacobi.elf", nodes = 64, per_io = 8, grid = 32, iters = 12}`
	runSrc := func() string {
		var out bytes.Buffer
		s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.DoString(src, "det.lua"); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return out.String()
	}
	old := goruntime.GOMAXPROCS(1)
	one := runSrc()
	goruntime.GOMAXPROCS(2)
	two := runSrc()
	goruntime.GOMAXPROCS(old)
	if one != two || !strings.Contains(one, "probe removed after iteration 6") {
		t.Fatalf("GOMAXPROCS=1:\n%s\nGOMAXPROCS=2:\n%s", one, two)
	}
}
