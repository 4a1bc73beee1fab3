package dpcl

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

const (
	pointTypeName  = "dpcl.Point"
	handleTypeName = "dpcl.ProbeHandle"
)

func init() {
	script.RegisterType(script.Type{
		Name: pointTypeName,
		Doc:  "A probe point: p.func, p.kind, p.addr, p.target (callee of a call site), p.file, p.line.",
		Meta: []script.Function{
			{Name: "__tostring", Doc: "", Fn: func(L *lua.LState) int {
				L.Push(lua.LString(script.CheckObject[probes.Point](L, 1, pointTypeName).String()))
				return 1
			}},
			{Name: "__index", Doc: "", Fn: pointIndex},
		},
	})
	script.RegisterType(script.Type{
		Name: handleTypeName, Receiver: "h",
		Doc: "An installed probe (DPCL's ProbeHandle): h.state, h.id and the methods below.",
		Methods: []script.Function{
			{Name: "activate", Doc: "h:activate()\nTurns the probe on at every point (a toggle word per point).", Fn: handleOp((*runtime.Handle).Activate, "activate")},
			{Name: "deactivate", Doc: "h:deactivate()\nTurns it off; it stays installed.", Fn: handleOp((*runtime.Handle).Deactivate, "deactivate")},
			{Name: "remove", Doc: "h:remove()\nTakes it out; trampolines are freed once no node is inside them.", Fn: handleOp((*runtime.Handle).Remove, "remove")},
			{Name: "state", Doc: `h:state() -> "installed"|"active"|"removed"|"failed"|"done" (also the field h.state)
A one-shot probe (app:execute) is "done" once every rank it ran on has sent or ended.`, Fn: handleState},
			{Name: "stats", Doc: `h:stats() -> {sent=, delivered=, messages=, ranks=, faults=, failed=, first=, last=, busy=, errors=, queued=, dropped=}
sent: packets the ranks sent (counted as their daemons took them); delivered: ranks' packets
merged into delivered messages; messages: what the front-end received (a message a filter
merged in the tree counts once); failed: {[rank] = reason} for install failures and
{[tree node] = reason} when a filter failed the stream; first, last: virtual arrival (ns)
of the first and last message at the front-end; busy: the front-end's virtual ns on it;
faults: loads and stores of program memory the snippet could not make (each yielded 0 or
stored nothing; the rank went on), summed over the handle's ranks; errors: how often its
callback raised (at 3 the probe is deactivated); queued, dropped: messages waiting for
h:next() and dropped from that queue.`, Fn: handleStats},
			{Name: "next", Doc: handleNextDoc, Fn: handleNext},
			{Name: "messages", Doc: handleMessagesDoc, Fn: handleMessages},
			{Name: "disasm", Doc: "h:disasm() -> string\nThe snippet's code, compiled once for every node.", Fn: handleDisasm},
		},
		Meta: []script.Function{
			{Name: "__tostring", Doc: "", Fn: func(L *lua.LState) int {
				h := script.CheckObject[*runtime.Handle](L, 1, handleTypeName)
				L.Push(lua.LString(fmt.Sprintf("ProbeHandle %d (%s, %d ranks)", h.ID, h.State(), h.Stats().Ranks)))
				return 1
			}},
		},
	})
}

func pointIndex(L *lua.LState) int {
	p := script.CheckObject[probes.Point](L, 1, pointTypeName)
	fields := map[string]lua.LValue{"func": lua.LString(p.Func), "kind": lua.LString(p.Kind.String()),
		"addr": script.PushAddress(L, p.Addr)}
	if p.Callee != "" {
		fields["target"] = lua.LString(p.Callee)
	} else if p.Target != 0 {
		fields["target"] = script.PushAddress(L, p.Target)
	}
	if p.File != "" {
		fields["file"], fields["line"] = lua.LString(p.File), lua.LNumber(p.Line)
	}
	v, ok := fields[L.CheckString(2)]
	if !ok {
		v = lua.LNil
	}
	L.Push(v)
	return 1
}

// checkPoints reads a Point or an array of Points.
func checkPoints(L *lua.LState, n int) []probes.Point {
	pts, err := pointsOf(L.Get(n))
	if err != nil {
		L.ArgError(n, err.Error())
	}
	return pts
}

// pointsOf reads a Point or an array of Points from v.
func pointsOf(v lua.LValue) ([]probes.Point, error) {
	switch v := v.(type) {
	case *lua.LUserData:
		if p, ok := v.Value.(probes.Point); ok {
			return []probes.Point{p}, nil
		}
	case *lua.LTable:
		var out []probes.Point
		for i := 1; i <= v.Len(); i++ {
			ud, ok := v.RawGetInt(i).(*lua.LUserData)
			if !ok {
				return nil, fmt.Errorf("points[%d] is not a point (from app:points)", i)
			}
			p, ok := ud.Value.(probes.Point)
			if !ok {
				return nil, fmt.Errorf("points[%d] is not a point (from app:points)", i)
			}
			out = append(out, p)
		}
		if len(out) == 0 {
			return nil, errors.New("no points (app:points matched nothing?)")
		}
		return out, nil
	}
	return nil, errors.New("point or array of points expected, got " + script.Describe(v))
}

// installKeys are the options app:install and app:execute accept.
var installKeys = []string{"context", "filter", "sync", "timeout", "timeout_ms", "params", "callback", "print", "warn"}

// installOptions reads {context=, filter=, sync=, timeout=, params=, callback=, print=,
// warn=} (print and warn are the session's: handle_print.go, never_ran.go); a
// context's own aggregation applies when no filter is given.
func installOptions(L *lua.LState, n int, extraKeys ...string) (runtime.InstallOptions, *lua.LFunction, error) {
	return installOptionsOf(L, L.Get(n), extraKeys...)
}

// installOptionsOf reads the options of installOptions from the value v.
func installOptionsOf(L *lua.LState, v lua.LValue, extraKeys ...string) (runtime.InstallOptions, *lua.LFunction, error) {
	var o runtime.InstallOptions
	t, _ := v.(*lua.LTable)
	if t == nil {
		if v != lua.LNil {
			return o, nil, errors.New("options table expected")
		}
		t = L.NewTable()
	}
	if err := script.CheckKeys(t, append(installKeys[:len(installKeys):len(installKeys)], extraKeys...)); err != nil {
		return o, nil, err
	}
	var agg *contexts.Aggregation
	if cv := t.RawGetString("context"); cv != lua.LNil {
		c, ok := script.ContextOf(cv)
		if !ok {
			return o, nil, fmt.Errorf("context must be a ctx.Context, got %s", script.Describe(cv))
		}
		o.Context, agg = c.Set.Copy(), c.Agg
	}
	var params map[string]any
	if pt, ok := t.RawGetString("params").(*lua.LTable); ok {
		p, err := script.PlainValue(pt, "params")
		if err != nil {
			return o, nil, err
		}
		params, _ = p.(map[string]any)
	}
	fv := t.RawGetString("filter")
	if fv == lua.LNil && agg != nil {
		return aggregationOptions(o, agg, t)
	}
	var err error
	if o.Filter, err = filterSpec(fv, params); err != nil {
		return o, nil, err
	}
	if s, ok := t.RawGetString("sync").(lua.LString); ok {
		o.Sync = contexts.Sync(s)
	}
	if d, ok, err := script.TimeoutOption(L, t); err != nil {
		return o, nil, err
	} else if ok {
		o.Timeout = d
	}
	return o, callbackOf(t), nil
}

func aggregationOptions(o runtime.InstallOptions, agg *contexts.Aggregation, t *lua.LTable) (runtime.InstallOptions, *lua.LFunction, error) {
	var v lua.LValue = lua.LString(agg.Filter)
	if agg.Handle != nil {
		lv, ok := agg.Handle.(lua.LValue)
		if !ok {
			return o, nil, fmt.Errorf("the context's filter object is not a filter")
		}
		v = lv
	}
	var err error
	if o.Filter, err = filterSpec(v, agg.Params); err != nil {
		return o, nil, err
	}
	o.Sync, o.Timeout = agg.Sync, agg.Timeout
	return o, callbackOf(t), nil
}

func callbackOf(t *lua.LTable) *lua.LFunction {
	fn, _ := t.RawGetString("callback").(*lua.LFunction)
	return fn
}

func appInstall(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	pts := checkPoints(L, 2)
	e := ProbeExpOf(L, 3)
	o, cb, err := installOptions(L, 4)
	if err != nil {
		L.ArgError(4, err.Error())
	}
	printMsgs, err := printOption(script.SessionOf(L), L.Get(4), cb)
	if err != nil {
		L.ArgError(4, err.Error())
	}
	h, err := app.Install(pts, e, o)
	if h != nil {
		a.callbacks[h.ID] = cb
		x := dpclOf(L).extra(h)
		x.print, x.quiet, x.noWarn = printMsgs, printFalse(L.Get(4)), warnFalse(L.Get(4))
	}
	if err != nil {
		return appErr(L, "install", err)
	}
	L.Push(a.pushHandle(L, h))
	return 1
}

// appInstallAll is app:install_all{{points, exp, opts}, ...}: app:install of each, with
// one patch command for all (runtime.App.InstallAll).
func appInstallAll(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	list := L.CheckTable(2)
	var reqs []runtime.InstallRequest
	var extras []requestExtra
	for i := 1; i <= list.Len(); i++ {
		req, x, err := installRequestOf(L, list.RawGetInt(i))
		if err != nil {
			L.ArgError(2, fmt.Sprintf("probe %d: %v", i, err))
		}
		reqs = append(reqs, req)
		extras = append(extras, x)
	}
	if len(reqs) == 0 {
		L.ArgError(2, "no probes to install")
	}
	hs, err := app.InstallAll(reqs)
	out := L.CreateTable(len(hs), 0)
	for i, h := range hs {
		a.callbacks[h.ID] = extras[i].cb
		x := dpclOf(L).extra(h)
		x.print, x.quiet, x.noWarn = extras[i].print, extras[i].quiet, extras[i].noWarn
		out.Append(a.pushHandle(L, h))
	}
	if err != nil {
		return appErr(L, "install_all", err)
	}
	L.Push(out)
	return 1
}

// requestExtra is what app:install keeps of a probe's options beside the request.
type requestExtra struct {
	cb                   *lua.LFunction
	print, quiet, noWarn bool
}

// installRequestOf reads one {points, exp, opts} of app:install_all.
func installRequestOf(L *lua.LState, v lua.LValue) (runtime.InstallRequest, requestExtra, error) {
	var req runtime.InstallRequest
	var x requestExtra
	t, ok := v.(*lua.LTable)
	if !ok {
		return req, x, fmt.Errorf("{points, exp, opts} expected, got %s", script.Describe(v))
	}
	var err error
	if req.Points, err = pointsOf(t.RawGetInt(1)); err != nil {
		return req, x, err
	}
	if req.Exp, err = probeExpOfValue(t.RawGetInt(2)); err != nil {
		return req, x, err
	}
	opts := t.RawGetInt(3)
	if req.Options, x.cb, err = installOptionsOf(L, opts, "active"); err != nil {
		return req, x, err
	}
	if ot, ok := opts.(*lua.LTable); ok {
		switch v := ot.RawGetString("active").(type) {
		case *lua.LNilType:
		case lua.LBool:
			req.Active = bool(v)
		default:
			return req, x, fmt.Errorf("active must be a boolean, got %s", script.Describe(v))
		}
	}
	if x.print, err = printOption(script.SessionOf(L), opts, x.cb); err != nil {
		return req, x, err
	}
	x.quiet, x.noWarn = printFalse(opts), warnFalse(opts)
	return req, x, nil
}

func appExecute(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	e := ProbeExpOf(L, 2)
	o, cb, err := installOptions(L, 3)
	if err != nil {
		L.ArgError(3, err.Error())
	}
	printMsgs, err := printOption(script.SessionOf(L), L.Get(3), cb)
	if err != nil {
		L.ArgError(3, err.Error())
	}
	h, err := app.Execute(e, o)
	if h != nil {
		a.callbacks[h.ID] = cb
		x := dpclOf(L).extra(h)
		x.print, x.quiet = printMsgs, printFalse(L.Get(3))
	}
	if errors.Is(err, runtime.ErrNoLiveRank) {
		// The natural sampling loop (execute while the job runs) ends cleanly.
		L.Push(lua.LNil)
		L.Push(lua.LString("app:execute: " + runtime.ErrNoLiveRank.Error() + " (the job's ranks have ended)"))
		return 2
	}
	if err != nil {
		return appErr(L, "execute", err)
	}
	L.Push(a.pushHandle(L, h))
	return 1
}

func (a *luaApp) pushHandle(L *lua.LState, h *runtime.Handle) *lua.LUserData {
	ud := script.NewObject(L, handleTypeName, h)
	a.handles[h.ID] = ud
	withFields(L, handleTypeName, handleField)
	return ud
}

func handleField(L *lua.LState, ud *lua.LUserData, key string) (lua.LValue, bool) {
	h, ok := ud.Value.(*runtime.Handle)
	switch {
	case !ok:
		return nil, false
	case key == "state":
		return lua.LString(h.State()), true
	case key == "id":
		return lua.LNumber(h.ID), true
	}
	return nil, false
}

func handleOp(fn func(*runtime.Handle) error, name string) lua.LGFunction {
	return func(L *lua.LState) int {
		h := script.CheckObject[*runtime.Handle](L, 1, handleTypeName)
		if err := fn(h); err != nil {
			L.RaiseError("h:%s: %s", name, script.ErrorText(err, "runtime"))
		}
		return 0
	}
}

func handleState(L *lua.LState) int {
	L.Push(lua.LString(script.CheckObject[*runtime.Handle](L, 1, handleTypeName).State()))
	return 1
}

func handleStats(L *lua.LState) int {
	st := script.CheckObject[*runtime.Handle](L, 1, handleTypeName).Stats()
	t := L.NewTable()
	t.RawSetString("sent", lua.LNumber(st.Sent))
	t.RawSetString("delivered", lua.LNumber(st.Delivered))
	t.RawSetString("messages", lua.LNumber(st.Messages))
	t.RawSetString("ranks", lua.LNumber(st.Ranks))
	t.RawSetString("faults", lua.LNumber(st.Faults))
	f := L.NewTable()
	for r, why := range st.Failed {
		f.RawSetInt(r, lua.LString(why))
	}
	for node, why := range st.FailedAt {
		f.RawSetString(node, lua.LString(why))
	}
	t.RawSetString("failed", f)
	if st.Delivered > 0 {
		t.RawSetString("first", lua.LNumber(st.First))
		t.RawSetString("last", lua.LNumber(st.Last))
	}
	t.RawSetString("busy", lua.LNumber(st.Busy))
	handleExtraStats(L, script.CheckObject[*runtime.Handle](L, 1, handleTypeName), t)
	L.Push(t)
	return 1
}

func handleDisasm(L *lua.LState) int {
	h := script.CheckObject[*runtime.Handle](L, 1, handleTypeName)
	L.Push(lua.LString(h.Code().Disasm(0)))
	return 1
}
