package filter

import (
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script/scripttest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/script/luavm"
	lua "github.com/yuin/gopher-lua"
)

func writeFilter(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLuaFilterGlobalsArePerNode: what a node stores in a global, in a library table or in
// the string metatable stays its own, whichever pooled state runs the call.
func TestLuaFilterGlobalsArePerNode(t *testing.T) {
	f, err := LoadLuaFilter(writeFilter(t, "globals.lua", `return {
  filter = function(state, packets)
    calls = (calls or 0) + 1
    string.mark = (string.mark or 0) + 1
    return {calls, string.mark, tostring(getmetatable(""))}
  end}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newLuaTransform(f.Spec(nil), netreduce.NodeInfo{Rank: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newLuaTransform(f.Spec(nil), netreduce.NodeInfo{Rank: 2})
	var got []any
	for _, tr := range []netreduce.Transform{a, a, b, a, b} {
		out, err := tr.Filter([]*netreduce.Packet{{Count: 1}})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out[0].Values...)
	}
	want := []any{int64(1), int64(1), "false", int64(2), int64(2), "false", int64(1), int64(1), "false",
		int64(3), int64(3), "false", int64(2), int64(2), "false"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// TestLuaFilterTreeIsDeterministic runs a filter that keeps a global counter on a tree of
// many nodes, several times with parallel workers: every run gives the same bytes.
func TestLuaFilterTreeIsDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	f, err := LoadLuaFilter(writeFilter(t, "counter.lua", `return {
  filter = function(state, packets)
    seen = (seen or 0) + #packets
    local sum = 0
    for _, p in ipairs(packets) do sum = sum + p[1] end
    return {sum * 1000 + seen}
  end}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for run := 0; run < 5; run++ {
		topo, err := netreduce.Generate("b:4^4")
		if err != nil {
			t.Fatal(err)
		}
		n, err := netreduce.New(topo, netreduce.Options{Backend: func(r int, p *netreduce.Packet) ([]*netreduce.Packet, error) {
			return []*netreduce.Packet{{Values: []any{int64(r % 7)}}}, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := n.NewStream(n.Broadcast(), netreduce.StreamConfig{Up: f.Spec(nil)})
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for wave := 0; wave < 4; wave++ {
			s.Send(netreduce.FirstAppTag, "%d", 0)
			p, err := s.RecvQuiet()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&out, p.Values...)
		}
		n.Close()
		if run == 0 {
			first = out.String()
		} else if out.String() != first {
			t.Fatalf("run %d:\n%s\nrun 0:\n%s", run, out.String(), first)
		}
	}
}

// TestLuaFilterBudgetIsDeterministic: a filter that never returns stops at the same
// instruction in every node and every run, with a message naming the budget.
func TestLuaFilterBudgetIsDeterministic(t *testing.T) {
	f, err := LoadLuaFilter(writeFilter(t, "count.lua", `return {
  init = function() return {n = 0} end,
  filter = function(state, packets)
    while true do state.n = state.n + 1 end
  end}`), 50_000)
	if err != nil {
		t.Fatal(err)
	}
	var counts []lua.LValue
	for range 3 {
		tr, err := newLuaTransform(f.Spec(nil), netreduce.NodeInfo{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tr.Filter([]*netreduce.Packet{{Count: 1}})
		if err == nil || !strings.Contains(err.Error(), "count.lua:4: budget exceeded: more than 50000 Lua instructions in one call") {
			t.Fatalf("err = %v", err)
		}
		counts = append(counts, tr.(*luaTransform).state.(*lua.LTable).RawGetString("n"))
	}
	if counts[0] != counts[1] || counts[1] != counts[2] || counts[0].(lua.LNumber) < 1000 {
		t.Errorf("iterations before the stop: %v, want the same in every run", counts)
	}
}

// TestLuaFilterMemoryBudget: a result too large fails before it is built, as an error the
// filter can catch; a state that keeps growing fails its node with a clear error.
func TestLuaFilterMemoryBudget(t *testing.T) {
	f, err := LoadLuaFilter(writeFilter(t, "huge.lua", `return {
  filter = function(state, packets)
    local ok, err = pcall(string.rep, "x", 2^40)
    local ok2 = pcall(function() return ("x"):rep(2^40) end)
    local ok3 = pcall(table.concat, {string.rep("y", 2^20)}, "", 1, 1)
    return {tostring(ok), err, tostring(ok2), tostring(ok3)}
  end}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := newLuaTransform(f.Spec(nil), netreduce.NodeInfo{})
	out, err := tr.Filter([]*netreduce.Packet{{Count: 1}})
	if err != nil {
		t.Fatal(err)
	}
	got := out[0].Values
	if msg, _ := got[1].(string); len(got) != 4 || got[0] != "false" || got[2] != "false" || got[3] != "true" ||
		!strings.HasSuffix(msg, "huge.lua:3: string.rep: the result would be 1 TiB, over the limit of 64 MiB") {
		t.Errorf("got %q", got)
	}

	grow, err := LoadLuaFilter(writeFilter(t, "grow.lua", `return {
  filter = function(state, packets)
    state[#state + 1] = string.rep("z", 4 * 2^20)
    return {#state}
  end}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ = newLuaTransform(grow.Spec(nil), netreduce.NodeInfo{})
	for i := 1; i <= 20; i++ {
		out, err := tr.Filter([]*netreduce.Packet{{Count: 1}})
		if err != nil {
			if i < 15 || !strings.Contains(err.Error(), "budget exceeded: the filter's state and globals hold more than 64 MiB") {
				t.Fatalf("wave %d: %v", i, err)
			}
			return
		}
		if out[0].Values[0] != int64(i) {
			t.Fatalf("wave %d: %v", i, out[0].Values)
		}
	}
	t.Fatal("a state of 80 MiB was accepted")
}

// TestSessionStringLimits: the session refuses strings too large to allocate with a Lua
// error, instead of ending the process.
func TestSessionStringLimits(t *testing.T) {
	got := scripttest.Run(t, `print(pcall(string.rep, "x", 2^40))
print(pcall(function() return ("ab"):rep(2^50) end))
print(pcall(string.format, "%99999999999d", 1))
local big = string.rep("x", 2^20)
local parts = {}
for i = 1, 2048 do parts[i] = big end
print(pcall(table.concat, parts))
print(#string.rep("x", 10), #table.concat({"a", "b"}, ", "), string.format("%5d|%-3s|", 42, "z"))`)
	want := `false	t.lua:1: string.rep: the result would be 1 TiB, over the limit of 1 GiB
false	t.lua:2: string.rep: the result would be 2 PiB, over the limit of 1 GiB
false	t.lua:3: string.format: the result would be 93.13 GiB, over the limit of 1 GiB
false	t.lua:7: table.concat: the result would be 2 GiB, over the limit of 1 GiB
10	4	   42|z  |
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestConcatenationLimit: doubling a string with .. fails with an error pcall catches, in
// the session and in a filter, before the string is built; ordinary concatenation,
// numbers, metamethods and the error for bad operands behave as in the VM.
func TestConcatenationLimit(t *testing.T) {
	defer func(old int64) { luavm.MaxString = old }(luavm.MaxString)
	luavm.MaxString = 8 << 20
	got := scripttest.Run(t, `local s = string.rep("x", 2^20)
print(pcall(function() while true do s = s .. s end end))
print(#s, 1 .. 2, "a" .. "b" .. 3.5)
local v = setmetatable({}, {__concat = function(a, b) return "meta" end})
print(v .. "x", "x" .. v)
print(pcall(function() return "a" .. nil end))
local function tail(a) return a .. "!" end
print(tail("end"))`)
	want := `false	t.lua:2: string concatenation: the result would be 16 MiB, over the limit of 8 MiB
8388608	12	ab3.5
meta	meta
false	t.lua:6: cannot perform concat operation between string and nil
end!
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	f, err := LoadLuaFilter(writeFilter(t, "double.lua", `return {
  filter = function(state, packets)
    local s = "x"
    local ok, err = pcall(function() while true do s = s .. s end end)
    return {#s, err}
  end}`), 0)
	if err != nil {
		t.Fatal(err)
	}
	// In a filter the memory budget counts what the call holds: s (32 MiB) and the
	// doubled string cannot both fit in 64 MiB, and pcall does not keep the call alive.
	tr, _ := newLuaTransform(f.Spec(nil), netreduce.NodeInfo{})
	_, err = tr.Filter([]*netreduce.Packet{{Count: 1}})
	if !errors.Is(err, luavm.ErrMemoryBudget) ||
		!strings.Contains(err.Error(), "memory budget exceeded: string concatenation of 64 MiB would take what the script holds past 64 MiB") {
		t.Errorf("got %v", err)
	}
}

// TestGsubLimit: string.gsub cannot grow a string past the limit, with a string, function
// or table replacement; ordinary substitutions are unchanged.
func TestGsubLimit(t *testing.T) {
	defer func(old int64) { luavm.MaxString = old }(luavm.MaxString)
	luavm.MaxString = 8 << 20
	got := scripttest.Run(t, `local s = string.rep("x", 2^20)
print(pcall(string.gsub, s, "x", "%0%0%0%0%0%0%0%0%0"))
print(pcall(string.gsub, s, "x", function(c) return c:rep(16) end))
print(pcall(string.gsub, s, "x", {x = ("y"):rep(16)}))
print(("hello world"):gsub("(%w+)", "<%1>"))
print(("a,b"):gsub("%a", {a = "1"}), ("a,b"):gsub("%a", string.upper, 1))`)
	want := `false	t.lua:2: string.gsub: the result could reach 28 MiB, over the limit of 8 MiB
false	t.lua:3: string.gsub: the result would exceed the limit of 8 MiB
false	t.lua:4: string.gsub: the result would exceed the limit of 8 MiB
<hello> <world>	2
1,b	A,b	1
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestLoadedChunksAreChecked: chunks compiled by loadstring, load and dofile get the same
// concatenation check as the session's own; their results and messages are unchanged.
func TestLoadedChunksAreChecked(t *testing.T) {
	defer func(old int64) { luavm.MaxString = old }(luavm.MaxString)
	luavm.MaxString = 8 << 20
	dir := t.TempDir()
	path := filepath.Join(dir, "m.lua")
	if err := os.WriteFile(path, []byte("#!/usr/bin/env dpclsh\nlocal s = ...\nreturn 'file ' .. (s or 'nil')"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := scripttest.Run(t, `local double = loadstring("local s = ... while true do s = s .. s end", "double")
print(pcall(double, string.rep("x", 2^20)))
print(loadstring("return 1 +", "bad"))
local parts = {"return ", "'a' .. ", "'b'"}
local i = 0
print(load(function() i = i + 1 return parts[i] end, "pieces")())
print(loadfile("`+path+`")("x"), dofile("`+path+`"))
print(loadfile("/nonexistent/x.lua"))`)
	want := "false\tdouble:1: string concatenation: the result would be 16 MiB, over the limit of 8 MiB\n" +
		"nil\tbad at EOF:   syntax error\n\n" +
		"ab\n" +
		"file x\tfile nil\n" +
		"nil\tcan not open file: /nonexistent/x.lua\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestEnvironmentOrderIsTheSame: pairs over an environment and its libraries visits keys in
// the same order whichever state made it (gopher-lua opens its libraries from Go maps).
func TestEnvironmentOrderIsTheSame(t *testing.T) {
	order := func() string {
		L := luavm.NewSandbox()
		defer L.Close()
		var b strings.Builder
		env := luavm.NewEnvironment(L)
		for k, v := env.Next(lua.LNil); k != lua.LNil; k, v = env.Next(k) {
			b.WriteString(k.String() + " ")
			if lib, ok := v.(*lua.LTable); ok && lib != env {
				for lk, _ := lib.Next(lua.LNil); lk != lua.LNil; lk, _ = lib.Next(lk) {
					b.WriteString(lk.String() + ",")
				}
			}
		}
		return b.String()
	}
	first := order()
	for range 5 {
		if got := order(); got != first {
			t.Fatalf("order differs:\n%s\n%s", got, first)
		}
	}
}
