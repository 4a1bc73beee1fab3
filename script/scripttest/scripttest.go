// Package scripttest helps the tests of the Lua host and its modules: a session that
// writes to a buffer and closes when the test ends. It imports the kernel only, so a
// module's own tests can use it; a test registers the modules it needs by importing them
// (or script/std for all).
package scripttest

import (
	"bytes"
	"testing"

	"github.com/dpclsh/dpclsh/script"
	lua "github.com/yuin/gopher-lua"
)

// New returns a session whose print and error output go to the returned buffer; it is
// closed when t ends.
func New(t testing.TB) (*script.Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

// Run runs src as the chunk "t.lua" in a new session and returns what it printed, then
// "error: " and the error when the chunk failed.
func Run(t testing.TB, src string) string {
	t.Helper()
	s, out := New(t)
	if err := s.DoString(src, "t.lua"); err != nil {
		out.WriteString("error: " + err.Error() + "\n")
	}
	return out.String()
}

// Eval runs src as the chunk "test.lua" on s and returns what it returns; an error fails t.
func Eval(t testing.TB, s *script.Session, src string) []lua.LValue {
	t.Helper()
	fn, err := s.Load(src, "test.lua")
	if err != nil {
		t.Fatal(err)
	}
	vals, err := s.Call(fn)
	if err != nil {
		t.Fatal(err)
	}
	return vals
}
