package dpcl

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/probes/cobj"
	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// C probe modules as Lua sees them: app:load_module returns a CModule; probe.call(mod,
// "fn", ...) calls its functions from a snippet and mod:global("x") is an lvalue of its
// data, as app:global is of the program's.
const cmoduleTypeName = "dpcl.CModule"

// appCModuleMethods are the application's methods for C probe modules.
var appCModuleMethods = []script.Function{
	{Name: "load_module", Doc: `app:load_module(path) -> CModule
Loads a relocatable PowerPC object built by the cross compiler
(powerpc-linux-gnu-gcc -mcpu=440fp -c mod.c; add -g to type its globals) into every live
rank's instrumentation region, at the same address on all: its sections placed, its
references resolved against itself and the program (it may call libc's memcpy or the
program's functions), its relocations applied, its .data/.bss one copy per process.
probe.call(mod, "fn", args...) calls a function of it from a snippet, mod:global(name) is
an lvalue of its data. An object with an unsupported relocation (-fpic's GOT16), an
undefined symbol, small data (-msdata=sysv) or a section that does not fit in the region
is refused, naming it, before anything is written; a module already loaded is refused.`, Fn: appLoadCModule},
}

func init() {
	script.RegisterType(script.Type{
		Name: cmoduleTypeName,
		Doc:  "CModule — a C probe module (app:load_module): fields name, path, base (an Address), size; the methods below.",
		Methods: []script.Function{
			{Name: "global", Doc: `mod:global(name) -> Exp
The module's global (or static) variable name as an lvalue, like app:global: typed from
the module's DWARF (-g), else a 4- or 8-byte symbol is an int or int64; g.field, g[i] and
g:assign(v) work as for program globals. Each rank has its own copy.`, Fn: cmoduleGlobal},
			{Name: "read", Doc: `mod:read(name [, rank]) -> number | {v0, v1, ...}
The module global name now: on rank, or summed over every rank; a scalar is a number, an
array of scalars a table (t[i+1] is element i).`, Fn: cmoduleRead},
			{Name: "functions", Doc: "mod:functions() -> {{name=, addr=, size=, static=}, ...}\nThe module's functions by address.", Fn: cmoduleFunctions},
			{Name: "globals", Doc: "mod:globals() -> {{name=, addr=, size=, static=, section=}, ...}\nThe module's data by address.", Fn: cmoduleGlobals},
		},
		Meta: []script.Function{
			{Name: "__tostring", Doc: "tostring(mod)", Fn: cmoduleString},
		},
	})
}

func pushCModule(L *lua.LState, m *runtime.Module) lua.LValue {
	ud := script.NewObject(L, cmoduleTypeName, m)
	withFields(L, cmoduleTypeName, cmoduleField)
	return ud
}

func cmoduleField(L *lua.LState, ud *lua.LUserData, key string) (lua.LValue, bool) {
	m := ud.Value.(*runtime.Module)
	switch key {
	case "name":
		return lua.LString(m.Name), true
	case "path":
		return lua.LString(m.Path), true
	case "base":
		return script.PushAddress(L, m.Base), true
	case "size":
		return lua.LNumber(m.Size), true
	}
	return nil, false
}

func checkCModule(L *lua.LState, n int) *runtime.Module {
	return script.CheckObject[*runtime.Module](L, n, cmoduleTypeName)
}

func appLoadCModule(L *lua.LState) int {
	a := checkApp1(L)
	m, err := a.LoadModule(L.CheckString(2))
	var ce *cobj.Error
	switch {
	case errors.As(err, &ce):
		L.RaiseError("app:load_module: %s", ce.Detail())
	case err != nil:
		L.RaiseError("app:load_module: %s", script.ErrorText(err, "runtime"))
	}
	L.Push(pushCModule(L, m))
	return 1
}

func cmoduleGlobal(L *lua.LState) int {
	m := checkCModule(L, 1)
	e, err := m.Global(L.CheckString(2))
	if err != nil {
		L.RaiseError("mod:global: %s", script.ErrorText(err, "runtime"))
	}
	L.Push(script.NewObject(L, probeTypeName, e))
	return 1
}

// cmoduleRead reads a global on one rank or sums it, element-wise, over every rank.
func cmoduleRead(L *lua.LState) int {
	m := checkCModule(L, 1)
	name := L.CheckString(2)
	var sum []probes.Value
	readOne := func(rank int) []probes.Value {
		v, err := m.Read(name, rank)
		if err != nil {
			L.RaiseError("mod:read: %s", script.ErrorText(err, "runtime"))
		}
		return v
	}
	if L.GetTop() >= 3 {
		sum = readOne(L.CheckInt(3))
	} else {
		for r := range m.App().Size() {
			for i, v := range readOne(r) {
				if i == len(sum) {
					sum = append(sum, probes.Value{T: v.T})
				}
				sum[i].I += v.I
				sum[i].F += v.F
			}
		}
	}
	e, _ := m.Global(name)
	if e.Shape.Kind == probes.CArray {
		L.Push(valuesTable(L, sum))
	} else {
		L.Push(valuesTable(L, sum).RawGetInt(1))
	}
	return 1
}

func cmoduleSymbols(L *lua.LState, funcs bool) int {
	m := checkCModule(L, 1)
	t := L.NewTable()
	for _, s := range m.Symbols() {
		if s.Func != funcs || s.Section == "ABS" {
			continue
		}
		row := L.NewTable()
		row.RawSetString("name", lua.LString(s.Name))
		row.RawSetString("addr", script.PushAddress(L, s.Addr))
		row.RawSetString("size", lua.LNumber(s.Size))
		row.RawSetString("static", lua.LBool(s.Local))
		if !funcs {
			row.RawSetString("section", lua.LString(s.Section))
		}
		t.Append(row)
	}
	L.Push(t)
	return 1
}

func cmoduleFunctions(L *lua.LState) int { return cmoduleSymbols(L, true) }
func cmoduleGlobals(L *lua.LState) int   { return cmoduleSymbols(L, false) }

func cmoduleString(L *lua.LState) int {
	m := checkCModule(L, 1)
	L.Push(lua.LString(fmt.Sprintf("CModule %s at 0x%08x (%d bytes)", m.Name, m.Base, m.Size)))
	return 1
}

// probeCallCModule is probe.call(mod, "fn", args...): a call to the module's function.
func probeCallCModule(L *lua.LState, m *runtime.Module) int {
	e, err := m.Call(L.CheckString(2), expArgs(L, 3)...)
	if err != nil {
		L.RaiseError("probe.call: %s", script.ErrorText(err, "runtime"))
	}
	return pushExp(L, "probe.call", e)
}
