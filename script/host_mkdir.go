package script

import (
	"os"

	lua "github.com/yuin/gopher-lua"
)

const osMkdirDoc = `os.mkdir(path) -> true | nil, message
Creates the directory path and any missing parents (as mkdir -p); an existing directory is
fine. Scripts that take an output directory call it so that a new one needs no mkdir first.`

func hostMkdir(L *lua.LState) int {
	path := L.CheckString(1)
	if err := os.MkdirAll(path, 0o755); err != nil {
		L.Push(lua.LNil)
		L.Push(lua.LString("os.mkdir: " + err.Error()))
		return 2
	}
	L.Push(lua.LTrue)
	return 1
}
