package tracelang

import (
	"errors"
	"testing"
)

// FuzzParse feeds the parser and the checker arbitrary text: they return a program or an
// *Error whose position lies inside the text, and never panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"MPI_*:entry { @[func] = count(); }",
		"MPI_Send:entry /rank % 2 == 0 && arg1 > 1024/ { @bytes[rank] = hist(arg1) }",
		"BEGIN { printf(\"hi %d\\n\", 1) } END { print(@x); clear(@x) }",
		"a.c:12 { $x = -arg0 << 2; @m[$x % 8, probe] = lhist($x, 0, 64, 8) }",
		"/* c */ f:exit { @r = stats(retval) } // end",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, _, err := parseCheck(src)
		if err == nil {
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %T %v is not an *Error", src, err, err)
		}
		if e.Pos.Line < 1 || e.Pos.Col < 1 {
			t.Fatalf("%q: position %d:%d", src, e.Pos.Line, e.Pos.Col)
		}
	})
}
