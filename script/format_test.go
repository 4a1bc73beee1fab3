package script

import (
	"strings"
	"testing"
)

// string.format's numeric conversions refuse values that are not numbers, as Lua 5.1 does,
// instead of printing Go's rendering of them ("&{}" for nil), and convert numeric strings.
func TestStringFormatNumericArguments(t *testing.T) {
	cases := []struct{ src, out, err string }{
		{`print(string.format("%d", nil))`, "", "bad argument #2 to 'format' (number expected, got nil)"},
		{`print(string.format("%x %d", 255))`, "", "bad argument #3 to 'format' (number expected, got no value)"},
		{`print(string.format("%s %5.1f", "a", {}))`, "", "bad argument #3 to 'format' (number expected, got table)"},
		{`print(string.format("%%d %s %5.2f %x %c", nil, "3", "0x10", 65))`, "%d nil  3.00 10 A\n", ""},
		{`print(("%d"):format(" 7 "))`, "7\n", ""},
	}
	for _, c := range cases {
		s, out := newTestSession(t)
		err := s.DoString(c.src, "f.lua")
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.src, err, c.err)
		case out.String() != c.out:
			t.Errorf("%s: printed %q, want %q", c.src, out.String(), c.out)
		}
	}
}
