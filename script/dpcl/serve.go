package dpcl

import (
	"context"
	"errors"
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"math"
	"sync/atomic"

	"github.com/dpclsh/dpclsh/script/ui"
	lua "github.com/yuin/gopher-lua"
)

// The page (script/ui) is a client of the session: it never touches the Lua state or the
// machine. Its requests become page calls, queued on the session's dpclState and run on
// the session goroutine with the machine paused, where the script already runs callbacks:
// between the steps of app:wait, dpcl.sleep and dpcl.poll, and while the REPL (or
// `dpclsh ui` after its script) is idle. A page call wakes a running step early, so the
// page answers within a quantum even while the job computes without sending anything.

var appServeMethods = []script.Function{
	{Name: "serve", Doc: `app:serve([addr]) -> url
Serves a web page for the application (DynTG's source browser): the program's source files,
per-line columns of the loaded modules' data sources over a chosen context, updated live,
with a context menu per line to insert and remove module actions, a module dialog and the
job's status. addr defaults to "127.0.0.1:0" (loopback, a free port). The URL carries a
random token that every request must present; it is printed once. Every action taken on
the page runs here as the Lua line it shows (app:act(...), a:remove(), ...), echoed in the
output. The page is answered while the script waits (app:wait, dpcl.sleep, dpcl.poll) or
the REPL is idle; app:close() closes it. A second call returns the same URL.`, Fn: appServe},
	{Name: "counts", Doc: `app:counts() -> {exited=, faulted=, running=, codes = {[rank] = status}}
How many ranks run, exited and faulted now (app:wait returns the same table at the end).`, Fn: appCounts},
}

func appCounts(L *lua.LState) int {
	L.Push(waitTable(L, checkApp1(L)))
	return 1
}

func appServe(L *lua.LState) int {
	script.RefuseSharded(L, "app:serve")
	a := script.CheckObject[*luaApp](L, 1, appTypeName)
	checkApp1(L)
	addr := L.OptString(2, "")
	if a.server != nil {
		L.Push(lua.LString(a.server.URL()))
		return 1
	}
	st := dpclOf(L)
	be := &pageBackend{st: st, a: a, ud: L.CheckUserData(1)}
	srv, err := ui.Start(be, ui.Options{Addr: addr,
		Title: fmt.Sprintf("%s, %d ranks", a.app.Exe(), a.app.Size())})
	if err != nil {
		return appErr(L, "serve", err)
	}
	a.server = srv
	fmt.Fprintf(st.s.Stdout(), "dpcl: the page of %s is at %s\n", a.app.Exe(), srv.URL())
	L.Push(lua.LString(srv.URL()))
	return 1
}

// closeServer stops the application's page, if it has one.
func (a *luaApp) closeServer() error {
	if a.server == nil {
		return nil
	}
	err := a.server.Close()
	a.server = nil
	return err
}

// serving reports whether a page of this session is open.
func (st *dpclState) serving() bool {
	for _, a := range st.apps {
		if a.server != nil {
			return true
		}
	}
	return false
}

// pageCall is one request of the page waiting for the session goroutine.
type pageCall struct {
	run   func()
	state atomic.Int32 // callPending, then callRunning (the session took it) or callAbandoned
}

const (
	callPending int32 = iota
	callRunning
	callAbandoned
)

// pageBackend is ui.Backend for one application of a session.
type pageBackend struct {
	st *dpclState
	a  *luaApp
	ud *lua.LUserData
}

type pageResult struct {
	v   any
	err error
}

// Do queues c for the session goroutine and waits for its result. A call the session has
// not taken when ctx ends is dropped, so an action the page gave up on never runs later.
func (b *pageBackend) Do(ctx context.Context, c ui.Call) (any, error) {
	done := make(chan pageResult, 1)
	pc := &pageCall{}
	pc.run = func() {
		if pc.state.CompareAndSwap(callPending, callRunning) {
			v, err := b.run(c)
			done <- pageResult{v, err}
		}
	}
	select {
	case b.st.calls <- pc:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case b.st.wake <- struct{}{}:
	default:
	}
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		if pc.state.CompareAndSwap(callPending, callAbandoned) {
			return nil, ctx.Err()
		}
		r := <-done
		return r.v, r.err
	}
}

// run executes a page call on the session goroutine: the echo first, as typed, then the
// chunk with the application as app.
func (b *pageBackend) run(c ui.Call) (any, error) {
	s := b.st.s
	if b.a.closed() {
		return nil, errors.New("the application is closed")
	}
	if c.Echo != "" {
		fmt.Fprintf(s.Stdout(), "%s  -- page\n", c.Echo)
	}
	fn, err := s.Load("local app = ... "+c.Chunk, "page")
	if err != nil {
		return nil, &ui.LuaError{Msg: err.Error()}
	}
	out, err := s.Call(fn, b.ud)
	if err != nil {
		if isStop(err) {
			return nil, err
		}
		// The chunk is the page's wrapping of the line: the message alone says what failed.
		msg := err.Error()
		var le *script.Error
		if errors.As(err, &le) && (le.File == "page" || le.File == "") {
			msg = le.Msg
		}
		if c.Echo != "" {
			fmt.Fprintf(s.Stderr(), "page: %s\n", msg)
		}
		return nil, &ui.LuaError{Msg: msg}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return toJSON(s.L, out[0], 0), nil
}

// runCalls runs the page calls already queued; on the session goroutine, machine paused.
func (st *dpclState) runCalls() {
	for {
		select {
		case pc := <-st.calls:
			pc.run()
		default:
			return
		}
	}
}

// stepContext is the context of one machine step: when a page is served, a page call
// cancels it so the step ends at its next quantum and the call runs. Without a page it is
// ctx itself, so batch runs step exactly as before.
func (st *dpclState) stepContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if !st.serving() {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-st.wake:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// toJSON converts a Lua value to what encoding/json writes: tables with only keys 1..n
// become arrays (an empty table an empty object), other tables objects with string keys;
// numbers that JSON cannot hold (NaN, infinities) become null; addresses numbers; other
// userdata and tables with __tostring their text; functions are left out.
func toJSON(L *lua.LState, v lua.LValue, depth int) any {
	if depth > 32 {
		return nil
	}
	switch x := v.(type) {
	case lua.LBool:
		return bool(x)
	case lua.LNumber:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil
		}
		return f
	case lua.LString:
		return string(x)
	case *lua.LUserData:
		if a, ok := x.Value.(script.Address); ok {
			return float64(a)
		}
		return L.ToStringMeta(x).String()
	case *lua.LTable:
		if mt, ok := L.GetMetatable(x).(*lua.LTable); ok && mt.RawGetString("__tostring") != lua.LNil {
			return L.ToStringMeta(x).String()
		}
		return tableJSON(L, x, depth)
	}
	return nil
}

func tableJSON(L *lua.LState, t *lua.LTable, depth int) any {
	n := t.Len()
	count := 0
	t.ForEach(func(lua.LValue, lua.LValue) { count++ })
	if n > 0 && n == count {
		arr := make([]any, n)
		for i := 1; i <= n; i++ {
			arr[i-1] = toJSON(L, t.RawGetInt(i), depth+1)
		}
		return arr
	}
	obj := map[string]any{}
	t.ForEach(func(k, val lua.LValue) {
		if _, fn := val.(*lua.LFunction); !fn {
			obj[L.ToStringMeta(k).String()] = toJSON(L, val, depth+1)
		}
	})
	return obj
}

// ServePages makes sure the session's last open application has a page, as app:serve(addr)
// would, and returns the URLs of every open page; `dpclsh ui` calls it after its script.
func ServePages(s *script.Session, addr string) ([]string, error) {
	st := dpclOf(s.L)
	var last *luaApp
	for _, a := range st.apps {
		if !a.closed() {
			last = a
		}
	}
	if last == nil {
		return nil, errors.New("script: no open application to serve (the script must dpcl.launch one and leave it open)")
	}
	if !st.serving() {
		fn := s.L.NewFunction(appServe)
		if _, err := s.Call(fn, last.ud, lua.LString(addr)); err != nil {
			return nil, err
		}
	}
	var urls []string
	for _, a := range st.apps {
		if a.server != nil {
			urls = append(urls, a.server.URL())
		}
	}
	return urls, nil
}
