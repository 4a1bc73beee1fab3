package dpcl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/fileout"
	lua "github.com/yuin/gopher-lua"
)

// profileTypeName is the metatable name of sampling profiles.
const profileTypeName = "dpcl.Profile"

// appSampleMethods are the application's sampling profiler.
var appSampleMethods = []script.Function{
	{Name: "sample", Doc: fmt.Sprintf(`app:sample{hz = 1000, stack = 16, context = c} -> Profile
Samples the context's ranks (default: all) hz times per second of each rank's own
virtual time (1..%d): a timer interrupt records the pc and stack frames of the call
chain (the r1 back chain, walked as probe.ustack), as perf and HPCToolkit do. Overhead
per sample: %d virtual cycles, plus %d per frame walked (at 1000 Hz, 700000 cycles apart,
about 0.02 %%). prof:top(n), prof:lines(file) and prof:pprof(path) read the samples
taken so far; prof:stop() ends sampling.`, runtime.MaxSampleHz, bgl.SampleCostCycles, bgl.SampleFrameCycles), Fn: appSample},
}

func init() {
	script.RegisterType(script.Type{
		Name: profileTypeName,
		Doc:  "Profile — a sampling profile (app:sample).",
		Methods: []script.Function{
			{Name: "top", Doc: `prof:top([n]) -> {{func=, samples=, percent=}, ...}
The n functions (default 10) where the most samples stopped, most first; inlined code
counts in the function it is inlined into.`, Fn: profileTop},
			{Name: "lines", Doc: `prof:lines(file) -> {{line=, samples=, percent=}, ...}
Samples per source line of file ("hot.c" or a path suffix), most first; percent of all
samples.`, Fn: profileLines},
			{Name: "pprof", Doc: `prof:pprof(path)
Writes the profile in pprof's format (gzipped protobuf; go tool pprof -http=: path shows
flame graphs, top lists and source): sample types samples and cycles, functions, lines
and inlined frames from the program's DWARF.`, Fn: profilePprof},
			{Name: "stop", Doc: "prof:stop()\nEnds the sampling; the samples taken stay readable.", Fn: profileStop},
		},
	})
}

func appSample(L *lua.LState) int {
	app := checkApp1(L)
	t := L.OptTable(2, L.NewTable())
	if err := script.CheckKeys(t, []string{"hz", "stack", "context"}); err != nil {
		L.ArgError(2, err.Error())
	}
	hz, depth := 1000, 16
	if v, ok := t.RawGetString("hz").(lua.LNumber); ok {
		hz = int(v)
	}
	if v, ok := t.RawGetString("stack").(lua.LNumber); ok {
		depth = int(v)
	}
	var ctx *contexts.Set
	if cv := t.RawGetString("context"); cv != lua.LNil {
		c, ok := script.ContextOf(cv)
		if !ok {
			L.ArgError(2, "context must be a ctx.Context, got "+script.Describe(cv))
		}
		ctx = c.Set.Copy()
	}
	p, err := app.Sample(hz, depth, ctx)
	if err != nil {
		return appErr(L, "sample", err)
	}
	L.Push(script.NewObject(L, profileTypeName, p))
	return 1
}

func profileTop(L *lua.LState) int {
	p := script.CheckObject[*runtime.Profile](L, 1, profileTypeName)
	return pushCounts(L, p.Top(L.OptInt(2, 10)), "func")
}

func profileLines(L *lua.LState) int {
	p := script.CheckObject[*runtime.Profile](L, 1, profileTypeName)
	return pushCounts(L, p.Lines(L.CheckString(2)), "line")
}

// pushCounts pushes a profile table as a list of rows, the name under key.
func pushCounts(L *lua.LState, rows []runtime.Count, key string) int {
	out := L.NewTable()
	for _, r := range rows {
		row := L.NewTable()
		row.RawSetString(key, lua.LString(r.Name))
		row.RawSetString("samples", lua.LNumber(r.Samples))
		row.RawSetString("percent", lua.LNumber(r.Percent))
		out.Append(row)
	}
	L.Push(out)
	return 1
}

func profilePprof(L *lua.LState) int {
	p := script.CheckObject[*runtime.Profile](L, 1, profileTypeName)
	prof := pprofProfile(p.Program(), p.Samples(), int64(p.Period))
	if err := fileout.WriteFunc(L.CheckString(2), fileout.Public, prof.Write); err != nil {
		L.RaiseError("prof:pprof: %s", err.Error())
	}
	return 0
}

func profileStop(L *lua.LState) int {
	script.CheckObject[*runtime.Profile](L, 1, profileTypeName).Stop()
	return 0
}
