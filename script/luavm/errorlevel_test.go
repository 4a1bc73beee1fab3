package luavm

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestErrorLevelsCountAsLuaDoes checks error's level against Lua 5.1's manual: level 1 is
// the function that called error, 2 its caller, 3 the caller's caller; a level naming no
// Lua function (pcall's own) gives no position.
func TestErrorLevelsCountAsLuaDoes(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	InstallProtectedCalls(L)
	src := `
local function lvl(n) error("msg", n) end        -- line 2
local function mid(n) lvl(n) end                 -- line 3
local function top(n)
  mid(n)                                         -- line 5
end
local out = {}
for n = 1, 3 do
  local ok, err = pcall(function()
    top(n)                                       -- line 10
  end)
  out[n] = err
end
local ok, err = pcall(lvl, 2)
out[4] = err
return out[1], out[2], out[3], out[4]
`
	fn, err := L.Load(strings.NewReader(src), "levels.lua")
	if err != nil {
		t.Fatal(err)
	}
	L.Push(fn)
	if err := L.PCall(0, 4, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"levels.lua:2: msg", "levels.lua:3: msg", "levels.lua:5: msg", "msg"}
	for i, w := range want {
		if got := L.Get(i - 4).String(); got != w {
			t.Errorf("level %d: %q, want %q", i+1, got, w)
		}
	}
}
