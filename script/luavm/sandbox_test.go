package luavm

import (
	"errors"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

func loadSandboxFunc(t *testing.T, L *lua.LState, src string) *lua.LFunction {
	t.Helper()
	fn, err := L.Load(strings.NewReader(src), "filter.lua")
	if err != nil {
		t.Fatal(err)
	}
	return fn
}

func TestSandboxLibraries(t *testing.T) {
	L := NewSandbox()
	defer L.Close()
	absent := []string{"io", "os", "debug", "package", "coroutine", "channel", "require",
		"dofile", "loadfile", "load", "loadstring", "module", "collectgarbage", "print"}
	for _, name := range absent {
		if v := L.GetGlobal(name); v != lua.LNil {
			t.Errorf("sandbox global %s = %v, want nil", name, v.Type())
		}
	}
	present := []string{"pairs", "ipairs", "pcall", "error", "tostring", "setmetatable",
		"table", "string", "math"}
	for _, name := range present {
		if v := L.GetGlobal(name); v == lua.LNil {
			t.Errorf("sandbox global %s missing", name)
		}
	}
	fn := loadSandboxFunc(t, L, `return _G.io, _G.os, string.format("%d", 42), math.max(1, 9), table.concat({1,2}, ",")`)
	got, err := CallWithBudget(L, Limits{Instructions: 1e6}, nil, fn)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"nil", "nil", "42", "9", "1,2"}
	if len(got) != len(want) {
		t.Fatalf("got %d results, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].String() != w {
			t.Errorf("result %d = %s, want %s", i, got[i].String(), w)
		}
	}
}

func TestCallWithBudget(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		args    []lua.LValue
		want    string // results joined by ","
		wantErr string // substring of the error
	}{
		{"results", "local a, b = ...; return b, a, a + b", []lua.LValue{lua.LNumber(2), lua.LNumber(3)}, "3,2,5", ""},
		{"no results", "return", nil, "", ""},
		{"error names line", "local x = 1\nerror('bad packet')", nil, "", "filter.lua:2: bad packet"},
		{"infinite loop", "local n = 0\nwhile true do n = n + 1 end", nil, "", "filter.lua:2: budget exceeded: more than 100000 Lua instructions"},
		{"pcall cannot keep a loop alive", "while true do pcall(function() while true do end end) end", nil, "", "budget exceeded"},
		{"memory", "local t = {}\nfor i = 1, 1e6 do t[i] = string.rep('x', 100) end", nil, "", "budget exceeded: the filter's state and globals hold more than 1 MiB"},
		{"io is absent", "return io.open('x')", nil, "", "filter.lua:1:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			L := NewSandbox()
			defer L.Close()
			fn := loadSandboxFunc(t, L, tc.src)
			got, err := CallWithBudget(L, Limits{Instructions: 100_000, Memory: 1 << 20}, []lua.LValue{L.G.Global}, fn, tc.args...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				if strings.Contains(tc.wantErr, "budget") && !errors.Is(err, ErrBudget) {
					t.Errorf("err = %v, not ErrBudget", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, v := range got {
				parts = append(parts, v.String())
			}
			if s := strings.Join(parts, ","); s != tc.want {
				t.Errorf("results = %q, want %q", s, tc.want)
			}
			if L.GetTop() != 0 {
				t.Errorf("stack top = %d after call, want 0", L.GetTop())
			}
		})
	}
}

func TestCallWithBudgetReusesState(t *testing.T) {
	L := NewSandbox()
	defer L.Close()
	loop := loadSandboxFunc(t, L, "while true do end")
	if _, err := CallWithBudget(L, Limits{Instructions: 1000}, nil, loop); !errors.Is(err, ErrBudget) {
		t.Fatalf("loop: err = %v", err)
	}
	ok := loadSandboxFunc(t, L, "return 7")
	got, err := CallWithBudget(L, Limits{Instructions: 1000}, nil, ok)
	if err != nil || len(got) != 1 || got[0] != lua.LNumber(7) {
		t.Fatalf("after a spent budget the state must still work: %v %v", got, err)
	}
}

// TestSandboxRefusalsNameWhatWasRefused: a filter that reaches for a left-out library or
// function fails with an error naming it, at its line; pcall catches it, rawget sees nil,
// other missing globals are nil as before, and the environment's metatable is protected.
func TestSandboxRefusalsNameWhatWasRefused(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`os.execute("ls")`, "f.lua:1: os is not available in the sandbox of filters and back-ends (no access to the host)"},
		{`local f = io.open("/etc/passwd")`, "f.lua:1: io is not available in the sandbox of filters and back-ends (no file access)"},
		{`require("x")`, "f.lua:1: require is not available in the sandbox of filters and back-ends (no file access or code loading)"},
		{`x = loadstring("return 1")`, "f.lua:1: loadstring is not available in the sandbox of filters and back-ends (no code loading)"},
		{"local a = 1\nprint(a)", "f.lua:2: print is not available in the sandbox of filters and back-ends (no output: a filter hands its results back as return values)"},
		{`setmetatable(_G, nil)`, "cannot change a protected metatable"},
	} {
		_, err := sandboxCall(t, Limits{Instructions: 1e6}, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", c.src, err, c.want)
		}
	}
	env, err := sandboxCall(t, Limits{Instructions: 1e6}, `ok, msg = pcall(function() return dofile("x") end)
raw, other, mt = rawget(_G, "io"), undefined_global, getmetatable(_G)`)
	if err != nil {
		t.Fatal(err)
	}
	if env.RawGetString("ok") != lua.LFalse || !strings.Contains(env.RawGetString("msg").String(), "dofile is not available") {
		t.Errorf("pcall: %v %v", env.RawGetString("ok"), env.RawGetString("msg"))
	}
	if env.RawGetString("raw") != lua.LNil || env.RawGetString("other") != lua.LNil || env.RawGetString("mt") != lua.LFalse {
		t.Errorf("rawget %v, undefined %v, metatable %v", env.RawGetString("raw"), env.RawGetString("other"), env.RawGetString("mt"))
	}
}
