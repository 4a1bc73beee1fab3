package script

import (
	lua "github.com/yuin/gopher-lua"
)

// colonHint is added to a method's complaint that its receiver is missing: "obj.m()"
// passes nothing (or the first argument) where "obj:m()" passes obj.
func colonHint(L *lua.LState, n int, typeName string) string {
	if n != 1 {
		return ""
	}
	dbg, ok := L.GetStack(0)
	if !ok {
		return ""
	}
	if _, err := L.GetInfo("n", dbg, lua.LNil); err != nil || dbg.Name == "" {
		return ""
	}
	if !isMethod(typeName, dbg.Name) {
		return "" // a module function taking the object first: ctx.ranks(app, ...)
	}
	recv := types[typeName].Receiver
	if recv == "" {
		recv = "obj"
	}
	return "; call methods with a colon: " + recv + ":" + dbg.Name + "()"
}

// isMethod reports whether the registered type typeName has a method called name.
func isMethod(typeName, name string) bool {
	for _, m := range types[typeName].Methods {
		if m.Name == name {
			return true
		}
	}
	return false
}
