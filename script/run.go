package script

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/dpclsh/dpclsh/script/luavm"

	lua "github.com/yuin/gopher-lua"
)

// ExitError is returned by Call (and everything that runs Lua) once the script has called
// os.exit: the session should be closed and the process should end with Code.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("script: exit status %d", e.Code) }

// ErrInterrupted is wrapped by the error of a chunk stopped by Interrupt (Ctrl-C).
var ErrInterrupted = errors.New("interrupted")

// Load compiles src as a chunk named name (a file name, "stdin", "-e") and remembers its
// lines so errors can quote them.
func (s *Session) Load(src, name string) (*lua.LFunction, error) {
	return s.LoadAt(src, name, 1)
}

// LoadAt is Load for a piece of a longer input whose first line is line first of name, as
// REPL chunks are: line numbers in errors and function positions then count from the
// start of the whole input ("stdin:17").
func (s *Session) LoadAt(src, name string, first int) (*lua.LFunction, error) {
	if first < 1 {
		first = 1
	}
	s.remember(name, src, first)
	proto, err := luavm.Compile(strings.NewReader(strings.Repeat("\n", first-1)+src), name)
	if err != nil {
		return nil, s.syntaxError(err, name, first+strings.Count(src, "\n"))
	}
	return s.L.NewFunctionFromProto(proto), nil
}

// LoadInteractive compiles a line typed at the REPL (or given with -e) the way the
// stand-alone lua 5.3 does: first as "return <src>", so that expressions give their
// values, then as a statement. The error, if any, is that of the statement form.
func (s *Session) LoadInteractive(src, name string, first int) (*lua.LFunction, error) {
	if fn, err := s.LoadAt("return "+src, name, first); err == nil {
		s.remember(name, src, first)
		return fn, nil
	}
	return s.LoadAt(src, name, first)
}

func (s *Session) remember(name, src string, first int) {
	lines := strings.Split(src, "\n")
	old := s.sources[name]
	if first == 1 {
		old = nil
	}
	for len(old) < first-1 {
		old = append(old, "")
	}
	s.sources[name] = append(old[:first-1], lines...)
}

// DoString loads and runs src as a chunk named name.
func (s *Session) DoString(src, name string) error {
	fn, err := s.Load(src, name)
	if err != nil {
		return err
	}
	_, err = s.Call(fn)
	return err
}

// DoFile runs the Lua file path as a main script with args; see RunMain.
func (s *Session) DoFile(path string, args []string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("script: cannot run %s: %w", path, err)
	}
	return s.RunMain(string(src), path, args)
}

// RunMain runs src as a main script named name, with args as its `...` and in the global
// table `arg` (arg[0] = name), as the stand-alone lua interpreter does. A first line
// starting with "#!" is ignored.
func (s *Session) RunMain(src, name string, args []string) error {
	fn, err := s.Load(stripShebang(src), name)
	if err != nil {
		return err
	}
	argt := s.L.NewTable()
	argt.RawSetInt(0, lua.LString(name))
	vals := make([]lua.LValue, len(args))
	for i, a := range args {
		argt.RawSetInt(i+1, lua.LString(a))
		vals[i] = lua.LString(a)
	}
	s.L.SetGlobal("arg", argt)
	_, err = s.Call(fn, vals...)
	return err
}

// stripShebang comments out a leading "#!" line so executable scripts load, keeping the
// line count.
func stripShebang(src string) string {
	if strings.HasPrefix(src, "#!") {
		return "--" + src
	}
	return src
}

// Context is the context of the running chunk: it is cancelled by Ctrl-C and os.exit.
// Go functions that block (waits, sleeps) select on its Done channel.
func (s *Session) Context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx == nil {
		return context.Background()
	}
	return s.ctx
}

// Call runs fn(args...) on the session goroutine and returns its results. At top level it
// arms the state's context, so Interrupt and os.exit stop the chunk even inside pcall;
// nested calls (callbacks run by Go functions) share the running chunk's context and get
// the same stop error, which the Go function should return to Lua as an error.
func (s *Session) Call(fn *lua.LFunction, args ...lua.LValue) ([]lua.LValue, error) {
	if s.depth == 0 {
		if err := s.beginCall(); err != nil {
			return nil, err
		}
		defer s.endCall()
	}
	s.depth++
	defer func() { s.depth-- }()
	var out []lua.LValue
	var err error
	if s.depth == 1 {
		out, err = s.callTop(fn, args)
	} else {
		// Lua code is running below this call: a failure must not close its upvalues.
		out, err = luavm.ProtectedCallN(s.L, fn, lua.MultRet, args...)
	}
	// A stop wins even when the call returned normally: `return pcall(loop)` is a tail
	// call, so no instruction of the chunk is left to notice the cancelled context.
	if stop := s.StopError(); stop != nil {
		return nil, s.locate(stop, err)
	}
	if err != nil {
		return nil, s.runtimeError(err)
	}
	return out, nil
}

// callTop runs a top-level call on the session's state, whose stack is empty.
func (s *Session) callTop(fn *lua.LFunction, args []lua.LValue) ([]lua.LValue, error) {
	L := s.L
	base := L.GetTop()
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	err := L.PCall(len(args), lua.MultRet, nil)
	if err != nil {
		L.SetTop(base)
		return nil, err
	}
	out := make([]lua.LValue, L.GetTop()-base)
	for i := range out {
		out[i] = L.Get(base + 1 + i)
	}
	L.SetTop(base)
	return out, nil
}

func (s *Session) beginCall() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exiting {
		return &ExitError{Code: s.exitCode}
	}
	if s.ctx == nil || s.ctx.Err() != nil {
		s.ctx, s.cancel = context.WithCancel(context.Background())
		s.vmctx = nil
	}
	if s.vmctx == nil || s.vmctx.err != nil {
		s.vmctx = newSessionContext(s, s.ctx)
		s.L.SetContext(s.vmctx)
	}
	s.running = true
	s.stopped = notStopped
	return nil
}

func (s *Session) endCall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
}

// Interrupt stops the running chunk, as Ctrl-C does; safe from any goroutine. pcall in
// the script cannot catch it. Without a running chunk it does nothing.
func (s *Session) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running && s.stopped == notStopped {
		s.stopped = stopInterrupt
		s.cancel()
	}
}

// Exit records that the session should end with status code and stops the running chunk;
// os.exit calls it. Later calls keep the first code.
func (s *Session) Exit(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exiting {
		s.exiting, s.exitCode = true, code
	}
	s.stopped = stopExit
	if s.cancel != nil {
		s.cancel()
	}
}

// ExitCode reports the status passed to os.exit, if the script called it.
func (s *Session) ExitCode() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode, s.exiting
}

// StopError is the error for a chunk stopped by Interrupt or Exit (or past its memory
// budget), nil otherwise: what a binding that waited returns through Raise.
func (s *Session) StopError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.exiting:
		return &ExitError{Code: s.exitCode}
	case s.stopped == stopInterrupt:
		return &Error{Msg: ErrInterrupted.Error(), cause: ErrInterrupted}
	}
	if err := s.memoryStop(); err != nil {
		return &Error{Msg: err.Error(), cause: err}
	}
	return nil
}

// locate gives an interrupt error the position where the chunk was stopped.
func (s *Session) locate(stop, raised error) error {
	var e *Error
	if !errors.As(stop, &e) {
		return stop
	}
	if raised == nil {
		return e
	}
	r := s.runtimeError(raised)
	e.File, e.Line, e.Source = r.File, r.Line, r.Source
	return e
}

// Raise turns err, returned by Call inside a Go function, into a Lua error of that
// function. After a stop (exit, interrupt) the chunk keeps unwinding whatever the script's
// pcalls do, because the state's context stays cancelled until the top-level call ends.
func Raise(L *lua.LState, err error) int {
	if err == nil {
		return 0
	}
	L.RaiseError("%s", err.Error())
	return 0
}
