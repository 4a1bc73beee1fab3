package luavm

import (
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// gopher-lua 1.1.2 closes the open upvalues of every active frame of a state when an
// error is raised without a handler, not only those of the frames the error unwinds. A
// closure that captured a local of a frame below the pcall then writes to a copy the frame
// never reads again:
//
//	local c = 0; local function f() c = c + 1; pcall(error) end; f(); f(); print(c) --> 1
//
// Every protected call dpclsh makes (pcall, xpcall, callbacks and other Lua functions
// called from Go while Lua code is running) therefore runs on a thread of its own: a
// thread has its own stack and list of open upvalues, so unwinding it cannot close the
// caller's. Threads are pooled per state; a finished thread is reused.
//
// A protected call made from a coroutine runs resumed on its thread, so a coroutine.yield
// inside it reaches the coroutine's resumer: pcall yields the coroutine with what the
// thread yielded and parks the thread; the state's coroutine.resume and coroutine.wrap
// resume a parked thread first and hand its results to the coroutine as those of the
// pcall (coroutine.go). Outside a coroutine a yield has nowhere to go; the call runs
// directly and the yield fails inside it, as it does for the standard pcall.

const protectorKey = "dpclsh.protector"

// maxIdleThreads is how many finished threads a state keeps for later protected calls.
const maxIdleThreads = 4

// protector is the thread pool of one Lua state (its G: the state and its coroutines).
type protector struct {
	idle   []*lua.LState
	parked map[*lua.LState]parkedCall // a coroutine -> the protected call it yielded from
	// active are the threads of protected calls in progress (running, or parked in a
	// coroutine): what their frames hold counts in a memory measurement (meter.go).
	active map[*lua.LState]bool
}

// parkedCall is a protected call whose thread yielded: resuming its coroutine resumes it.
type parkedCall struct {
	th *lua.LState
	h  *lua.LFunction // xpcall's handler, or nil
}

func newProtector() *protector {
	return &protector{parked: map[*lua.LState]parkedCall{}, active: map[*lua.LState]bool{}}
}

// InstallProtectedCalls replaces pcall and xpcall in L's globals (and in the base library
// table, which may be a different one) and creates L's thread pool; error is replaced
// too, so its level counts frames as Lua's does (errorlevel.go).
func InstallProtectedCalls(L *lua.LState) {
	ud := L.NewUserData()
	ud.Value = newProtector()
	L.G.Registry.RawSetString(protectorKey, ud)
	tables := []*lua.LTable{L.G.Global}
	if loaded, ok := L.G.Registry.RawGetString("_LOADED").(*lua.LTable); ok {
		if base, ok := loaded.RawGetString("_G").(*lua.LTable); ok && base != L.G.Global {
			tables = append(tables, base)
		}
	}
	pcall, xpcall := L.NewFunction(luaPcall), L.NewFunction(luaXpcall)
	for _, t := range tables {
		t.RawSetString("pcall", pcall)
		t.RawSetString("xpcall", xpcall)
	}
	installCoroutines(L, tables)
	installErrorLevels(L, tables)
}

// protectorOf returns the pool of L's state, creating it for a state that has none (a
// state InstallProtectedCalls was not called on).
func protectorOf(L *lua.LState) *protector {
	if ud, ok := L.G.Registry.RawGetString(protectorKey).(*lua.LUserData); ok {
		if p, ok := ud.Value.(*protector); ok {
			return p
		}
	}
	p := newProtector()
	ud := L.NewUserData()
	ud.Value = p
	L.G.Registry.RawSetString(protectorKey, ud)
	return p
}

// thread returns an idle thread of L's state, running under L's context (interrupts and
// budgets reach code inside protected calls).
func (p *protector) thread(L *lua.LState) *lua.LState {
	var th *lua.LState
	if n := len(p.idle); n > 0 {
		th, p.idle = p.idle[n-1], p.idle[:n-1]
	} else {
		th = newPoolThread(L)
	}
	if ctx := L.Context(); ctx != nil {
		th.SetContext(ctx)
	} else {
		th.RemoveContext()
	}
	p.active[th] = true
	return th
}

// newPoolThread makes a thread of L's state with a small growable stack: a protected call
// rarely needs the main state's fixed 5120 slots. The thread has no context of its own
// (thread sets the caller's), so creating it does not derive one from L's.
func newPoolThread(L *lua.LState) *lua.LState {
	opts := L.Options
	small := opts
	small.RegistrySize, small.RegistryGrowStep = 256, 256
	small.RegistryMaxSize = max(opts.RegistryMaxSize, opts.RegistrySize)
	small.MinimizeStackMemory = true
	ctx := L.RemoveContext()
	L.Options = small
	th, _ := L.NewThread()
	L.Options = opts
	if ctx != nil {
		L.SetContext(ctx)
	}
	th.Options = opts
	return th
}

// release returns a thread whose call finished to the pool.
func (p *protector) release(th *lua.LState) {
	delete(p.active, th)
	th.SetTop(0)
	th.RemoveContext()
	th.Dead = false
	if len(p.idle) < maxIdleThreads {
		p.idle = append(p.idle, th)
	}
}

// luaPcall is pcall(f, ...) called by the script.
func luaPcall(L *lua.LState) int { return luaPcallAt(L, 1) }

// luaPcallAt is pcall(f, ...) called level frames below the script's code (2 behind the
// wrapper of yield.go).
func luaPcallAt(L *lua.LState, level int) int {
	if L.GetTop() < 1 {
		argError(L, level, 1, "pcall", "value expected")
	}
	f := L.Get(1)
	if f.Type() != lua.LTFunction && L.GetMetaField(f, "__call").Type() != lua.LTFunction {
		L.Push(lua.LFalse)
		L.Push(lua.LString("attempt to call a " + f.Type().String() + " value"))
		return 2
	}
	return protectorOf(L).call(L, f, nil, 2, level)
}

// luaXpcall is xpcall(f, handler) called by the script.
func luaXpcall(L *lua.LState) int { return luaXpcallAt(L, 1) }

func luaXpcallAt(L *lua.LState, level int) int {
	f, ok := L.Get(1).(*lua.LFunction)
	if !ok {
		argError(L, level, 1, "xpcall", "function expected, got "+L.Get(1).Type().String())
	}
	h, ok := L.Get(2).(*lua.LFunction)
	if !ok {
		argError(L, level, 2, "xpcall", "function expected, got "+L.Get(2).Type().String())
	}
	return protectorOf(L).call(L, f, h, 3, level)
}

// argError raises gopher-lua's message for a bad argument n of the library function name,
// at the position of the script's code level frames up.
func argError(L *lua.LState, level, n int, name, msg string) {
	L.Error(lua.LString(fmt.Sprintf("%sbad argument #%d to %s (%s)", at(L, level), n, name, msg)), 0)
}

// call runs f with L's values from index first on as arguments and pushes true and the
// results, or false and the error (passed through h when given). In a coroutine (L has a
// resumer) a Lua function runs resumed, and a yield inside it yields L.
func (p *protector) call(L *lua.LState, f lua.LValue, h *lua.LFunction, first, level int) int {
	top := L.GetTop()
	if fn, _ := f.(*lua.LFunction); fn != nil && !fn.IsG && L.Parent != nil {
		args := make([]lua.LValue, 0, max(top-first+1, 0))
		for i := first; i <= top; i++ {
			args = append(args, L.Get(i))
		}
		th := p.thread(L)
		st, err, vals := L.Resume(th, fn, args...)
		if st == lua.ResumeYield {
			p.parked[L] = parkedCall{th, h}
			return L.Yield(vals...)
		}
		out := p.finish(L, th, h, st, err, vals)
		for _, v := range out {
			L.Push(v)
		}
		return len(out)
	}
	th := p.thread(L)
	th.Push(f)
	for i := first; i <= top; i++ {
		th.Push(L.Get(i))
	}
	err := th.PCall(max(top-first+1, 0), lua.MultRet, h)
	if err != nil {
		L.Push(lua.LFalse)
		L.Push(locateGoError(L, level, f, errorObject(err)))
		if h == nil {
			p.release(th)
		} else {
			// A handler stops gopher-lua from closing the failed frames' upvalues, so a
			// closure they made may still point into the thread's stack: never reuse it.
			delete(p.active, th)
		}
		return 2
	}
	n := th.GetTop()
	L.Push(lua.LTrue)
	th.XMoveTo(L, n)
	p.release(th)
	return n + 1
}

// finish turns the end of a resumed protected call into pcall's results and retires its
// thread: a finished one goes back to the pool, a failed one (it keeps the frames the
// error unwound through) is dropped. The handler of a resumed xpcall runs after the
// thread has unwound.
func (p *protector) finish(L, th *lua.LState, h *lua.LFunction, st lua.ResumeState, err error, vals []lua.LValue) []lua.LValue {
	if st == lua.ResumeOK {
		p.release(th)
		return append([]lua.LValue{lua.LTrue}, vals...)
	}
	delete(p.active, th)
	obj := errorObject(err)
	if h != nil {
		out, herr := ProtectedCallN(L, h, 1, obj)
		if obj = errorObject(herr); herr == nil {
			obj = out[0]
		}
	}
	return []lua.LValue{lua.LFalse, obj}
}

// locateGoError gives the error of a Go function called directly by pcall (pcall(error,
// "x"), pcall(bgl.run, ...)) the position of the Lua code that called pcall: on the
// thread no Lua frame lies below the Go function, so gopher-lua found none and left the
// message starting with the space that would have followed it.
func locateGoError(L *lua.LState, level int, f lua.LValue, obj lua.LValue) lua.LValue {
	fn, _ := f.(*lua.LFunction)
	msg, ok := obj.(lua.LString)
	// Behind the wrapper of yield.go gopher-lua names the wrapper's line instead.
	if rest, found := strings.CutPrefix(string(msg), ChunkName+":"); ok && found {
		if i := strings.IndexByte(rest, ':'); i >= 0 {
			msg = lua.LString(rest[i+1:])
		}
	}
	if fn == nil || !fn.IsG || !ok || !strings.HasPrefix(string(msg), " ") {
		return obj
	}
	if where := L.Where(level); where != "" && !strings.HasPrefix(where, ChunkName+":") {
		return lua.LString(where) + msg
	}
	return msg[1:]
}

// errorObject is the Lua error value of err, as pcall returns it.
func errorObject(err error) lua.LValue {
	var aerr *lua.ApiError
	if errors.As(err, &aerr) && aerr.Object != nil {
		return aerr.Object
	}
	if err == nil {
		return lua.LNil
	}
	return lua.LString(err.Error())
}

// ProtectedCallN calls fn(args...) from Go on a pool thread of L's state and returns nret
// results (all with lua.MultRet), or the *lua.ApiError of the failure with the thread's
// traceback. Use it instead of L.PCall and CallByParam{Protect: true} whenever Lua code
// may be running on L, so a failure cannot close the upvalues of L's frames.
func ProtectedCallN(L *lua.LState, fn lua.LValue, nret int, args ...lua.LValue) ([]lua.LValue, error) {
	p := protectorOf(L)
	th := p.thread(L)
	th.Push(fn)
	for _, a := range args {
		th.Push(a)
	}
	if err := th.PCall(len(args), nret, nil); err != nil {
		p.release(th)
		return nil, err
	}
	out := make([]lua.LValue, th.GetTop())
	for i := range out {
		out[i] = th.Get(i + 1)
	}
	p.release(th)
	return out, nil
}

// ProtectedCall calls fn(args...) on a pool thread of L's state and returns all its
// results; see ProtectedCallN. Go code outside this package uses it to call Lua safely.
func ProtectedCall(L *lua.LState, fn lua.LValue, args ...lua.LValue) ([]lua.LValue, error) {
	return ProtectedCallN(L, fn, lua.MultRet, args...)
}
