package dpcl

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script/ui"
	lua "github.com/yuin/gopher-lua"
)

const appTypeName = "dpcl.Application"

// luaApp is an application as Lua sees it. It is a CtxIONodeApp, so ctx constructors
// accept it in place of a size.
type luaApp struct {
	app       *runtime.App
	callbacks map[uint32]*lua.LFunction
	// sinks take a handle's messages in Go instead (log:attach, trace_batch.go)
	sinks   map[uint32]messageSink
	on      map[string][]*lua.LFunction
	handles map[uint32]*lua.LUserData
	// counters are the machine's counters, which the progress line shows while one is
	// (progress_session.go).
	counters *bgl.Progress
	// ud is the application's Lua object; modstate the module library's state for it
	// (modules.go).
	ud       *lua.LUserData
	modstate *lua.LTable
	server   *ui.Server // app:serve's page, closed with the application
	// size and part are the job's shape, fixed at launch: ctx constructors (CtxIONodeApp)
	// read them, also after app:close, without reaching the closed runtime.App.
	size int
	part *bgl.Partition
	// neverRanTold: the job's end was seen and its probes that never ran were named
	// (never_ran.go).
	neverRanTold bool
	// stats is where the job's account goes when it closes (SetStats), nil for nowhere.
	stats *jobStats
}

func (a *luaApp) closed() bool { return a.app == nil }

// Size implements CtxApp: the job's number of ranks.
func (a *luaApp) Size() int { return a.size }

// IONodeOf implements CtxIONodeApp: the I/O node (0-based) serving rank.
func (a *luaApp) IONodeOf(rank int) int { return a.part.IONodeOfRank(rank) }

func (a *luaApp) close() error {
	if a.app == nil {
		return nil
	}
	var account error
	if a.stats != nil {
		account = a.printAccount()
	}
	err := errors.Join(account, a.closeServer(), a.app.Close())
	a.app = nil
	return err
}

func init() {
	script.RegisterType(script.Type{
		Name: appTypeName, Receiver: "app",
		Doc: "An MPI job under the tool (DPCL's POE application): app.size, #app, and the methods below.",
		Methods: append([]script.Function{
			{Name: "start", Doc: "app:start()\nReleases every rank (the job was launched stopped at entry).", Fn: appStart},
			{Name: "suspend", Doc: "app:suspend()\nHolds every live rank.", Fn: appSuspend},
			{Name: "resume", Doc: "app:resume()\nReleases the ranks app:suspend held.", Fn: appResume},
			{Name: "terminate", Doc: "app:terminate()\nEnds the job: live ranks count as killed (status 137).", Fn: appTerminate},
			{Name: "wait", Doc: `app:wait([wall_s]) -> {exited=, faulted=, running=, codes={[rank]=status}, reports={...}}
Runs the machine, dispatching callbacks, until the job ends (or wall_s wall-clock seconds pass).
reports: one line per faulted rank, in rank order, naming the code and its callers.`, Fn: appWait},
			{Name: "status", Doc: `app:status() -> "created"|"running"|"suspended"|"exited"|"faulted"`, Fn: appStatus},
			{Name: "now", Doc: "app:now() -> ns\nThe machine's virtual time in ns (where the job's clock stands now).", Fn: appNow},
			{Name: "close", Doc: "app:close()\nEnds the job and its tree.", Fn: appClose},
			{Name: "proctable", Doc: "app:proctable() -> {{rank=, node=, ionode=, pid=, exe=}, ...}\nThe MPIR proctable (0-based).", Fn: appProctable},
			{Name: "process", Doc: "app:process(rank) -> Process\n:status() :pc() :reg(name) :read(addr, n) :backtrace()", Fn: appProcess},
			{Name: "functions", Doc: appFunctionsDoc, Fn: appFunctions},
			{Name: "points", Doc: appPointsDoc, Fn: appPoints},
			{Name: "on", Doc: `app:on("exit"|"fault"|"unsupported"|"memory", fn)
fn(ev) runs for every rank that exits or faults: ev.rank, ev.pc, ev.signal, ev.status, ev.time;
"unsupported": a system call the CNK refuses (fork, execve: one process per node);
"memory": brk or mmap got ENOMEM. ev.message says what happened; a fault's ev.report is the
line naming its code and callers (as app:wait's reports). Without a handler, these
two are printed on the session's stderr.`, Fn: appOn},
			{Name: "costs", Doc: `app:costs() -> {key = value}
Prints the cost model of the tool's processes and links (virtual ns; per byte or per value
where the key says so), one line per parameter with its source, and returns it.`, Fn: appCosts},
			{Name: "tree", Doc: `app:tree() -> {{name=, kind=, index=, parent=, depth=, offset_ns=, busy_ns=}, ...}
The tool's processes: I/O-node daemons, comm nodes, the front-end; each with its parent, its
distance to the front-end, its clock's true offset (launch option clocks) and its busy time.`, Fn: appTree},
			{Name: "measure_clocks", Doc: `app:measure_clocks() -> {[io] = offset_ns}
MRNet's clock-skew detection: a probe down every link of the tool's tree and its answer
back, each process reading its own clock; each parent takes its child's offset from the
round trip (queueing included) and adds it to what came from below. Returns every
I/O-node daemon's measured clock minus the front-end's, keyed by I/O node.`, Fn: appMeasureClocks},
			{Name: "instantiation", Doc: `app:instantiation() -> {total_ns=, processes={{name=, parent=, launch_ns=, connected_ns=, ready_ns=}, ...}}
How the tool's processes were created, in virtual ns before the job's time 0, as MRNet's
first mode does it: each parent starts its children one after the other (remote exec,
process start, connect, authenticate, configuration), subtrees grow concurrently, and each
subtree's root reports to its parent once its subtree is up. total_ns: until the front-end
has every report. app:costs() lists the launch_* parameters.`, Fn: appInstantiation},
			{Name: "last_command", Doc: `app:last_command() -> {op=, daemons=, down_ns=, round_trip_ns=}
The modeled timing of the last command sent to the daemons (install, activate, execute...):
until the last daemon applied it (down_ns) and until its answer was back (round_trip_ns).`, Fn: appLastCommand},
			{Name: "var", Doc: `app:var("int"|"int64"|"double") -> Exp
A probe variable: one slot per process, at the same address on every node.`, Fn: appVar},
			{Name: "install", Doc: `app:install(points, exp, {context=, filter=, sync=, timeout=, params=, callback=, print=, warn=}) -> ProbeHandle
Compiles exp once and splices it into every point on the context's ranks; the probe starts
inactive (h:activate()). filter: a built-in name or filter.load object. callback(m) gets
m.values, m.value, m.rank (nil once aggregated), m.count, and m.time: the virtual time the
message reached the front-end through the tool's tree (app:costs() says what each hop costs).
m.sent = {first=, last=} is when the earliest and the latest packet merged into it left
their ranks (virtual seconds; first_ns, last_ns exact): m.time - m.sent.last is how long
the data spent in the tree, so a message may describe the program as it was well before now.
print: true prints each message as it arrives (the default in the shell); without a
callback, messages otherwise queue for h:next(), and what is left unread is printed when
the script ends; print = false keeps them quiet then too. When the job ends, a probe none
of whose points ran is named on stderr; warn = false keeps it quiet (a tool's probes on
every function of a kind).`, Fn: appInstall},
			{Name: "install_all", Doc: `app:install_all{{points, exp, opts}, ...} -> {ProbeHandle, ...}
app:install of each probe, in order (at a point several share, they run in the order
given), with one patch command: each point's code is placed once with all of them, where
installs one after another place a point's code again with every earlier probe there.
opts may also say active = true: the probe is placed on, with no h:activate() after.
Nothing is installed when a probe does not compile.`, Fn: appInstallAll},
			{Name: "execute", Doc: `app:execute(exp, {context=, filter=, callback=, ...}) -> ProbeHandle
Runs exp once on every live rank of the context (where each rank is, or when its current call returns).`, Fn: appExecute},
			{Name: "phase", Doc: appPhaseDoc, Fn: appPhase},
			{Name: "env", Doc: appEnvDoc, Fn: appEnv},
		}, slices.Concat(appDataMethods, appCModuleMethods, appModuleMethods, appServeMethods, appStackMethods, appEventLogMethods, appReplaceMethods, appWatchMethods, appSampleMethods, appAttachMethods)...),
		Meta: []script.Function{
			{Name: "__len", Doc: "#app -> number of ranks", Fn: func(L *lua.LState) int {
				L.Push(lua.LNumber(checkApp1(L).Size()))
				return 1
			}},
			{Name: "__tostring", Doc: "", Fn: func(L *lua.LState) int {
				a := script.CheckObject[*luaApp](L, 1, appTypeName)
				if a.closed() {
					L.Push(lua.LString("Application (closed)"))
					return 1
				}
				L.Push(lua.LString(fmt.Sprintf("Application %s (%d ranks, %s)", a.app.Exe(), a.app.Size(), a.app.Status())))
				return 1
			}},
		},
	})
}

// withFields makes typeName's __index answer the given fields before its methods.
func withFields(L *lua.LState, typeName string, fields func(L *lua.LState, ud *lua.LUserData, key string) (lua.LValue, bool)) {
	mt := L.GetTypeMetatable(typeName).(*lua.LTable)
	methods, ok := mt.RawGetString("__index").(*lua.LTable)
	if !ok {
		return
	}
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		ud := L.CheckUserData(1)
		key := L.CheckString(2)
		if v, ok := fields(L, ud, key); ok {
			L.Push(v)
			return 1
		}
		L.Push(methods.RawGetString(key))
		return 1
	}))
}

func checkApp1(L *lua.LState) *runtime.App {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	if a.closed() {
		L.RaiseError("the application is closed")
	}
	return a.app
}

func dpclLaunch(L *lua.LState) int {
	exe := checkLaunchProgram(L)
	s := script.SessionOf(L)
	la := &luaApp{callbacks: map[uint32]*lua.LFunction{}, on: map[string][]*lua.LFunction{},
		handles: map[uint32]*lua.LUserData{}}
	o := runtime.Options{Exe: exe, Stdout: jobOutput{s, false}, Stderr: jobOutput{s, true},
		Env: append([]string(nil), s.Env()...), Shard: script.ShardOf(s)}
	if t, ok := L.Get(2).(*lua.LTable); ok {
		if err := launchOptions(t, &o, s.Env()); err != nil {
			L.ArgError(2, err.Error())
		}
	} else if L.Get(2) != lua.LNil {
		L.ArgError(2, "options table expected")
	}
	if progressTarget(s) != nil {
		la.counters = &bgl.Progress{}
		o.Progress = la.counters
	}
	stop := showProgress(s, la.counters, "launch")
	app, err := runtime.Launch(o)
	stop()
	if err != nil {
		L.RaiseError("dpcl.launch: %s", script.ErrorText(err, "runtime"))
	}
	la.app, la.size, la.part = app, app.Size(), app.Partition()
	st := dpclOf(L)
	st.apps = append(st.apps, la)
	if w, ok := statsKey.Get(s); ok {
		la.stats = &jobStats{w: w, job: len(st.apps), name: filepath.Base(exe)}
	}
	st.startIdle()
	la.ud = withSize(L, script.NewObject(L, appTypeName, la), app.Size())
	moduleLaunched(L, la, la.ud)
	L.Push(la.ud)
	return 1
}

// withSize gives one application object its own metatable whose __index table holds the
// methods and the field size: app.size reads like a field, and completion, which looks
// at __index tables only, still sees every method.
func withSize(L *lua.LState, ud *lua.LUserData, size int) *lua.LUserData {
	shared := L.GetTypeMetatable(appTypeName).(*lua.LTable)
	mt, index := L.NewTable(), L.NewTable()
	shared.ForEach(func(k, v lua.LValue) { mt.RawSet(k, v) })
	if methods, ok := shared.RawGetString("__index").(*lua.LTable); ok {
		methods.ForEach(func(k, v lua.LValue) { index.RawSet(k, v) })
	}
	index.RawSetString("size", lua.LNumber(size))
	mt.RawSetString("__index", index)
	L.SetMetatable(ud, mt)
	return ud
}

var launchFields = map[string]func(o *runtime.Options, v lua.LValue) error{
	"nodes":  func(o *runtime.Options, v lua.LValue) error { return rangedInt(&o.Nodes, "nodes", v, 1, 65536) },
	"per_io": func(o *runtime.Options, v lua.LValue) error { return rangedInt(&o.PerIO, "per_io", v, 8, 64) },
	"memory_mb": func(o *runtime.Options, v lua.LValue) error {
		return intField(&o.MemoryMB, "memory_mb", v)
	},
	"disk_quota_mb": func(o *runtime.Options, v lua.LValue) error {
		return intField(&o.DiskQuotaMB, "disk_quota_mb", v)
	},
	"topology": func(o *runtime.Options, v lua.LValue) error { return strField(&o.Topology, "topology", v) },
	// partition is the block's compute nodes (at least nodes); mapping places the ranks:
	// "XYZT", "TXYZ" or an mpirun map file (runtime.Options.Mapping).
	"partition": func(o *runtime.Options, v lua.LValue) error {
		return rangedInt(&o.Partition, "partition", v, 1, 65536)
	},
	"mapping": func(o *runtime.Options, v lua.LValue) error { return strField(&o.Mapping, "mapping", v) },
	"workdir": func(o *runtime.Options, v lua.LValue) error { return strField(&o.Workdir, "workdir", v) },
	"costs":   costsOption,
	"clocks":  clocksOption,
	"seed": func(o *runtime.Options, v lua.LValue) error {
		var n int
		err := rangedInt(&n, "seed", v, 0, 1<<53)
		o.Seed = uint64(n)
		return err
	},
	"quiet": func(o *runtime.Options, v lua.LValue) error {
		if b, ok := v.(lua.LBool); !ok {
			return fmt.Errorf("quiet must be a boolean, got %s", script.Describe(v))
		} else if b {
			o.Stdout, o.Stderr = nil, nil
		}
		return nil
	},
	"args": func(o *runtime.Options, v lua.LValue) error {
		t, ok := v.(*lua.LTable)
		if !ok {
			return fmt.Errorf("args must be an array of strings, got %s", script.Describe(v))
		}
		n := t.Len()
		for i := 1; i <= n; i++ {
			switch a := t.RawGetInt(i).(type) {
			case lua.LString, lua.LNumber:
				o.Args = append(o.Args, lua.LVAsString(a))
			default:
				return fmt.Errorf("args[%d] must be a string or a number, got %s", i, script.Describe(a))
			}
		}
		var extra lua.LValue
		t.ForEach(func(k, _ lua.LValue) {
			if kn, ok := k.(lua.LNumber); !ok || float64(kn) != float64(int(kn)) || int(kn) < 1 || int(kn) > n {
				extra = k
			}
		})
		if extra != nil {
			return fmt.Errorf("args must be an array of strings, but it has the key %s", script.Format(nil, extra, script.DefaultFormat))
		}
		return nil
	},
}

// launchOptions reads dpcl.launch's options table into o; env and export are read
// together, after the session's environment base, since a name may not appear twice.
func launchOptions(t *lua.LTable, o *runtime.Options, base []string) error {
	var err error
	t.ForEach(func(k, v lua.LValue) {
		if err != nil {
			return
		}
		if name := lua.LVAsString(k); name == "env" || name == "export" {
			return
		}
		f, ok := launchFields[lua.LVAsString(k)]
		if !ok {
			err = unknownLaunchOption(lua.LVAsString(k))
			return
		}
		err = f(o, v)
	})
	if err != nil {
		return err
	}
	o.Env, err = launchEnv(base, t.RawGetString("env"), t.RawGetString("export"))
	return err
}

func intField(dst *int, name string, v lua.LValue) error {
	n, ok := v.(lua.LNumber)
	if !ok || float64(n) != float64(int(n)) {
		return fmt.Errorf("%s must be an integer, got %s", name, script.Describe(v))
	}
	*dst = int(n)
	return nil
}

// rangedInt is intField for an option with an allowed range, which the error names.
func rangedInt(dst *int, name string, v lua.LValue, lo, hi int) error {
	if err := intField(dst, name, v); err != nil {
		return err
	}
	if *dst < lo || *dst > hi {
		return fmt.Errorf("%s = %d is out of range: want %d..%d", name, *dst, lo, hi)
	}
	return nil
}

func strField(dst *string, name string, v lua.LValue) error {
	s, ok := v.(lua.LString)
	if !ok {
		return fmt.Errorf("%s must be a string, got %s", name, script.Describe(v))
	}
	*dst = string(s)
	return nil
}

func appErr(L *lua.LState, method string, err error) int {
	if err != nil {
		L.RaiseError("app:%s: %s", method, script.ErrorText(err, "runtime", "probes"))
	}
	return 0
}

func appStart(L *lua.LState) int     { return appErr(L, "start", checkApp1(L).Start()) }
func appSuspend(L *lua.LState) int   { return appErr(L, "suspend", checkApp1(L).Suspend()) }
func appResume(L *lua.LState) int    { return appErr(L, "resume", checkApp1(L).Resume()) }
func appTerminate(L *lua.LState) int { return appErr(L, "terminate", checkApp1(L).Terminate()) }

func appClose(L *lua.LState) int {
	return appErr(L, "close", script.CheckObject[*luaApp](L, 1, appTypeName).close())
}

func appStatus(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	if a.closed() {
		L.Push(lua.LString("closed"))
		return 1
	}
	L.Push(lua.LString(a.app.Status()))
	return 1
}

// appWait runs the machine until the job ends, dispatching callbacks.
func appWait(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	s := script.SessionOf(L)
	ctx := s.Context()
	if L.GetTop() >= 2 {
		secs := float64(L.CheckNumber(2))
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(secs*float64(time.Second)))
		defer cancel()
	}
	if !app.Started() && !app.Done() {
		L.RaiseError("app:wait: the job has not started (call app:start())")
	}
	st := dpclOf(L)
	defer showProgress(s, a.counters, "wait")()
	for {
		b, _, err := st.advance(ctx, a, ^uint64(0))
		if err != nil {
			return appErr(L, "wait", err)
		}
		if s.Context().Err() != nil {
			st.printWaitSummary(a)
			return script.Raise(L, s.StopError())
		}
		if app.Done() || ctx.Err() != nil || b.Reason == bgl.StopIdle {
			break
		}
	}
	L.Push(waitTable(L, app))
	return 1
}

func waitTable(L *lua.LState, app *runtime.App) *lua.LTable {
	exited, faulted, running, codes := app.Counts()
	t := L.NewTable()
	t.RawSetString("exited", lua.LNumber(exited))
	t.RawSetString("faulted", lua.LNumber(faulted))
	t.RawSetString("running", lua.LNumber(running))
	c := L.NewTable()
	for r, code := range codes {
		c.RawSetInt(r, lua.LNumber(code))
	}
	t.RawSetString("codes", c)
	reports := L.NewTable()
	for _, s := range app.FaultReports() {
		reports.Append(lua.LString(s))
	}
	t.RawSetString("reports", reports)
	return t
}

func appProctable(L *lua.LState) int {
	app := checkApp1(L)
	t := L.NewTable()
	for _, e := range app.Proctable() {
		row := L.NewTable()
		row.RawSetString("rank", lua.LNumber(e.Rank))
		row.RawSetString("node", lua.LNumber(e.Node))
		row.RawSetString("ionode", lua.LNumber(e.IONode))
		row.RawSetString("pid", lua.LNumber(e.Pid))
		row.RawSetString("exe", lua.LString(e.Exe))
		t.Append(row)
	}
	L.Push(t)
	return 1
}

func appOn(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	what := L.CheckString(2)
	if !slices.Contains(appEventNames[:], what) {
		L.ArgError(2, fmt.Sprintf(`event must be "exit", "fault", "unsupported", "memory" or "watch", not %q`, what))
	}
	a.on[what] = append(a.on[what], L.CheckFunction(3))
	return 0
}

func appVar(L *lua.LState) int {
	app := checkApp1(L)
	t, err := probes.ParseType(L.OptString(2, "int"))
	if err != nil {
		L.ArgError(2, script.ErrorText(err, "probes"))
	}
	v, err := app.Var(t)
	if err != nil {
		return appErr(L, "var", err)
	}
	L.Push(PushProbeVar(L, v))
	return 1
}

// filterSpec resolves a filter option or a context's aggregation handle.
func filterSpec(v lua.LValue, params map[string]any) (*netreduce.FilterSpec, error) {
	if ud, ok := v.(*lua.LUserData); ok {
		if inner, ok := ud.Value.(*lua.LUserData); ok {
			v = inner
		}
	}
	return script.FilterSpecOf(v, params)
}
