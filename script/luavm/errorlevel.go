package luavm

import lua "github.com/yuin/gopher-lua"

// installErrorLevels replaces error in tables with one whose level means what Lua 5.1's
// manual says: 1 (the default) is the function that called error, 2 the function that
// called that one, and so on. gopher-lua 1.1.2 counts its own Go frame of error as the
// first and then does not skip it for levels above 1, so error(msg, 2) named the line of
// the error call itself, error(msg, 3) the caller's, and a library that points an error
// at its user's line, as Lua code does, pointed at its own file instead.
func installErrorLevels(L *lua.LState, tables []*lua.LTable) {
	fn := L.NewFunction(luaError)
	for _, t := range tables {
		t.RawSetString("error", fn)
	}
}

func luaError(L *lua.LState) int {
	obj := L.CheckAny(1)
	level := L.OptInt(2, 1)
	if level >= 2 {
		// Frame 0 is this Go function, 1 the caller of error, level n the (n)th frame.
		level++
		if _, ok := L.GetStack(level - 1); !ok {
			// Past the bottom of the stack (or of a protected call's thread): no
			// position, as Lua gives when the level names no Lua function.
			level = 0
		}
	}
	L.Error(obj, level)
	return 0
}
