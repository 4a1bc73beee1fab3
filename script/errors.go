package script

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/dpclsh/dpclsh/script/luavm"

	lua "github.com/yuin/gopher-lua"
)

// Error is a Lua error (syntax or run time) with the place it happened.
type Error struct {
	File   string // chunk name; "" when unknown
	Line   int    // 0 when unknown
	Msg    string // the message without the location
	Source string // the offending source line, when known
	// Incomplete marks a syntax error at the end of the input: more lines could complete
	// the chunk (the REPL then asks for them).
	Incomplete bool
	// Traceback is the Lua stack and, in a verbose session, the Go stack of a panicking
	// Go function.
	Traceback string
	cause     error
}

func (e *Error) Error() string {
	if e.File == "" {
		return e.Msg
	}
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

func (e *Error) Unwrap() error { return e.cause }

// FormatError renders err for a person: "file:line: message", the offending source line,
// and with verbose the Lua traceback and any Go stack. The text ends with a newline.
func FormatError(err error, verbose bool) string {
	var b strings.Builder
	var e *Error
	if !errors.As(err, &e) {
		b.WriteString(err.Error())
		b.WriteByte('\n')
		return b.String()
	}
	b.WriteString(e.Error())
	b.WriteByte('\n')
	if src := strings.TrimSpace(e.Source); src != "" {
		fmt.Fprintf(&b, "    %d | %s\n", e.Line, src)
	}
	if verbose && e.Traceback != "" {
		b.WriteString(strings.TrimRight(e.Traceback, "\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

var (
	// gopher-lua's parser: "NAME line:3(column:8) near 'x':   syntax error".
	syntaxAtLine = regexp.MustCompile(`^ line:(\d+)\(column:\d+\) near '(.*)':\s+(.*)$`)
	// gopher-lua's parser at the end of the input: "NAME at EOF:   syntax error".
	syntaxAtEOF = regexp.MustCompile(`^ at EOF:\s+(.*)$`)
	// a run-time message: "NAME:12: message".
	runtimeAt = regexp.MustCompile(`(?s)^([^\s:][^:\n]*):(\d+):\s?(.*)$`)
	// the first Lua frame of a traceback: "\tNAME:12: in ...".
	tracebackAt = regexp.MustCompile(`(?m)^\t([^\s:\[][^:\n]*):(\d+):`)
)

func (s *Session) syntaxError(err error, name string, lastLine int) *Error {
	msg := strings.TrimSpace(luavm.ErrorMessage(err))
	rest := strings.TrimPrefix(msg, name)
	e := &Error{File: name, Msg: msg, cause: err}
	if m := syntaxAtLine.FindStringSubmatch(rest); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = fmt.Sprintf("%s near '%s'", m[3], m[2])
	} else if m := syntaxAtEOF.FindStringSubmatch(rest); m != nil {
		e.Line = lastLine
		e.Msg = m[1] + " at end of input"
		// A quoted string cannot continue on the next line; everything else (blocks,
		// expressions, long strings and comments) can.
		e.Incomplete = m[1] != "unterminated string"
	}
	e.Source = s.sourceLine(e.File, e.Line)
	return e
}

func (s *Session) runtimeError(err error) *Error {
	e := &Error{Msg: luavm.ErrorMessage(err), cause: err}
	var aerr *lua.ApiError
	if errors.As(err, &aerr) {
		e.Traceback = aerr.StackTrace
		if _, isString := aerr.Object.(lua.LString); !isString && aerr.Object != nil {
			e.Msg = Format(s.L, aerr.Object, DefaultFormat)
		}
	}
	if m := runtimeAt.FindStringSubmatch(e.Msg); m != nil {
		e.File = m[1]
		e.Line, _ = strconv.Atoi(m[2])
		e.Msg = m[3]
	}
	if m := tracebackAt.FindStringSubmatch(e.Traceback); m != nil && (e.File == "" || e.File == luavm.ChunkName) {
		// error(value) and panicking Go functions give no position: take the innermost
		// Lua frame of the traceback.
		e.File = m[1]
		e.Line, _ = strconv.Atoi(m[2])
	}
	if s.internal[e.File] {
		s.blameUser(e)
	}
	e.Source = s.sourceLine(e.File, e.Line)
	return e
}

// MarkInternal names chunks of the tool's own Lua (limpio.lua, modules.lua, ...). A user
// who calls into them with a wrong argument or a job in the wrong state needs the line of
// their own script, not one of the tool's: an error positioned in such a chunk is reported
// at the innermost frame of the traceback outside them, or with no position when the
// whole stack is the tool's (a command's own chunk, which names its error itself).
func (s *Session) MarkInternal(names ...string) {
	for _, n := range names {
		s.internal[n] = true
	}
}

// blameUser moves e's position from an internal chunk to the user's innermost frame.
func (s *Session) blameUser(e *Error) {
	e.File, e.Line = "", 0
	for _, m := range tracebackAt.FindAllStringSubmatch(e.Traceback, -1) {
		if !s.internal[m[1]] && m[1] != luavm.ChunkName {
			e.File = m[1]
			e.Line, _ = strconv.Atoi(m[2])
			return
		}
	}
}

// sourceLine returns line n of the chunk named name: from the chunks this session loaded,
// else from the file of that name.
func (s *Session) sourceLine(name string, n int) string {
	lines, ok := s.sources[name]
	if !ok {
		if data, err := os.ReadFile(name); err == nil && len(data) < 1<<22 {
			lines = strings.Split(string(data), "\n")
			s.sources[name] = lines
		}
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}
