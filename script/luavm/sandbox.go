package luavm

import (
	"errors"
	"sort"

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
// its functions through CallWithBudget, in an environment from NewEnvironment, so a
// runaway loop or a growing state cannot stall or exhaust the caller.
func NewSandbox() *lua.LState {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	for _, lib := range sandboxLibs {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	InstallProtectedCalls(L)
	InstallSizeChecks(L)
	InstallCheckedConcat(L, L.G.Global)
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
// global another environment set, whichever pooled state runs it. Keys go in sorted
// order, so pairs over the environment runs the same way in every node and every run.
// Reading a global the sandbox leaves out (io, require, print, ...) raises an error that
// names it and says why (sandbox_refusals.go); rawget still sees nil.
func NewEnvironment(L *lua.LState) *lua.LTable {
	tmpl := envTemplateOf(L)
	env := L.CreateTable(0, len(tmpl))
	for _, e := range tmpl {
		v := e.value
		if e.lib != nil {
			cp := L.CreateTable(0, len(e.lib))
			for _, f := range e.lib {
				cp.RawSetString(f.name, f.value)
			}
			v = cp
		}
		env.RawSetString(e.name, v)
	}
	env.RawSetString("_G", env)
	L.SetMetatable(env, refusalMeta(L))
	return env
}

const envTemplateKey = "dpclsh.envtemplate"

// envEntry is one global of the sandbox; lib holds the fields of a library table that
// each environment copies.
type envEntry struct {
	name  string
	value lua.LValue
	lib   []envEntry
}

// envTemplateOf returns L's globals as sorted entries, computed once per state.
func envTemplateOf(L *lua.LState) []envEntry {
	if ud, ok := L.G.Registry.RawGetString(envTemplateKey).(*lua.LUserData); ok {
		return ud.Value.([]envEntry)
	}
	tmpl := sortedEntries(L.G.Global)
	for i, e := range tmpl {
		if lib, ok := e.value.(*lua.LTable); ok && sandboxLibTables[e.name] {
			tmpl[i].lib = sortedEntries(lib)
		}
	}
	ud := L.NewUserData()
	ud.Value = tmpl
	L.G.Registry.RawSetString(envTemplateKey, ud)
	return tmpl
}

// sortedEntries lists the string-keyed fields of t by name, leaving out _G and
// string.__index (the shared table itself).
func sortedEntries(t *lua.LTable) []envEntry {
	var out []envEntry
	t.ForEach(func(k, v lua.LValue) {
		if name, ok := k.(lua.LString); ok && name != "_G" && name != "__index" {
			out = append(out, envEntry{name: string(name), value: v})
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// ErrorMessage returns the Lua error value of err without gopher-lua's stack traceback;
// the message already starts with file:line when the error was raised in Lua code.
func ErrorMessage(err error) string {
	var aerr *lua.ApiError
	if errors.As(err, &aerr) && aerr.Object != nil {
		return aerr.Object.String()
	}
	return err.Error()
}
