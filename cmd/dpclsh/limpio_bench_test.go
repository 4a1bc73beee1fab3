package main

import (
	"bytes"
	"strconv"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

const benchChunk = `
local app = dpcl.launch(EXE, {nodes = NODES, per_io = 64, args = ARGS, quiet = true})
local last = 0
app:on("exit", function(ev) if ev.time_ns > last then last = ev.time_ns end end)
local prof, tr
if MODE == "profile" then prof = limpio.profile(app) end
if MODE == "trace" then tr = limpio.trace(app, {}) end
app:start()
app:wait()
END_NS = last
EVENTS, BYTES = 0, 0
if tr then
  local info = tr:perfetto(OUT)
  EVENTS, BYTES = info.events, info.bytes
end
app:close()
`

// benchLimpio runs one program once per iteration, bare or under limpio, and reports the
// virtual time at which its last rank exited (ns) and, for traces, events and bytes.
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
		if err := s.DoString(benchChunk, "bench"); err != nil {
			b.Fatalf("%v\n%s", err, buf.String())
		}
		b.ReportMetric(float64(L.GetGlobal("END_NS").(lua.LNumber)), "virtual-ns")
		if mode == "trace" {
			b.ReportMetric(float64(L.GetGlobal("EVENTS").(lua.LNumber)), "events")
			b.ReportMetric(float64(L.GetGlobal("BYTES").(lua.LNumber)), "bytes")
		}
		s.Close()
	}
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
