package luavm

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// backtrack is a find that fails after trying 30^30 ways, inside one library call.
const backtrack = `string.find(string.rep("a", 30), string.rep("a*", 30) .. "c")`

// sandboxCall runs src as the body of a function in a fresh sandbox under lim and returns
// the function's environment and the call's error.
func sandboxCall(t *testing.T, lim Limits, src string) (*lua.LTable, error) {
	t.Helper()
	L := NewSandbox()
	t.Cleanup(L.Close)
	proto, err := Compile(strings.NewReader(src), "f.lua")
	if err != nil {
		t.Fatal(err)
	}
	env := NewEnvironment(L)
	fn := L.NewFunctionFromProto(proto)
	fn.Env = env
	_, err = CallWithBudget(L, lim, []lua.LValue{env}, fn)
	return env, err
}

// TestPatternMatchingSpendsTheBudget: a backtracking pattern stops with the instruction
// budget's error (gopher-lua's matcher never returned), and pcall cannot keep the call
// going; find, match, gmatch and gsub all count.
func TestPatternMatchingSpendsTheBudget(t *testing.T) {
	for _, call := range []string{
		backtrack,
		`string.match(string.rep("a", 30), string.rep("a*", 30) .. "c")`,
		`string.gmatch(string.rep("a", 30), string.rep("a*", 30) .. "c")()`,
		`string.gsub(string.rep("a", 30), string.rep("a*", 30) .. "c", "")`,
		`("x"):rep(30):find(("x-"):rep(30) .. "$y")`,
	} {
		_, err := sandboxCall(t, Limits{Instructions: 1_000_000}, "while true do pcall(function() return "+call+" end) end")
		if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "more than 1000000 Lua instructions") {
			t.Errorf("%s: %v", call, err)
		}
	}
}

// TestPatternBudgetIsDeterministic: a call that spends its budget in many matches stops at
// the same match on every run and whatever GOMAXPROCS is.
func TestPatternBudgetIsDeterministic(t *testing.T) {
	const src = `n = 0
while true do
  n = n + 1
  string.find(string.rep("ab", 40), "(a*b?)-%1c")
end`
	var first lua.LValue
	for run, procs := range []int{1, 2, 8, 1, 4} {
		old := runtime.GOMAXPROCS(procs)
		env, err := sandboxCall(t, Limits{Instructions: 3_000_000}, src)
		runtime.GOMAXPROCS(old)
		if !errors.Is(err, ErrBudget) {
			t.Fatalf("run %d: %v", run, err)
		}
		n := env.RawGetString("n")
		if run == 0 {
			first = n
		} else if n != first {
			t.Errorf("run %d (GOMAXPROCS %d) stopped at match %v, run 0 at %v", run, procs, n, first)
		}
	}
	// Counted as one instruction per step, each match costs some 700 instructions; the
	// loop around it alone would run some 300,000 times.
	if f, _ := first.(lua.LNumber); f < 2 || f > 100_000 {
		t.Errorf("stopped at match %v: the matches did not count, or counted too little", first)
	}
}

// TestSandboxChargesAllocations: what library functions allocate counts at once, not at
// the next measurement 65,536 instructions later, so the 60 GiB loop of the issue stops at
// its first concatenation, before the host allocates it; pcall cannot catch it.
func TestSandboxChargesAllocations(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"rep and ..", `t = {} for i = 1, 1000 do t[i] = string.rep("x", 60 * 2^20) .. i end`,
			"f.lua:1: memory budget exceeded: string concatenation of 60 MiB would take what the script holds past 64 MiB"},
		{"rep", `t = {} for i = 1, 1000 do t[i] = pcall(string.rep, "x", 10 * 2^20) and string.rep("y", 10 * 2^20) end`,
			"memory budget exceeded: string.rep of 10 MiB would take what the script holds past 64 MiB"},
		{"format", `t = {} for i = 1, 1000 do t[i] = string.format("%10000000d", i) end`,
			"f.lua:1: memory budget exceeded: string.format of 9.537 MiB would take what the script holds past 64 MiB"},
		{"concat", `local p = {string.rep("x", 2^20)} for i = 1, 4 do p[#p + 1] = p[1] end t = {} for i = 1, 100 do t[i] = table.concat(p) end`,
			"f.lua:1: memory budget exceeded: table.concat of 5 MiB would take what the script holds past 64 MiB"},
		{"gsub", `local s, r = string.rep("x", 2^16), string.rep("y", 256) t = {} for i = 1, 100 do t[i] = s:gsub("x", r) end`,
			"f.lua:1: memory budget exceeded: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := sandboxCall(t, Limits{Instructions: 1e9, Memory: 64 << 20}, c.src)
			if !errors.Is(err, ErrMemoryBudget) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v\nwant %q", err, c.want)
			}
		})
	}
	// Garbage does not count: the same allocations, dropped, run to the end.
	if _, err := sandboxCall(t, Limits{Instructions: 1e9, Memory: 64 << 20},
		`for i = 1, 20 do local s = string.rep("x", 10 * 2^20) .. i end`); err != nil {
		t.Errorf("dropped strings: %v", err)
	}
}

// TestFilterProtectedCallsWithoutCoroutines: a filter's state has no coroutine library, so
// a yield inside pcall is a clean error the filter sees, naming what is missing, and the
// call goes on.
func TestFilterProtectedCallsWithoutCoroutines(t *testing.T) {
	env, err := sandboxCall(t, Limits{Instructions: 1e6}, `ok, msg = pcall(function() return coroutine.yield(1) end)
after = "ran"`)
	if err != nil {
		t.Fatal(err)
	}
	if ok, msg := env.RawGetString("ok"), env.RawGetString("msg").String(); ok != lua.LFalse ||
		!strings.Contains(msg, "f.lua:1: coroutine is not available in the sandbox of filters and back-ends (no coroutines)") ||
		env.RawGetString("after").String() != "ran" {
		t.Errorf("ok %v, msg %q", ok, msg)
	}
}

// TestRequiredChunksAreChecked: a module loaded with require gets the checked
// concatenation too, so doubling a string in it fails before the host allocates.
func TestRequiredChunksAreChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "doubler.lua"),
		[]byte("local M = {}\nfunction M.double(s) while true do s = s .. s end end\nreturn M\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := runLua(t, `package.path = "`+dir+`/?.lua"
local m = require("doubler")
print(pcall(m.double, "x"))
print(select(2, pcall(require, "missing")):match("module missing not found") ~= nil)`)
	want := "false\t" + dir + "/doubler.lua:2: string concatenation: the result would be 2 GiB, over the limit of 1 GiB\ntrue\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestConcatenationIntoAParameter: `p = p .. x` with p a parameter keeps p's value (the
// rewritten concatenation used to be compiled as `p = ((concat)(p, x))`, which gopher-lua
// 1.1.2 compiles with the function loaded into p's register first).
func TestConcatenationIntoAParameter(t *testing.T) {
	got := runLua(t, `local function suffix(s) s = s .. "!" return s end
local function double(s, n) for i = 1, n do s = s .. s end return s end
local function prefix(s, t) t = s .. t return t end
print(suffix("x"), double("ab", 2), prefix("a", "b"))`)
	if got != "x!\tabababab\tab\n" {
		t.Errorf("got %q", got)
	}
}
