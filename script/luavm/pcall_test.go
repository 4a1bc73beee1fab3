package luavm

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestSandboxProtectedCalls: filter and back-end states get the same pcall.
func TestSandboxProtectedCalls(t *testing.T) {
	L := NewSandbox()
	defer L.Close()
	if err := L.DoString(`local c = 0; local function f() c = c + 1; pcall(error) end; f(); f(); result = c`); err != nil {
		t.Fatal(err)
	}
	if got := L.GetGlobal("result"); got != lua.LNumber(2) {
		t.Errorf("result = %v, want 2", got)
	}
}

// TestProtectedCalls: an error caught by pcall or xpcall leaves the upvalues of the frames
// below it open, yields inside a protected call reach the coroutine's resumer, and the
// values pcall returns are those of Lua 5.1 (gopher-lua 1.1.2 prints 1 for the first).
func TestProtectedCalls(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"pcall keeps upvalues", `local c = 0; local function f() c = c + 1; pcall(error) end; f(); f(); print(c)`, "2\n"},
		{"xpcall keeps upvalues", `local c = 0
local function f() c = c + 1; xpcall(function() error("x") end, function(e) return e end) end
f(); f(); f(); print(c)`, "3\n"},
		{"nested pcall keeps upvalues", `local c = 0
local function f() c = c + 1; pcall(function() pcall(error, "in") error("out") end) end
f(); f(); print(c)`, "2\n"},
		{"failed frame's closure keeps its value", `local g
pcall(function() local x = 5; g = function() x = x + 1; return x end; error("e") end)
pcall(function() local a, b, c = 1, 2, 3 end)
print(g(), g())`, "6\t7\n"},
		{"results", `print(pcall(function(...) return ... end, 1, nil, 3)); print(select("#", pcall(function() return 1, nil end)))`, "true\t1\tnil\t3\n3\n"},
		{"error values", `print(pcall(function() error({code = 7}) end) == false)
local _, e = pcall(function() error({code = 7}) end); print(e.code)
print(pcall(function() local t = nil; return t.x end))
print(pcall(error, "direct"))
print(pcall(42))`,
			"true\n7\nfalse\tt.lua:3: attempt to index a non-table object(nil) with key 'x'\nfalse\tt.lua:4: direct\nfalse\tattempt to call a number value\n"},
		{"callable table", `print(pcall(setmetatable({}, {__call = function(_, a) return a * 2 end}), 21))`, "true\t42\n"},
		{"xpcall handler", `print(xpcall(function() error("boom") end, function(e) return "handled: " .. e end))`, "false\thandled: t.lua:1: boom\n"},
		{"argument errors", `print(pcall(function() pcall() end)); print(pcall(function() xpcall(print) end))`,
			"false\tt.lua:1: bad argument #1 to pcall (value expected)\nfalse\tt.lua:1: bad argument #2 to xpcall (function expected, got nil)\n"},
		{"yield through pcall", `local co = coroutine.wrap(function()
  local ok, v = pcall(function() local got = coroutine.yield("out"); return got * 2 end)
  return ok, v
end)
print(co()); print(co(21))`, "out\ntrue\t42\n"},
		{"yield through nested pcall and error after", `local co = coroutine.create(function()
  local ok, e = pcall(function() pcall(function() coroutine.yield("deep") end) error("after") end)
  coroutine.yield(ok, e)
end)
print(coroutine.resume(co)); print(coroutine.resume(co)); print(coroutine.resume(co))`,
			"true\tdeep\ntrue\tfalse\tt.lua:2: after\ntrue\n"},
		{"yield through xpcall keeps the handler", `local co = coroutine.wrap(function()
  local ok, e = xpcall(function() coroutine.yield(5) error("late") end, function(e) return "H " .. e end)
  return ok, e
end)
print(co()); print(co())`, "5\nfalse\tH t.lua:2: late\n"},
		{"resume and wrap of plain coroutines", `local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) error("x" .. b) end)
print(coroutine.resume(co, 1)); print(coroutine.resume(co, 2)); print(coroutine.resume(co))
local w = coroutine.wrap(function() coroutine.yield(1) error({}) end)
print(w()); print(pcall(w))`, "true\t2\nfalse\tt.lua:1: x2\nfalse\tcan not resume a dead thread\n1\nfalse\ttable: "},
		{"yield outside a coroutine is an error", `print(pcall(function() coroutine.yield(1) end))`,
			"false\tt.lua:1: can not yield from outside of a coroutine\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := runLua(t, tc.src); got != tc.want && !(strings.HasSuffix(tc.want, ": ") && strings.HasPrefix(got, tc.want)) {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
