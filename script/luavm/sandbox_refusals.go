package luavm

import (
	lua "github.com/yuin/gopher-lua"
)

// sandboxRefusals say, for each library and function a sandbox leaves out, why. Reading
// one of these names in a sandboxed environment raises the reason: gopher-lua's own
// message for calling or indexing nil ("attempt to call a non-function object") would not
// say what was called, so a filter that tries require or io.open would not learn why.
var sandboxRefusals = map[string]string{
	"io":             "no file access",
	"os":             "no access to the host",
	"debug":          "no access to the host",
	"package":        "no file access or code loading",
	"require":        "no file access or code loading",
	"module":         "no file access or code loading",
	"dofile":         "no file access or code loading",
	"loadfile":       "no file access or code loading",
	"load":           "no code loading",
	"loadstring":     "no code loading",
	"coroutine":      "no coroutines",
	"channel":        "no coroutines",
	"print":          "no output: a filter hands its results back as return values",
	"collectgarbage": "no access to the collector",
	"_printregs":     "no access to the host",
	"newproxy":       "no access to metatables of userdata",
	"getfenv":        "no access to environments",
	"setfenv":        "no access to environments",
}

const refusalMetaKey = "dpclsh.sandboxrefusals"

// refusalMeta returns L's metatable for sandboxed environments, made once per state: its
// __index raises the refusal of a left-out name and gives nil for any other missing
// global. It is protected (__metatable), so a filter cannot change what environments of
// other nodes run by the same pooled state see.
func refusalMeta(L *lua.LState) *lua.LTable {
	if mt, ok := L.G.Registry.RawGetString(refusalMetaKey).(*lua.LTable); ok {
		return mt
	}
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		if name, ok := L.Get(2).(lua.LString); ok {
			if why, ok := sandboxRefusals[string(name)]; ok {
				L.RaiseError("%s is not available in the sandbox of filters and back-ends (%s)", name, why)
			}
		}
		L.Push(lua.LNil)
		return 1
	}))
	mt.RawSetString("__metatable", lua.LFalse)
	L.G.Registry.RawSetString(refusalMetaKey, mt)
	return mt
}
