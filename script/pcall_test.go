package script

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// runLua runs src in a new session and returns what it printed, with the error, if any,
// on a last line.
func runLua(t *testing.T, src string) string {
	t.Helper()
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoString(src, "t.lua"); err != nil {
		out.WriteString("error: " + err.Error() + "\n")
	}
	return out.String()
}

// TestCallbackErrorKeepsUpvalues: a Lua function called from Go while the script runs (a
// callback) that fails must not close the upvalues of the script's frames below it.
func TestCallbackErrorKeepsUpvalues(t *testing.T) {
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.L.SetGlobal("call", s.L.NewFunction(func(L *lua.LState) int {
		_, err := s.Call(L.CheckFunction(1))
		L.Push(lua.LBool(err == nil))
		return 1
	}))
	src := `local n = 0
local function cb() n = n + 1; error("callback failed") end
print(call(cb), call(cb), n)`
	if err := s.DoString(src, "cb.lua"); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "false\tfalse\t2\n" {
		t.Errorf("got %q, want the script to see both increments", got)
	}
}

// TestToStringErrorKeepsUpvalues: printing a value whose __tostring fails does not close
// the upvalues of the code that printed it.
func TestToStringErrorKeepsUpvalues(t *testing.T) {
	got := runLua(t, `local n = 0
local bad = setmetatable({}, {__tostring = function() error("no") end})
local function f() n = n + 1; pp(bad) end
f(); f(); print(n)`)
	if !strings.HasSuffix(got, "\n2\n") {
		t.Errorf("got %q, want n = 2 at the end", got)
	}
}

// BenchmarkPcall measures one pcall of a function that returns, and one that fails, in a
// session (pcall on its own thread) against a plain gopher-lua state (its own pcall).
func BenchmarkPcall(b *testing.B) {
	const loop = `local f, n = ...
for i = 1, n do pcall(f, i) end`
	for _, fn := range []struct{ name, src string }{
		{"ok", `return function(x) return x end`},
		{"error", `return function(x) error("e") end`},
	} {
		states := []struct {
			name string
			L    func() (*lua.LState, func())
		}{
			{"gopher", func() (*lua.LState, func()) { L := lua.NewState(); return L, L.Close }},
			{"dpclsh", func() (*lua.LState, func()) { s := NewSession(); return s.L, func() { s.Close() } }},
		}
		for _, st := range states {
			b.Run(fn.name+"/"+st.name, func(b *testing.B) {
				L, done := st.L()
				defer done()
				if err := L.DoString(fn.src); err != nil {
					b.Fatal(err)
				}
				f := L.Get(-1)
				L.Pop(1)
				run, err := L.LoadString(loop)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				if err := L.CallByParam(lua.P{Fn: run, Protect: true}, f, lua.LNumber(b.N)); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}

// TestInterruptInsideProtectedCalls: Ctrl-C stops a chunk looping inside pcall, inside a
// coroutine, and inside a protected call parked by a yield, and the error names the line.
func TestInterruptInsideProtectedCalls(t *testing.T) {
	for _, src := range []string{
		"local n = 0\nwhile true do pcall(function() while true do n = n + 1 end end) end",
		"local co = coroutine.wrap(function()\nwhile true do pcall(function() while true do end end) end end)\nco()",
		"local co = coroutine.wrap(function() pcall(function() coroutine.yield() while true do end end) end)\nco()\nco()",
	} {
		s, err := NewSessionWith(Options{Stdout: io.Discard, Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- s.DoString(src, "i.lua") }()
		var got error
	wait:
		for {
			select {
			case got = <-done:
				break wait
			case <-time.After(20 * time.Millisecond):
				s.Interrupt()
			}
		}
		if !errors.Is(got, ErrInterrupted) || !strings.Contains(got.Error(), "i.lua:") {
			t.Errorf("%q: err = %v, want an interrupt at a line of i.lua", src, got)
		}
		s.Close()
	}
}
