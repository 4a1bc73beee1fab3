package main

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/dpclsh/dpclsh/script"
	"github.com/dpclsh/dpclsh/script/luavm"
	lua "github.com/yuin/gopher-lua"
)

// oneLine prints values in failure messages: each failure is one line of output.
var oneLine = script.FormatOptions{MaxDepth: 6, MaxItems: 50, Width: 1 << 30}

// checkFuncs are the methods of a Lua test's t object. Each returns "" when the check
// passes and the failure text otherwise; failures do not stop the test.
var checkFuncs = map[string]func(L *lua.LState) string{
	"eq":    checkEq,
	"ok":    checkOK,
	"fail":  checkFail,
	"error": checkError,
}

// newTestObject builds the t passed to a Test function; failed checks are appended to
// failures as "file:line: message", the line being the check's.
func newTestObject(s *script.Session, name string, failures *[]string) *lua.LTable {
	L := s.L
	t := L.NewTable()
	t.RawSetString("name", lua.LString(name))
	for method, check := range checkFuncs {
		t.RawSetString(method, L.NewFunction(func(L *lua.LState) int {
			if msg := check(L); msg != "" {
				*failures = append(*failures, strings.TrimSuffix(L.Where(1), ":")+": "+msg)
				L.Push(lua.LFalse)
			} else {
				L.Push(lua.LTrue)
			}
			return 1
		}))
	}
	return t
}

// withMessage prefixes the check's failure text with the test's own message, if any.
func withMessage(L *lua.LState, n int, text string) string {
	if msg := L.Get(n); msg != lua.LNil {
		return lua.LVAsString(L.ToStringMeta(msg)) + ": " + text
	}
	return text
}

func checkEq(L *lua.LState) string {
	got, want := L.Get(2), L.Get(3)
	if deepEqual(got, want, map[[2]*lua.LTable]bool{}) {
		return ""
	}
	return withMessage(L, 4, fmt.Sprintf("got %s, want %s",
		script.Format(L, got, oneLine), script.Format(L, want, oneLine)))
}

func checkOK(L *lua.LState) string {
	if lua.LVAsBool(L.Get(2)) {
		return ""
	}
	return withMessage(L, 3, "not ok: "+script.Format(L, L.Get(2), oneLine))
}

func checkFail(L *lua.LState) string {
	if L.Get(2) == lua.LNil {
		return "failed"
	}
	return lua.LVAsString(L.ToStringMeta(L.Get(2)))
}

// checkError calls fn and passes when it raises an error whose message matches the Lua
// pattern (any error when no pattern is given). An os.exit or interrupt inside fn is not
// an error to check: it keeps unwinding.
func checkError(L *lua.LState) string {
	fn := L.CheckFunction(2)
	pattern := L.OptString(3, "")
	s := script.SessionOf(L)
	_, err := s.Call(fn)
	if err == nil {
		return withMessage(L, 4, "no error raised")
	}
	var exit *script.ExitError
	if errors.As(err, &exit) || errors.Is(err, script.ErrInterrupted) {
		script.Raise(L, err)
	}
	if pattern == "" {
		return ""
	}
	msg := err.Error()
	find := L.GetField(L.GetGlobal("string"), "find")
	found, err := luavm.ProtectedCall(L, find, lua.LString(msg), lua.LString(pattern))
	if err != nil {
		L.ArgError(3, "bad pattern: "+err.Error())
	}
	if len(found) > 0 && found[0] != lua.LNil {
		return ""
	}
	return withMessage(L, 4, fmt.Sprintf("error %q does not match %q", msg, pattern))
}

// deepEqual compares tables by contents (recursively, cycle-safe) and anything else with
// raw equality; NaN equals NaN, so a check can expect it.
func deepEqual(a, b lua.LValue, seen map[[2]*lua.LTable]bool) bool {
	if na, ok := a.(lua.LNumber); ok {
		nb, ok := b.(lua.LNumber)
		return ok && (na == nb || math.IsNaN(float64(na)) && math.IsNaN(float64(nb)))
	}
	ta, ok1 := a.(*lua.LTable)
	tb, ok2 := b.(*lua.LTable)
	if !ok1 || !ok2 {
		return a == b
	}
	if ta == tb || seen[[2]*lua.LTable{ta, tb}] {
		return true
	}
	seen[[2]*lua.LTable{ta, tb}] = true
	equal := true
	ta.ForEach(func(k, v lua.LValue) {
		if equal && !deepEqual(v, tb.RawGet(k), seen) {
			equal = false
		}
	})
	tb.ForEach(func(k, _ lua.LValue) {
		if equal && ta.RawGet(k) == lua.LNil {
			equal = false
		}
	})
	return equal
}
