package tracelang

import (
	"fmt"
	"strings"
)

// Error is a mistake in a program's text. Its message is bpftrace's: the place, what is
// wrong, then the line and a caret under the column.
type Error struct {
	Name string // "stdin" or the file name
	Pos  Pos
	Msg  string
	Line string // the source line the caret points into
}

func (e *Error) Error() string {
	caret := strings.Repeat(" ", max(caretColumn(e.Line, e.Pos.Col)-1, 0)) + "^"
	return fmt.Sprintf("%s:%d:%d: %s\n%s\n%s", e.Name, e.Pos.Line, e.Pos.Col, e.Msg, e.Line, caret)
}

// caretColumn bounds the caret to one past the line's end (an error at end of input).
func caretColumn(line string, col int) int { return min(col, len(line)+1) }

// errAt builds an Error for the program src named name at p.
func errAt(name, src string, p Pos, format string, args ...any) *Error {
	return &Error{Name: name, Pos: p, Msg: fmt.Sprintf(format, args...), Line: sourceLine(src, p.Line)}
}

// sourceLine is line n (1-based) of src, without its newline; tabs become spaces so that
// the caret below it lines up.
func sourceLine(src string, n int) string {
	lines := strings.Split(src, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.ReplaceAll(strings.TrimRight(lines[n-1], "\r"), "\t", " ")
}
