package luavm

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// newHardenedState is a full Lua state with the VM's replacements installed in the order
// a session installs them.
func newHardenedState() *lua.LState {
	L := lua.NewState()
	InstallProtectedCalls(L)
	InstallSizeChecks(L)
	InstallCheckedConcat(L, L.G.Global)
	InstallCheckedLoaders(L)
	return L
}

// runLua runs src, compiled as the kernel compiles chunks, in a hardened state and returns
// what it printed, with the error, if any, on a last line.
func runLua(t *testing.T, src string) string {
	t.Helper()
	L := newHardenedState()
	defer L.Close()
	var out strings.Builder
	L.SetGlobal("print", L.NewFunction(func(L *lua.LState) int {
		for i := 1; i <= L.GetTop(); i++ {
			if i > 1 {
				out.WriteByte('\t')
			}
			out.WriteString(L.ToStringMeta(L.Get(i)).String())
		}
		out.WriteByte('\n')
		return 0
	}))
	proto, err := Compile(strings.NewReader(src), "t.lua")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ProtectedCallN(L, L.NewFunctionFromProto(proto), 0); err != nil {
		out.WriteString("error: " + ErrorMessage(err) + "\n")
	}
	return out.String()
}
