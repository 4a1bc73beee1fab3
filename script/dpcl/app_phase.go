package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"math"
	"time"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

const appPhaseDoc = `app:phase(period, exp, {context=, filter=, sync=, params=, callback=, on_begin=, on_end=}) -> ProbeHandle
DPCL's Phase: exp runs on every live rank of the context every period virtual seconds
while the job runs (the machine stops at the boundary, each rank runs exp where it is, or
as its blocked call returns, then goes on); its data goes through the filter like any
probe's. on_begin runs once on every rank now, on_end on every rank as it exits (at
_exit's entry); their messages go to the same callback. The phase starts active;
h:deactivate(), h:activate() and h:remove() act on the whole phase.`

func appPhase(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	secs := float64(L.CheckNumber(2))
	if !(secs > 0) || math.IsInf(secs, 1) || secs > 1e6 {
		L.ArgError(2, fmt.Sprintf("period must be a positive number of virtual seconds, not %v", secs))
	}
	e := ProbeExpOf(L, 3)
	var po runtime.PhaseOptions
	if t, ok := L.Get(4).(*lua.LTable); ok {
		po.Begin = optionalExp(L, t, "on_begin")
		po.End = optionalExp(L, t, "on_end")
	}
	o, cb, err := installOptions(L, 4, "on_begin", "on_end")
	if err != nil {
		L.ArgError(4, err.Error())
	}
	po.InstallOptions = o
	p, err := app.Phase(time.Duration(secs*float64(time.Second)), e, po)
	if p != nil {
		for _, h := range []*runtime.Handle{p.Handle, p.Begin, p.End} {
			if h != nil {
				a.callbacks[h.ID] = cb
				a.pushHandle(L, h)
			}
		}
	}
	if err != nil {
		return appErr(L, "phase", err)
	}
	L.Push(a.handles[p.Handle.ID])
	return 1
}

// optionalExp reads an optional probe expression option; anything else is an error
// naming the key.
func optionalExp(L *lua.LState, t *lua.LTable, key string) *probes.Exp {
	v := t.RawGetString(key)
	if v == lua.LNil {
		return nil
	}
	ud, ok := v.(*lua.LUserData)
	if !ok {
		L.ArgError(4, fmt.Sprintf("%s must be a probe expression, got %s", key, script.Describe(v)))
	}
	e, ok := ud.Value.(*probes.Exp)
	if !ok {
		L.ArgError(4, fmt.Sprintf("%s must be a probe expression, got %s", key, script.Describe(v)))
	}
	return e
}
