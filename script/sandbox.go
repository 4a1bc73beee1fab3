package script

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// sandboxLibs are the only standard libraries a sandboxed state opens.
var sandboxLibs = []struct {
	name string
	open lua.LGFunction
}{
	{lua.BaseLibName, lua.OpenBase},
	{lua.TabLibName, lua.OpenTable},
	{lua.StringLibName, lua.OpenString},
	{lua.MathLibName, lua.OpenMath},
}

// sandboxRemoved are the base-library globals that read files, load code, reach the host's
// output or the collector. A filter gets its data as arguments and hands results back as
// return values; none of these is needed for that.
var sandboxRemoved = []string{
	"dofile", "loadfile", "load", "loadstring", "require", "module",
	"collectgarbage", "print", "_printregs", "newproxy", "getfenv", "setfenv",
}

// NewSandbox returns a Lua state for untrusted, shippable code (Lua filters, back-end
// behaviour): base (without file access, code loading, print or environment games), table,
// string and math. There is no io, os, debug, package, coroutine or channel library. Run
// its functions through CallWithDeadline so a runaway loop cannot stall the caller.
func NewSandbox() *lua.LState {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	for _, lib := range sandboxLibs {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	installProtectedCalls(L)
	installSizeChecks(L)
	installCheckedConcat(L, L.G.Global)
	// Method calls on strings reach the string library through the string metatable; a
	// metatable of its own keeps getmetatable("") from handing the shared table out.
	if lib, ok := L.GetGlobal(lua.StringLibName).(*lua.LTable); ok {
		mt := L.NewTable()
		mt.RawSetString("__index", lib)
		mt.RawSetString("__metatable", lua.LFalse)
		L.SetMetatable(lua.LString(""), mt)
	}
	g := L.G.Global
	for _, name := range sandboxRemoved {
		g.RawSetString(name, lua.LNil)
	}
	// string.dump does not exist in gopher-lua, but the loaded-modules table would give a
	// script back what was removed from the globals.
	if loaded, ok := L.G.Registry.RawGetString("_LOADED").(*lua.LTable); ok {
		if base, ok := loaded.RawGetString("_G").(*lua.LTable); ok && base != g {
			for _, name := range sandboxRemoved {
				base.RawSetString(name, lua.LNil)
			}
		}
	}
	return L
}

// sandboxLibTables are the library tables each environment gets a copy of, so that what
// one node stores in string, table or math stays its own.
var sandboxLibTables = map[string]bool{lua.StringLibName: true, lua.TabLibName: true, lua.MathLibName: true}

// NewEnvironment returns a fresh global table for sandboxed code run in L (a NewSandbox
// state): a copy of the sandbox's globals with copies of its library tables, and _G
// pointing to itself. Code whose functions have it as their environment (fn.Env) sees no
// global another environment set, whichever pooled state runs it.
func NewEnvironment(L *lua.LState) *lua.LTable {
	env := L.CreateTable(0, 48)
	L.G.Global.ForEach(func(k, v lua.LValue) {
		if name, ok := k.(lua.LString); ok && sandboxLibTables[string(name)] {
			if lib, ok := v.(*lua.LTable); ok {
				cp := L.CreateTable(0, 32)
				// string.__index is the shared table itself: leave it out.
				lib.ForEach(func(k, v lua.LValue) {
					if k != lua.LString("__index") {
						cp.RawSet(k, v)
					}
				})
				v = cp
			}
		}
		env.RawSet(k, v)
	})
	env.RawSetString("_G", env)
	return env
}

// ErrDeadline is wrapped by the error CallWithDeadline returns when the call ran out of time.
var ErrDeadline = errors.New("deadline exceeded")

// CallWithDeadline calls fn(args...) in L and returns all of its results. The call is
// stopped once d of wall time has passed (d <= 0 means no limit): the state's context is
// cancelled, which gopher-lua checks before every instruction, so even a `while true do
// end` ends, and pcall inside the script cannot keep it alive because every following
// instruction fails again. Errors carry the script's file:line when the failure happened in
// Lua code. L must not have a context of its own; it has none afterwards.
func CallWithDeadline(L *lua.LState, d time.Duration, fn *lua.LFunction, args ...lua.LValue) ([]lua.LValue, error) {
	if fn == nil {
		return nil, errors.New("script: call with deadline: nil function")
	}
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if d > 0 {
		ctx, cancel = context.WithTimeout(ctx, d)
	}
	defer cancel()
	L.SetContext(ctx)
	defer L.RemoveContext()

	base := L.GetTop()
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	err := L.PCall(len(args), lua.MultRet, nil)
	if err != nil {
		L.SetTop(base)
		if ctx.Err() == context.DeadlineExceeded {
			where := strings.TrimSuffix(errorMessage(err), context.DeadlineExceeded.Error())
			return nil, fmt.Errorf("script: %s%w (%v)", where, ErrDeadline, d)
		}
		return nil, fmt.Errorf("script: %s", errorMessage(err))
	}
	n := L.GetTop() - base
	out := make([]lua.LValue, n)
	for i := range n {
		out[i] = L.Get(base + 1 + i)
	}
	L.SetTop(base)
	return out, nil
}

// errorMessage returns the Lua error value of err without gopher-lua's stack traceback;
// the message already starts with file:line when the error was raised in Lua code.
func errorMessage(err error) string {
	var aerr *lua.ApiError
	if errors.As(err, &aerr) && aerr.Object != nil {
		return aerr.Object.String()
	}
	return err.Error()
}
