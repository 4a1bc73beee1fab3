package script

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// A module and a type registered only in this package's tests.
type testThing struct{ N int }

func init() {
	RegisterModule(Module{
		Name: "testmod",
		Doc:  "testmod: a module for the script package's tests",
		Funcs: []Function{
			{Name: "thing", Doc: "testmod.thing(n) -> Thing\nMakes a thing.", Fn: func(L *lua.LState) int {
				L.Push(NewObject(L, "testmod.Thing", &testThing{N: L.CheckInt(1)}))
				return 1
			}},
			{Name: "wait", Doc: "testmod.wait()\nBlocks in Session.Wait until stopped.", Fn: func(L *lua.LState) int {
				return Raise(L, SessionOf(L).Wait(context.Background()))
			}},
			{Name: "panic", Doc: "testmod.panic()\nPanics, as a buggy binding would.", Fn: func(L *lua.LState) int {
				panic("a bug in a binding")
			}},
			{Name: "each", Doc: "testmod.each(n, f)\nCalls f(i) for i = 1..n from Go.", Fn: func(L *lua.LState) int {
				n, fn := L.CheckInt(1), L.CheckFunction(2)
				s := SessionOf(L)
				for i := 1; i <= n; i++ {
					if _, err := s.Call(fn, lua.LNumber(i)); err != nil {
						return Raise(L, err)
					}
				}
				return 0
			}},
		},
		Init: func(s *Session, mod *lua.LTable) { mod.RawSetString("answer", lua.LNumber(42)) },
	})
	RegisterType(Type{
		Name:    "testmod.Lazy",
		Doc:     "Lazy: a type whose __index is a function",
		Methods: []Function{{Name: "peek", Doc: "lazy:peek()", Fn: func(L *lua.LState) int { return 0 }}},
		Meta: []Function{{Name: "__index", Fn: func(L *lua.LState) int {
			L.Push(lua.LString("field " + L.CheckString(2)))
			return 1
		}}},
	})
	RegisterType(Type{
		Name: "testmod.Thing",
		Doc:  "Thing: a test object",
		Methods: []Function{{Name: "size", Doc: "thing:size() -> n", Fn: func(L *lua.LState) int {
			L.Push(lua.LNumber(CheckObject[*testThing](L, 1, "testmod.Thing").N))
			return 1
		}}},
		Meta: []Function{{Name: "__tostring", Fn: func(L *lua.LState) int {
			L.Push(lua.LString("thing#" + lua.LNumber(CheckObject[*testThing](L, 1, "testmod.Thing").N).String()))
			return 1
		}}},
	})
}

func newTestSession(t *testing.T) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := NewSessionWith(Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &out
}

func eval(t *testing.T, s *Session, src string) []lua.LValue {
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

func TestModulesAreGlobalsAndRequirable(t *testing.T) {
	s, _ := newTestSession(t)
	got := eval(t, s, `return require("testmod") == testmod, testmod.answer, testmod.thing(3):size(), tostring(testmod.thing(4))`)
	want := []string{"true", "42", "3", "thing#4"}
	for i, w := range want {
		if got[i].String() != w {
			t.Errorf("value %d = %s, want %s", i, got[i], w)
		}
	}
}

type closeRecorder struct {
	closed *[]string
	name   string
}

func (c closeRecorder) Close() error { *c.closed = append(*c.closed, c.name); return nil }

func TestExitIsNotCaughtByPcallAndClosesResources(t *testing.T) {
	s, out := newTestSession(t)
	var closed []string
	s.OnClose(closeRecorder{&closed, "first"})
	s.OnClose(closeRecorder{&closed, "second"})
	fn, err := s.Load("for i = 1, 3 do pcall(os.exit, 9) end print('not reached')", "exit.lua")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Call(fn)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 9 {
		t.Fatalf("err = %v, want exit status 9", err)
	}
	if code, ok := s.ExitCode(); !ok || code != 9 {
		t.Errorf("ExitCode = %d, %v", code, ok)
	}
	if out.Len() != 0 {
		t.Errorf("output after os.exit: %q", out.String())
	}
	if _, err := s.Call(fn); !errors.As(err, &exit) {
		t.Errorf("a call after os.exit ran: %v", err)
	}
	s.Close()
	if strings.Join(closed, ",") != "second,first" {
		t.Errorf("closed %v, want second,first", closed)
	}
}

func TestExitFromCallbackUnwindsGoFunctions(t *testing.T) {
	s, out := newTestSession(t)
	fn, _ := s.Load("pcall(testmod.each, 5, function(i) print(i) if i == 2 then os.exit(4) end end) print('after')", "cb.lua")
	_, err := s.Call(fn)
	var exit *ExitError
	if !errors.As(err, &exit) || exit.Code != 4 {
		t.Fatalf("err = %v, want exit 4", err)
	}
	if out.String() != "1\n2\n" {
		t.Errorf("output %q, want 1 and 2 only", out.String())
	}
}

func TestInterrupt(t *testing.T) {
	loops := []string{
		"while true do end",
		"while true do pcall(function() while true do end end) end",
		"return pcall(function() while true do end end)",
		"testmod.each(1e9, function() end)",
		"pcall(testmod.wait) while true do end",
	}
	for _, src := range loops {
		t.Run(src, func(t *testing.T) {
			s, _ := newTestSession(t)
			fn, err := s.Load(src, "loop.lua")
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				time.Sleep(50 * time.Millisecond)
				s.Interrupt()
			}()
			_, err = s.Call(fn)
			if !errors.Is(err, ErrInterrupted) {
				t.Fatalf("err = %v, want interrupted", err)
			}
			if got := eval(t, s, "return 1 + 1"); got[0] != lua.LNumber(2) {
				t.Errorf("session unusable after an interrupt: %v", got)
			}
		})
	}
}

func TestInterruptWithoutRunningChunkIsIgnored(t *testing.T) {
	s, _ := newTestSession(t)
	s.Interrupt()
	if got := eval(t, s, "return 'ran'"); got[0].String() != "ran" {
		t.Errorf("got %v", got)
	}
}

func TestCoroutinesSurviveAcrossCalls(t *testing.T) {
	s, _ := newTestSession(t)
	eval(t, s, "co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)")
	eval(t, s, "co()")
	if got := eval(t, s, "return co()"); got[0] != lua.LNumber(2) {
		t.Errorf("coroutine resumed in a later call gave %v", got)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		src        string
		file       string
		line       int
		msg        string
		source     string
		incomplete bool
	}{
		{"local x = 1\nerror('boom')", "e.lua", 2, "boom", "error('boom')", false},
		{"x = = 2", "e.lua", 1, "syntax error near '='", "x = = 2", false},
		{"for i = 1, 2 do", "e.lua", 1, "syntax error at end of input", "for i = 1, 2 do", true},
		{"s = 'open", "e.lua", 1, "unterminated string at end of input", "s = 'open", false},
		{"\n\nerror({code = 1})", "e.lua", 3, "{code = 1}", "error({code = 1})", false},
		{"local t\nreturn t.x", "e.lua", 2, "attempt to index a non-table object(nil) with key 'x'", "return t.x", false},
		{"error('no position', 0)", "e.lua", 1, "no position", "error('no position', 0)", false},
		{"\ntestmod.panic()", "e.lua", 2, "a bug in a binding", "testmod.panic()", false},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			s, _ := newTestSession(t)
			fn, err := s.Load(tc.src, "e.lua")
			if err == nil {
				_, err = s.Call(fn)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			if e.File != tc.file || e.Line != tc.line || e.Msg != tc.msg || e.Source != tc.source || e.Incomplete != tc.incomplete {
				t.Errorf("got %+v\nwant file %q line %d msg %q source %q incomplete %v", *e, tc.file, tc.line, tc.msg, tc.source, tc.incomplete)
			}
		})
	}
}

func TestFormatError(t *testing.T) {
	s, _ := newTestSession(t)
	fn, _ := s.Load("local a = 1\nerror('boom')", "f.lua")
	_, err := s.Call(fn)
	if got, want := FormatError(err, false), "f.lua:2: boom\n    2 | error('boom')\n"; got != want {
		t.Errorf("FormatError = %q, want %q", got, want)
	}
	if got := FormatError(err, true); !strings.Contains(got, "stack traceback") {
		t.Errorf("verbose FormatError lacks the traceback: %q", got)
	}
}

func TestLoadAtNumbersLinesFromTheWholeInput(t *testing.T) {
	s, _ := newTestSession(t)
	fn, err := s.LoadAt("local x = nil\nreturn x.y", "stdin", 17)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Call(fn)
	var e *Error
	if !errors.As(err, &e) || e.Line != 18 || e.File != "stdin" || e.Source != "return x.y" {
		t.Fatalf("err = %#v", err)
	}
}

func TestPostAndWait(t *testing.T) {
	s, out := newTestSession(t)
	eval(t, s, "function onmsg(v) print('got', v) end")
	for i := 1; i <= 3; i++ {
		go s.Post(func() {
			fn := s.L.GetGlobal("onmsg").(*lua.LFunction)
			if _, err := s.Call(fn, lua.LNumber(1)); err != nil {
				t.Error(err)
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	n := 0
	for n < 3 && ctx.Err() == nil {
		n += s.RunPending()
		time.Sleep(time.Millisecond)
	}
	if out.String() != strings.Repeat("got\t1\n", 3) {
		t.Errorf("output %q", out.String())
	}
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if err := s.Wait(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait = %v", err)
	}
}

func TestIdlersStopBeforeTheNextChunk(t *testing.T) {
	s, out := newTestSession(t)
	ticks := 0
	s.OnIdle(func(ctx context.Context) {
		for ctx.Err() == nil {
			s.Post(func() { ticks++ })
			time.Sleep(time.Millisecond)
		}
		s.Post(func() { writeLine(out, "idle stopped") })
	})
	stop := s.StartIdle()
	deadline := time.Now().Add(5 * time.Second)
	for ticks == 0 && time.Now().Before(deadline) {
		s.RunPending()
		time.Sleep(time.Millisecond)
	}
	stop()
	s.RunPending()
	if ticks == 0 || !strings.Contains(out.String(), "idle stopped") {
		t.Errorf("ticks %d, output %q", ticks, out.String())
	}
}

func writeLine(b *bytes.Buffer, s string) { b.WriteString(s + "\n") }

func TestGoStackOnlyWhenVerbose(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		s, err := NewSessionWith(Options{Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Verbose: verbose})
		if err != nil {
			t.Fatal(err)
		}
		fn, _ := s.Load("testmod.panic()", "p.lua")
		_, err = s.Call(fn)
		text := FormatError(err, verbose)
		if !strings.HasPrefix(text, "p.lua:1: a bug in a binding\n") {
			t.Errorf("verbose=%v: %q", verbose, text)
		}
		if hasStack := strings.Contains(text, "goroutine "); hasStack != verbose {
			t.Errorf("verbose=%v: Go stack shown = %v:\n%s", verbose, hasStack, text)
		}
		s.Close()
	}
}

func TestPreludeMayNotShadowModules(t *testing.T) {
	_, err := NewSessionWith(Options{Prelude: "function testmod() end", PreludeName: "lib.lua"})
	if err == nil || !strings.Contains(err.Error(), `lib.lua redefines the global "testmod"`) {
		t.Fatalf("err = %v", err)
	}
	s, err := NewSessionWith(Options{Prelude: "function helper() end", PreludeName: "lib.lua"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}
