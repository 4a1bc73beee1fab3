package luavm

import (
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// gopher-lua 1.1.2 resumes a coroutine by pushing the values resume passes onto the
// registers of the frame that yielded, as they are: the count the call site expects is
// never adjusted. `local a, b = coroutine.yield()` resumed with one value leaves b holding
// whatever the register held before, and a Go function that yields in tail position
// (`return coroutine.yield(x)`, `return pcall(f)` with f yielding) has its caller's frame
// removed first, so a coroutine body that does it looks finished at its first yield and
// crashes the host's next resume. In a state with coroutines, the Go functions that yield
// (coroutine.yield, pcall, xpcall) are therefore called through a Lua function of one
// line, `return pass(raw(...))`: raw is never in tail position, and whatever a resume
// hands back reaches the script through pass, a normal return that gopher-lua adjusts.

// ChunkName names the chunk of the wrappers; functions from it print as builtins.
const ChunkName = "[builtin]"

var (
	wrapperOnce  sync.Once
	wrapperProto *lua.FunctionProto
)

// yieldWrapperProto compiles the wrapper factory once; protos are shared by states.
func yieldWrapperProto() *lua.FunctionProto {
	wrapperOnce.Do(func() {
		chunk, err := parse.Parse(strings.NewReader("local raw, pass = ... return function(...) return pass(raw(...)) end"), ChunkName)
		if err != nil {
			panic("luavm: the yield wrapper does not parse: " + err.Error())
		}
		if wrapperProto, err = lua.Compile(chunk, ChunkName); err != nil {
			panic("luavm: the yield wrapper does not compile: " + err.Error())
		}
	})
	return wrapperProto
}

// passValues returns its arguments.
func passValues(L *lua.LState) int { return L.GetTop() }

// yieldSafe returns raw (a Go function that may yield) behind the Lua wrapper.
func yieldSafe(L *lua.LState, raw lua.LGFunction) *lua.LFunction {
	factory := L.NewFunctionFromProto(yieldWrapperProto())
	L.Push(factory)
	L.Push(L.NewFunction(raw))
	L.Push(L.NewFunction(passValues))
	L.Call(2, 1)
	fn := L.Get(-1).(*lua.LFunction)
	L.Pop(1)
	return fn
}

// luaYield is coroutine.yield behind its wrapper. Outside a coroutine it fails, with
// gopher-lua's message, where the script called yield (two levels up: the wrapper is one).
func luaYield(L *lua.LState) int {
	if L.Parent == nil {
		L.Error(lua.LString(at(L, 2)+"can not yield from outside of a coroutine"), 0)
	}
	return -1
}

// installYieldSafe replaces coroutine.yield, pcall and xpcall of L (a state with the
// coroutine library) with their wrapped forms.
func installYieldSafe(L *lua.LState, co *lua.LTable, tables []*lua.LTable) {
	co.RawSetString("yield", yieldSafe(L, luaYield))
	pcall := yieldSafe(L, func(L *lua.LState) int { return luaPcallAt(L, 2) })
	xpcall := yieldSafe(L, func(L *lua.LState) int { return luaXpcallAt(L, 2) })
	for _, t := range tables {
		t.RawSetString("pcall", pcall)
		t.RawSetString("xpcall", xpcall)
	}
}

// at is the position of the frame level up with a space after it, or "".
func at(L *lua.LState, level int) string {
	if where := L.Where(level); where != "" && !strings.HasPrefix(where, ChunkName+":") {
		return where + " "
	}
	return ""
}

// IsVMFunction reports whether fn is one of the wrappers, which print as builtins.
func IsVMFunction(fn *lua.LFunction) bool {
	return !fn.IsG && fn.Proto != nil && fn.Proto.SourceName == ChunkName
}
