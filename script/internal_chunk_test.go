package script

import (
	"bytes"
	"errors"
	"testing"
)

// TestErrorInToolLuaNamesTheUsersLine: a user's wrong call into the tool's own Lua (a
// library chunk marked internal) is reported at the user's line, whether the library
// raised it with error or a Go function raised it under the library's frame.
func TestErrorInToolLuaNamesTheUsersLine(t *testing.T) {
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lib := `
toollib = {}
local function check(x)
  if type(x) ~= "number" then error("toollib.f: x must be a number", 1) end
end
function toollib.f(x) check(x) end
`
	if err := s.DoString(lib, "toollib.lua"); err != nil {
		t.Fatal(err)
	}
	user := "local a = 1\n\ntoollib.f('no')\n"
	for _, internal := range []bool{false, true} {
		if internal {
			s.MarkInternal("toollib.lua")
		}
		err := s.DoString(user, "user.lua")
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("want a script.Error, got %v", err)
		}
		file, line := "toollib.lua", 4
		if internal {
			file, line = "user.lua", 3
		}
		if e.File != file || e.Line != line || e.Msg != "toollib.f: x must be a number" {
			t.Errorf("internal=%v: %s:%d: %s, want %s:%d", internal, e.File, e.Line, e.Msg, file, line)
		}
		if internal && e.Source != "toollib.f('no')" {
			t.Errorf("source line %q", e.Source)
		}
	}
}
