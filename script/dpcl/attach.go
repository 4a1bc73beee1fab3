package dpcl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	scriptbgl "github.com/dpclsh/dpclsh/script/bgl"
	lua "github.com/yuin/gopher-lua"
)

const dpclAttachDoc = `dpcl.attach(addr | job [, {secret_file =, topology =, costs =, clocks =}]) -> Application
Attaches the tool to a job that runs without one, started in another process by
  dpclsh exec --listen 127.0.0.1:PORT --secret-file F PROG.elf ARGS
or in this session by bgl.launch (pass the job itself: no socket, no secret) (DPCL's attach to a running POE job through the MPIR proctable): the tool's I/O-node daemons
and tree start where the job stands, and app:points, app:install, h:activate, probe.send,
app:sample, app:watch... work on it while it runs. The secret is read from secret_file (hex,
at least 16 bytes), else from DPCLSH_COMM_SECRET; a job given another refuses the tool.
When the tool attaches is the job's choice: at the end of the 10 us quantum of virtual time
it is running (a job of this session: where job:run left it); from then on the job advances only while this session waits (app:wait,
dpcl.poll, dpcl.sleep, the idle REPL), exactly as a job the tool launched.
app:detach() (also app:close() and the session's end) removes every probe and leaves the
job running to its end, its output unchanged. If this process dies, the job runs on.
app:attached() -> virtual ns of the attach, or nil for a job the tool launched.`

var dpclAttachFuncs = []script.Function{
	{Name: "attach", Doc: dpclAttachDoc, Fn: dpclAttach},
}

var appAttachMethods = []script.Function{
	{Name: "detach", Doc: `app:detach()
Removes every probe, phase, replacement, watchpoint and sampling of the tool from a job it
attached to (dpcl.attach) and lets the job run on without the tool, to its end, its output
unchanged; the application is closed. A job the tool launched is ended by app:close() instead.`, Fn: appDetach},
	{Name: "attached", Doc: `app:attached() -> ns | nil
The virtual time (ns) the tool attached to this job at; nil when the tool launched it.`, Fn: appAttached},
}

// attachFields are the options dpcl.attach takes of dpcl.launch's: the tool's shape.
var attachFields = []string{"topology", "costs", "clocks"}

func dpclAttach(L *lua.LState) int {
	script.RefuseSharded(L, "dpcl.attach")
	var job *scriptbgl.Job
	if ud, ok := L.Get(1).(*lua.LUserData); ok {
		job, _ = ud.Value.(*scriptbgl.Job)
	}
	if job == nil && L.Get(1).Type() != lua.LTString {
		L.ArgError(1, "an address (\"host:port\") or a job of bgl.launch expected, got "+script.Describe(L.Get(1)))
	}
	var lo runtime.Options
	secretFile := ""
	if t, ok := L.Get(2).(*lua.LTable); ok {
		t.ForEach(func(k, v lua.LValue) {
			name := lua.LVAsString(k)
			if name == "secret_file" {
				if s, ok := v.(lua.LString); ok {
					secretFile = string(s)
					return
				}
				L.ArgError(2, fmt.Sprintf("secret_file must be a path, got %s", script.Describe(v)))
			}
			for _, f := range attachFields {
				if f == name {
					if err := launchFields[f](&lo, v); err != nil {
						L.ArgError(2, err.Error())
					}
					return
				}
			}
			L.ArgError(2, fmt.Sprintf("unknown option %q (options: secret_file, topology, costs, clocks)", name))
		})
	} else if L.Get(2) != lua.LNil {
		L.ArgError(2, "options table expected")
	}
	o := runtime.AttachOptions{Topology: lo.Topology, Costs: lo.Costs, Clocks: lo.Clocks}
	var app *runtime.App
	var err error
	if job != nil {
		var m *bgl.Job
		if m, err = job.Machine(); err == nil {
			app, err = runtime.AttachJob(m, o)
		}
	} else {
		var secret []byte
		if secret, err = netreduce.LoadSecret(secretFile); err == nil {
			app, err = runtime.Attach(L.CheckString(1), secret, o)
		}
	}
	if err != nil {
		L.RaiseError("dpcl.attach: %s", script.ErrorText(err, "runtime"))
	}
	L.Push(pushAttached(L, app))
	return 1
}

// pushAttached makes an application the tool attached to the session's, as dpcl.launch
// does for one it launched; the job's output stays where the job sends it.
func pushAttached(L *lua.LState, app *runtime.App) *lua.LUserData {
	la := &luaApp{app: app, callbacks: map[uint32]*lua.LFunction{}, on: map[string][]*lua.LFunction{},
		handles: map[uint32]*lua.LUserData{},
		size:    app.Size(), part: app.Partition()}
	st := dpclOf(L)
	st.apps = append(st.apps, la)
	st.startIdle()
	la.ud = withSize(L, script.NewObject(L, appTypeName, la), app.Size())
	moduleLaunched(L, la, la.ud)
	return la.ud
}

func appDetach(L *lua.LState) int {
	la := script.CheckObject[*luaApp](L, 1, appTypeName)
	if la.closed() {
		L.RaiseError("app:detach: the application is closed")
	}
	if ok, _ := la.app.Attached(); !ok {
		L.RaiseError("app:detach: the tool launched this job; app:close() ends it")
	}
	return appErr(L, "detach", la.close())
}

func appAttached(L *lua.LState) int {
	if ok, at := checkApp1(L).Attached(); ok {
		L.Push(lua.LNumber(at))
		return 1
	}
	L.Push(lua.LNil)
	return 1
}
