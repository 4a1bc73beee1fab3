package main

import (
	"bytes"
	"strconv"
	"syscall"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

const benchChunk = `
app = dpcl.launch(EXE, {nodes = NODES, per_io = 64, args = ARGS, quiet = true})
local last = 0
app:on("exit", function(ev) if ev.time_ns > last then last = ev.time_ns end end)
local prof
tr = nil
if MODE == "profile" then prof = limpio.profile(app) end
if MODE == "trace" then tr = limpio.trace(app, {}) end
app:start()
app:wait()
END_NS = last
`

// benchWrite writes the trace once the job has ended, timed on its own.
const benchWrite = `
EVENTS, BYTES = 0, 0
if tr then
  local info = tr:perfetto(OUT)
  EVENTS, BYTES = info.events, info.bytes
end
app:close()
`

// benchLimpio runs one program once per iteration, bare or under limpio, and reports the
// virtual time at which its last rank exited (ns) and, for traces, events, bytes and the
// host seconds, wall and CPU, of the run (probes' messages received and decoded as they
// arrive) and of writing the Perfetto file.
func benchLimpio(b *testing.B, exe string, nodes int, args []string, mode string) {
	inRoot(b)
	out := b.TempDir() + "/trace.json"
	for i := 0; i < b.N; i++ {
		var buf bytes.Buffer
		s, err := newSession(false, 0, &buf, &buf)
		if err != nil {
			b.Fatal(err)
		}
		L := s.L
		L.SetGlobal("EXE", lua.LString(exe))
		L.SetGlobal("NODES", lua.LNumber(nodes))
		L.SetGlobal("ARGS", stringList(L, args))
		L.SetGlobal("MODE", lua.LString(mode))
		L.SetGlobal("OUT", lua.LString(out))
		t0, c0 := time.Now(), cpuSeconds()
		if err := s.DoString(benchChunk, "bench"); err != nil {
			b.Fatalf("%v\n%s", err, buf.String())
		}
		t1, c1 := time.Now(), cpuSeconds()
		if err := s.DoString(benchWrite, "bench-write"); err != nil {
			b.Fatalf("%v\n%s", err, buf.String())
		}
		t2, c2 := time.Now(), cpuSeconds()
		b.ReportMetric(float64(L.GetGlobal("END_NS").(lua.LNumber)), "virtual-ns")
		if mode == "trace" {
			b.ReportMetric(float64(L.GetGlobal("EVENTS").(lua.LNumber)), "events")
			b.ReportMetric(float64(L.GetGlobal("BYTES").(lua.LNumber)), "bytes")
			b.ReportMetric(t1.Sub(t0).Seconds(), "run-s")
			b.ReportMetric(t2.Sub(t1).Seconds(), "write-s")
			b.ReportMetric(c1-c0, "run-cpu-s")
			b.ReportMetric(c2-c1, "write-cpu-s")
		}
		s.Close()
	}
}

// cpuSeconds is the process's user and system time: what a benchmark costs on a host
// other work also loads.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// BenchmarkLimpioProfile: jacobi and cg at 256 ranks, bare and profiled, side by side
// (examples/bench/limpio_overhead.sh alternates them and takes medians).
func BenchmarkLimpioProfile(b *testing.B) {
	apps := []struct {
		name string
		args []string
	}{{"jacobi", []string{"64", "20"}}, {"cg", []string{"256", "20"}}}
	for _, a := range apps {
		for _, mode := range []string{"bare", "profile"} {
			b.Run(a.name+"/"+mode, func(b *testing.B) {
				benchLimpio(b, "examples/apps/bin/"+a.name+".elf", 256, a.args, mode)
			})
		}
	}
}

// BenchmarkLimpioTrace: 1,024 ranks of jacobi, 100 iterations, traced to Perfetto JSON.
func BenchmarkLimpioTrace(b *testing.B) {
	benchLimpio(b, "examples/apps/bin/jacobi.elf", 1024, []string{"64", strconv.Itoa(100)}, "trace")
}
