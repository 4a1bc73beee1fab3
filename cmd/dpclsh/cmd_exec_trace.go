package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// execTraceChunk runs the program under limpio.trace and writes the Perfetto JSON: what
// `dpclsh exec --trace` does instead of running the job without the tool. Its parameters
// arrive in the global EXEC; it leaves the ranks' fault reports, the trace's summary and
// the highest rank status in REPORTS, INFO and STATUS.
const execTraceChunk = `
local o = EXEC
local limpio = require("limpio")
dpcl.check_write(o.trace)
local app = dpcl.launch(o.exe, o.launch)
local ok, err = pcall(function()
  local tr = limpio.trace(app)
  app:start()
  local st = app:wait()
  REPORTS = st.reports
  INFO = tr:perfetto(o.trace)
  STATUS = 0
  for _, code in pairs(st.codes) do STATUS = math.max(STATUS, code) end
end)
app:close()
if not ok then error(err, 0) end
`

const execTraceChunkName = "dpclsh exec --trace"

// tracedExec is a traced run's job: the exec options dpcl.launch takes.
type tracedExec struct {
	exe, trace       string
	args, env        []string
	nodes, perIO     int
	partition        int
	mapping, workdir string
	seed             uint64
	memoryMB, quota  int
}

// runTracedExec runs the job under the tool, writes the trace, and returns the exit
// status as exec does: the highest rank status. The program's output is its own; the
// trace's summary and any fault reports go to stderr.
func runTracedExec(ctx context.Context, x tracedExec, stdout, stderr io.Writer) int {
	s, err := newSessionEnv(false, 0, x.env, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh exec: %v\n", err)
		return exitError
	}
	defer s.Close()
	shardSession(ctx, s)
	L := s.L
	launch := L.NewTable()
	launch.RawSetString("nodes", lua.LNumber(x.nodes))
	launch.RawSetString("per_io", lua.LNumber(x.perIO))
	launch.RawSetString("partition", lua.LNumber(x.partition))
	launch.RawSetString("workdir", lua.LString(x.workdir))
	launch.RawSetString("seed", lua.LNumber(x.seed))
	launch.RawSetString("memory_mb", lua.LNumber(x.memoryMB))
	launch.RawSetString("disk_quota_mb", lua.LNumber(x.quota))
	launch.RawSetString("args", stringList(L, x.args))
	if x.mapping != "" {
		launch.RawSetString("mapping", lua.LString(x.mapping))
	}
	o := L.NewTable()
	o.RawSetString("exe", lua.LString(x.exe))
	o.RawSetString("trace", lua.LString(x.trace))
	o.RawSetString("launch", launch)
	L.SetGlobal("EXEC", o)
	if err := s.DoString(execTraceChunk, execTraceChunkName); err != nil {
		msg := err.Error()
		if e, ok := chunkError(err, execTraceChunkName); ok {
			msg = e
		}
		fmt.Fprintf(stderr, "dpclsh exec: %s\n", strings.TrimSuffix(msg, "\n"))
		return exitError
	}
	if reports, ok := L.GetGlobal("REPORTS").(*lua.LTable); ok {
		reports.ForEach(func(_, v lua.LValue) { fmt.Fprintf(stderr, "dpclsh: %s\n", lua.LVAsString(v)) })
	}
	info := L.GetGlobal("INFO").(*lua.LTable)
	num := func(k string) int64 { return int64(lua.LVAsNumber(info.RawGetString(k))) }
	fmt.Fprintf(stderr, "dpclsh exec: trace: %d events, %d flows, %d bytes in %s (%d dropped)\n",
		num("events"), num("flows"), num("bytes"), x.trace, num("dropped"))
	return int(lua.LVAsNumber(L.GetGlobal("STATUS")))
}

// chunkError is the message of an error raised in the chunk named name, without its
// position there: the user wrote none of it.
func chunkError(err error, name string) (string, bool) {
	var e *script.Error
	if errors.As(err, &e) && e.File == name {
		return e.Msg, true
	}
	return "", false
}

// traceConflicts names the exec options a traced run cannot honour: the job runs under
// the tool's session, which launches it with dpcl.launch's options only.
func traceConflicts(set map[string]bool) error {
	for _, name := range []string{"label", "stats", "interp", "progress", "listen", "secret-file", "wait-for-tool"} {
		if set[name] {
			return fmt.Errorf("--trace runs the job under the tool, which does not take --%s", name)
		}
	}
	return nil
}
