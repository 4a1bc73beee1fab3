package script

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/dpclsh/dpclsh/netreduce"
	"github.com/dpclsh/dpclsh/script/luavm"

	lua "github.com/yuin/gopher-lua"
)

// Session is one Lua host: one *lua.LState owned by one goroutine. Other goroutines never
// touch the state; they Post functions that run when the script waits or the REPL is idle.
type Session struct {
	L *lua.LState

	events chan func()
	opts   Options

	mu       sync.Mutex
	closers  []io.Closer
	closed   bool
	idlers   []func(context.Context)
	ctx      context.Context    // the state's context; replaced after every stop
	cancel   context.CancelFunc // stops the running chunk
	vmctx    *sessionContext    // what the VM runs under: ctx and the memory meter
	mem      luavm.MemAccount   // the memory budget of the Lua state
	running  bool               // a top-level Call is in progress
	stopped  stopReason         // why cancel was called
	exitCode int
	exiting  bool

	modTables map[string]*lua.LTable // module name -> its table (global and require)

	stateMu sync.Mutex
	state   map[*keyID]any // per-session state of modules, by Key (state.go)

	depth   int                 // nesting of Call on the session goroutine
	sources map[string][]string // chunk name -> source lines, for error reports
	// internal names the chunks of the tool's own Lua (limpio.lua, modules.lua, ...): an
	// error positioned in one is reported at the user's innermost frame instead.
	internal map[string]bool
	docs     docIndex
}

// Options configure a session. The zero value writes to the process's stdout and stderr.
type Options struct {
	Stdout, Stderr io.Writer
	// Verbose keeps Go stack traces in errors raised by panicking Go functions.
	Verbose bool
	// Prelude is Lua source run in every new session before anything else (lib.lua);
	// PreludeName is its chunk name.
	Prelude, PreludeName string
	// Memory bounds, in bytes, what the Lua state holds (strings plus a fixed cost per
	// table slot, as Limits.Memory counts it): 0 is DefaultSessionMemory, < 0 none. A
	// chunk that would pass it fails with ErrMemoryBudget.
	Memory int64
	// Env is given to every job dpcl.launch starts, beside the launch's own env and export
	// ("NAME=value" strings; dpclsh ui --env/--export): a job's ranks never see the host's
	// environment unless it is named there or in export.
	Env []string
	// TCPTransport builds the TCP transport for netreduce.new{transport = "tcp"} from the
	// call's options; without it that transport is not available. cmd/dpclsh gives it (it
	// knows how to start `dpclsh comm`).
	TCPTransport func(opts map[string]any) (netreduce.Transport, error)
}

type stopReason int

const (
	notStopped stopReason = iota
	stopInterrupt
	stopExit
)

const sessionKey = "dpclsh.session"

// NewSession creates a Lua state with the standard libraries and every registered module,
// writing to the process's stdout and stderr.
func NewSession() *Session {
	s, err := NewSessionWith(Options{})
	if err != nil {
		panic("script: session without prelude failed: " + err.Error())
	}
	return s
}

// NewSessionWith creates a session with the given options; it fails only when the prelude
// does.
func NewSessionWith(o Options) (*Session, error) {
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	L := lua.NewState(lua.Options{IncludeGoStackTrace: o.Verbose})
	s := &Session{L: L, events: make(chan func(), 1024), opts: o, sources: map[string][]string{}, internal: map[string]bool{},
		modTables: map[string]*lua.LTable{}, mem: luavm.MemAccount{Limit: o.Memory}}
	if o.Memory == 0 {
		s.mem.Limit = DefaultSessionMemory()
	}
	ud := L.NewUserData()
	ud.Value = s
	L.G.Registry.RawSetString(sessionKey, ud)
	luavm.InstallProtectedCalls(L)
	luavm.InstallSizeChecks(L)
	luavm.InstallCheckedConcat(L, L.G.Global)
	luavm.InstallCheckedLoaders(L)
	installHostFuncs(s)
	installTypes(s)
	installModules(s)
	if o.Prelude != "" {
		name := o.PreludeName
		if name == "" {
			name = "prelude"
		}
		if err := s.DoString(o.Prelude, name); err != nil {
			s.Close()
			return nil, err
		}
		if err := s.checkModuleGlobals(name); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// checkModuleGlobals fails when code run so far (the prelude) replaced the global of a
// registered module: ctx, filter, probe... must stay the tables require returns.
func (s *Session) checkModuleGlobals(by string) error {
	for name, mod := range s.modTables {
		if s.L.GetGlobal(name) != mod {
			return fmt.Errorf("script: %s redefines the global %q of module %s", by, name, name)
		}
	}
	return nil
}

// SessionOf returns the session that owns L.
func SessionOf(L *lua.LState) *Session {
	if ud, ok := L.G.Registry.RawGetString(sessionKey).(*lua.LUserData); ok {
		if s, ok := ud.Value.(*Session); ok {
			return s
		}
	}
	panic("script: Lua state has no session")
}

// SetOutput redirects print, io.write and error reports, e.g. through the line editor so
// that output arriving while the prompt is shown redraws it.
func (s *Session) SetOutput(stdout, stderr io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.Stdout, s.opts.Stderr = stdout, stderr
}

// Stdout is where the session's print goes.
func (s *Session) Stdout() io.Writer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.Stdout
}

// Stderr is where the session reports errors of callbacks and events.
func (s *Session) Stderr() io.Writer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.Stderr
}

// Verbose reports whether Go stacks are kept in errors.
func (s *Session) Verbose() bool { return s.opts.Verbose }

// OnClose registers a resource closed (in reverse order) when the session ends.
func (s *Session) OnClose(c io.Closer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closers = append(s.closers, c)
}

// CloserFunc makes a function an io.Closer, for OnClose.
type CloserFunc func() error

func (f CloserFunc) Close() error { return f() }

// Post queues fn to run on the session goroutine; safe from any goroutine. It blocks
// while 1024 functions are already queued, so a producer cannot outrun the session.
func (s *Session) Post(fn func()) { s.events <- fn }

// Events is the channel of posted functions; the session goroutine drains it while waiting.
func (s *Session) Events() <-chan func() { return s.events }

// RunPending runs the posted functions already queued, without blocking, and says how
// many ran. Call it on the session goroutine.
func (s *Session) RunPending() int {
	n := 0
	for {
		select {
		case fn := <-s.events:
			fn()
			n++
		default:
			return n
		}
	}
}

// Wait runs posted functions as they arrive until ctx is done or the running call is
// interrupted (Ctrl-C, os.exit), and returns why it stopped. Blocking Lua functions
// (waits, sleeps) use it so that callbacks keep flowing and Ctrl-C keeps working.
func (s *Session) Wait(ctx context.Context) error {
	var callDone <-chan struct{} // nil, never ready, outside a running chunk
	s.mu.Lock()
	if s.running {
		callDone = s.ctx.Done()
	}
	s.mu.Unlock()
	for {
		select {
		case fn := <-s.events:
			fn()
		case <-ctx.Done():
			return ctx.Err()
		case <-callDone:
			return s.StopError()
		}
	}
}

// OnIdle registers fn to run, on its own goroutine, while the REPL waits for input; its
// context is cancelled, and fn awaited, before the user's next chunk runs. A simulated
// machine uses it to advance while the user is typing; what it wants the script to see it
// hands over with Post.
func (s *Session) OnIdle(fn func(ctx context.Context)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idlers = append(s.idlers, fn)
}

// StartIdle starts the OnIdle functions and returns the function that stops them. Stop
// cancels their context and, until they have all returned, keeps running posted functions
// so an idler blocked in Post cannot deadlock it. Both run on the session goroutine.
func (s *Session) StartIdle() (stop func()) {
	s.mu.Lock()
	idlers := append([]func(context.Context){}, s.idlers...)
	s.mu.Unlock()
	if len(idlers) == 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, fn := range idlers {
		wg.Go(func() { fn(ctx) })
	}
	return func() {
		cancel()
		done := make(chan struct{})
		go func() {
			wg.Wait()
			close(done)
		}()
		for {
			select {
			case <-done:
				return
			case fn := <-s.events:
				fn()
			}
		}
	}
}

// Close closes every registered resource and the Lua state.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	cs := s.closers
	s.closers = nil
	s.mu.Unlock()
	var errs []error
	for i := len(cs) - 1; i >= 0; i-- {
		if err := cs[i].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	s.L.Close()
	s.stateMu.Lock()
	s.state = nil // what the modules kept dies with the session
	s.stateMu.Unlock()
	return errors.Join(errs...)
}

func installTypes(s *Session) {
	L := s.L
	for _, t := range types {
		mt := L.NewTypeMetatable(t.Name)
		methods := L.NewTable()
		for _, f := range t.Methods {
			fn := L.NewFunction(f.Fn)
			methods.RawSetString(f.Name, fn)
			s.docs.addFunc(fn, t.Name+":"+f.Name, f.Doc)
		}
		mt.RawSetString("__index", methods)
		mt.RawSetString("__name", lua.LString(t.Name))
		for _, f := range t.Meta {
			mt.RawSetString(f.Name, L.NewFunction(f.Fn))
		}
	}
}

func installModules(s *Session) {
	L := s.L
	preload := L.GetField(L.GetField(L.Get(lua.EnvironIndex), "package"), "preload")
	for _, name := range moduleNames() {
		m := modules[name]
		mod := L.NewTable()
		for _, f := range m.Funcs {
			fn := L.NewFunction(f.Fn)
			mod.RawSetString(f.Name, fn)
			s.docs.addFunc(fn, name+"."+f.Name, f.Doc)
		}
		s.docs.addTable(mod, name, m.Doc)
		if m.Init != nil {
			m.Init(s, mod)
		}
		L.SetGlobal(name, mod)
		s.modTables[name] = mod
		if pt, ok := preload.(*lua.LTable); ok {
			captured := mod
			pt.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
				L.Push(captured)
				return 1
			}))
		}
	}
}

// TCPTransport is Options.TCPTransport: how netreduce.new{transport = "tcp"} builds its
// transport, nil when the host gives none.
func (s *Session) TCPTransport() func(opts map[string]any) (netreduce.Transport, error) {
	return s.opts.TCPTransport
}

// Env is Options.Env: what every job dpcl.launch starts is given besides its own env.
func (s *Session) Env() []string { return s.opts.Env }
