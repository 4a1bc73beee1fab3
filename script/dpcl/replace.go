package dpcl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// probeLeaveFuncs are the probe module's ways out of a function at its entry.
var probeLeaveFuncs = []script.Function{
	{Name: "skip", Doc: `probe.skip([v]) -> Exp
At a function entry only: returns from the function at once, with v as its return value
(an int in r3, an int64 in r3:r4, a double in f1; none for a void function); the body
does not run. probe.when(probe.arg(0):eq(0), probe.skip(-1)) skips only some calls.
Snippets after it at the same point still run.`, Fn: probeSkip},
}

// appReplaceMethods are the application's function replacement.
var appReplaceMethods = []script.Function{
	{Name: "replace", Doc: `app:replace(fn, "other" [, {context=}]) -> ProbeHandle
app:replace(fn, mod, "other" [, {context=}]) -> ProbeHandle
Every call of the program function fn runs other instead — a function of the program or
of the C module mod (app:load_module) — with the caller's arguments, returning its value
to the caller (DynInst's replaceFunction). Active at once on the context's ranks;
h:remove() restores fn (its old trampoline is freed once no rank is inside it). Cost per
call: an entry trampoline, about 20 instructions.`, Fn: appReplace},
}

func probeSkip(L *lua.LState) int {
	if L.GetTop() == 0 || L.Get(1) == lua.LNil {
		return pushExp(L, "probe.skip", probes.Skip(nil))
	}
	return pushExp(L, "probe.skip", probes.Skip(ProbeExpOf(L, 1)))
}

func appReplace(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	fn := L.CheckString(2)
	jump, optAt := replacement(L)
	var o runtime.InstallOptions
	if t, ok := L.Get(optAt).(*lua.LTable); ok {
		if err := script.CheckKeys(t, []string{"context"}); err != nil {
			L.ArgError(optAt, err.Error())
		}
		if cv := t.RawGetString("context"); cv != lua.LNil {
			c, ok := script.ContextOf(cv)
			if !ok {
				L.ArgError(optAt, fmt.Sprintf("context must be a ctx.Context, got %s", script.Describe(cv)))
			}
			o.Context = c.Set.Copy()
		}
	} else if L.Get(optAt) != lua.LNil {
		L.ArgError(optAt, "options table expected, got "+script.Describe(L.Get(optAt)))
	}
	h, err := app.Replace(fn, jump, o)
	if err != nil {
		return appErr(L, "replace", err)
	}
	L.Push(a.pushHandle(L, h))
	return 1
}

// replacement reads the replacing function (a name, or a C module and a name) and returns
// it with the index of the options argument.
func replacement(L *lua.LState) (*probes.Exp, int) {
	if ud, ok := L.Get(3).(*lua.LUserData); ok {
		if m, ok := ud.Value.(*runtime.Module); ok {
			e, err := m.Jump(L.CheckString(4))
			if err != nil {
				L.RaiseError("app:replace: %s", script.ErrorText(err, "runtime"))
			}
			return e, 5
		}
	}
	return probes.Jump(L.CheckString(3)), 4
}
