package dpcl

import (
	"fmt"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/contexts"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// watchTypeName is the metatable name of watchpoints.
const watchTypeName = "dpcl.Watch"

// appWatchMethods are the application's watchpoints.
var appWatchMethods = []script.Function{
	{Name: "watch", Doc: `app:watch(global | addr [, size], {on="write"|"read"|"rw", context=, callback=}) -> Watch
Watches a program global (app:global("x"), a member or an element) or size bytes (1 to 8)
at addr on the context's ranks. callback(ev) gets every access it is about: ev.rank,
ev.pc, ev.where ("in fn (file.c:line)"), ev.write, ev.old and ev.new (the watched value
before and after, as an unsigned big-endian number), ev.time. Only the pages holding
the range take a slow path: each access to such a page costs its rank 1200 virtual cycles
more (a trap and a single step), whether or not it touches the watched bytes; other
pages, and runs without watches, are unchanged in virtual time. The program's own system
calls must not read a read-watched page or write a write-watched one (they get EFAULT).
w:remove() restores the pages.`, Fn: appWatch},
}

func init() {
	script.RegisterType(script.Type{
		Name: watchTypeName,
		Doc:  "Watch — a watchpoint (app:watch).",
		Methods: []script.Function{
			{Name: "remove", Doc: "w:remove()\nStops watching on every rank; the pages get their permissions back.", Fn: watchRemove},
		},
	})
}

// watchTarget reads the watched address and size: a global's lvalue (its own size) or an
// address and a size.
func watchTarget(L *lua.LState) (addr, size uint32, optAt int) {
	if ud, ok := L.Get(2).(*lua.LUserData); ok {
		if e, ok := ud.Value.(*probes.Exp); ok {
			if e.Kind != probes.KLoad || e.Mem == probes.MemNone || e.Kids[0].Kind != probes.KConst {
				L.ArgError(2, "a program global (app:global), one of its members or elements, or an address expected, got "+e.String())
			}
			return uint32(e.Kids[0].Val.I) + uint32(e.Idx), e.Mem.Size(), 3
		}
	}
	return script.CheckAddress(L, 2), uint32(L.CheckInt(3)), 4
}

func appWatch(L *lua.LState) int {
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	app := checkApp1(L)
	addr, size, optAt := watchTarget(L)
	t := L.OptTable(optAt, L.NewTable())
	if err := script.CheckKeys(t, []string{"on", "context", "callback"}); err != nil {
		L.ArgError(optAt, err.Error())
	}
	on := "write"
	if v, ok := t.RawGetString("on").(lua.LString); ok {
		on = string(v)
	}
	if on != "write" && on != "read" && on != "rw" {
		L.ArgError(optAt, fmt.Sprintf(`on must be "write", "read" or "rw", not %q`, on))
	}
	var ctx *contexts.Set
	if cv := t.RawGetString("context"); cv != lua.LNil {
		c, ok := script.ContextOf(cv)
		if !ok {
			L.ArgError(optAt, "context must be a ctx.Context, got "+script.Describe(cv))
		}
		ctx = c.Set.Copy()
	}
	h, err := app.Watch(addr, size, on != "write", on != "read", ctx)
	if err != nil {
		return appErr(L, "watch", err)
	}
	if cb, ok := t.RawGetString("callback").(*lua.LFunction); ok {
		a.on["watch"] = append(a.on["watch"], L.NewFunction(func(L *lua.LState) int {
			ev := L.CheckTable(1)
			if a, ok := ev.RawGetString("watch_addr").(lua.LNumber); ok && uint32(a) == h.Addr() {
				L.Push(cb)
				L.Push(ev)
				L.Call(1, 0)
			}
			return 0
		}))
	}
	L.Push(script.NewObject(L, watchTypeName, h))
	return 1
}

func watchRemove(L *lua.LState) int {
	h := script.CheckObject[*runtime.WatchHandle](L, 1, watchTypeName)
	if err := h.Remove(); err != nil {
		L.RaiseError("w:remove: %s", script.ErrorText(err, "runtime"))
	}
	return 0
}

// watchEventFields adds an EventWatch's fields to its Lua table.
func watchEventFields(t *lua.LTable, ev bgl.Event) {
	t.RawSetString("watch_addr", lua.LNumber(ev.Addr))
	t.RawSetString("size", lua.LNumber(ev.Size))
	t.RawSetString("write", lua.LBool(ev.Write))
	t.RawSetString("old", lua.LNumber(ev.Old))
	t.RawSetString("new", lua.LNumber(ev.New))
	t.RawSetString("where", lua.LString(ev.Note))
}
