package script

import (
	"fmt"
	"math"

	"github.com/dpclsh/dpclsh/contexts"
	lua "github.com/yuin/gopher-lua"
)

// Argument helpers every module's bindings use to read Lua values and name them in errors.

// Describe names a Lua value for an error message: its type, and the value when it is short.
func Describe(v lua.LValue) string {
	switch v := v.(type) {
	case lua.LNumber:
		return "number " + FormatNumber(float64(v))
	case lua.LString:
		if len(v) <= 32 {
			return "string " + QuoteString(string(v))
		}
	case *lua.LUserData:
		if c, ok := v.Value.(*contexts.Context); ok {
			return fmt.Sprintf("context (size %d)", c.Size())
		}
		if mt, ok := v.Metatable.(*lua.LTable); ok {
			if name, ok := mt.RawGetString("__name").(lua.LString); ok {
				return string(name)
			}
		}
	}
	return v.Type().String()
}

// CheckInt returns argument n as an integer, raising an argument error for anything else.
func CheckInt(L *lua.LState, n int, what string) int {
	v, ok := LuaInt(L.Get(n))
	if !ok {
		L.ArgError(n, fmt.Sprintf("%s must be an integer, got %s", what, Describe(L.Get(n))))
	}
	return v
}

// LuaInt returns v as an int when it is an integral number of at most 2^53 in magnitude.
func LuaInt(v lua.LValue) (int, bool) {
	x, ok := v.(lua.LNumber)
	f := float64(x)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// ContextOf returns the Context behind v (a ctx.Context object), if v is one.
func ContextOf(v lua.LValue) (*contexts.Context, bool) {
	if ud, ok := v.(*lua.LUserData); ok {
		c, ok := ud.Value.(*contexts.Context)
		return c, ok
	}
	return nil, false
}
