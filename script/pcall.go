package script

import (
	"errors"
	"strconv"
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
// inside it reaches the coroutine's resumer: the Lua half of pcall (protectLua) yields what
// the thread yielded and resumes the thread with what it gets back. Outside a coroutine a
// yield has nowhere to go; the call runs directly and the yield fails inside it, as it
// does for the standard pcall.

const protectorKey = "dpclsh.protector"

// maxIdleThreads is how many finished threads a state keeps for later protected calls.
const maxIdleThreads = 4

// protector is the thread pool of one Lua state (its G: the state and its coroutines).
type protector struct {
	idle    []*lua.LState
	resumed map[*lua.LState]bool // pool threads running resumed, whose yields go on outward
}

func newProtector() *protector { return &protector{resumed: map[*lua.LState]bool{}} }

// protectLua is the Lua half of pcall and xpcall. The Go halves return nil and the call's
// results when it finished, or the thread and what it yielded when it yielded; finish
// yields those on and resumes the thread with the answer until it finishes. It carries
// xpcall's handler, which runs once the resumed thread has failed. The Go halves
// are bound to locals named after the functions so argument errors name them.
const protectLua = `local pcall, xpcall, resume, yield = ...
local function finish(h, th, ...)
  if th == nil then return ... end
  return finish(h, resume(th, h, yield(...)))
end
return function(...) return finish(nil, pcall(...)) end,
  function(f, h, ...) return finish(h, xpcall(f, h, ...)) end`

// protectChunk is the chunk name of protectLua, as tracebacks show it.
const protectChunk = "[pcall]"

// installProtectedCalls replaces pcall and xpcall in L's globals (and in the base library
// table, which may be a different one) and creates L's thread pool.
func installProtectedCalls(L *lua.LState) {
	ud := L.NewUserData()
	ud.Value = newProtector()
	L.G.Registry.RawSetString(protectorKey, ud)
	fn, err := L.Load(strings.NewReader(protectLua), protectChunk)
	if err != nil {
		panic("script: protected calls: " + err.Error())
	}
	L.Push(fn)
	L.Push(L.NewFunction(pcallStart))
	L.Push(L.NewFunction(xpcallStart))
	L.Push(L.NewFunction(pcallResume))
	L.Push(L.NewFunction(func(L *lua.LState) int { return -1 }))
	L.Call(4, 2)
	pcall, xpcall := L.Get(-2), L.Get(-1)
	L.Pop(2)
	tables := []*lua.LTable{L.G.Global}
	if loaded, ok := L.G.Registry.RawGetString("_LOADED").(*lua.LTable); ok {
		if base, ok := loaded.RawGetString("_G").(*lua.LTable); ok && base != L.G.Global {
			tables = append(tables, base)
		}
	}
	for _, t := range tables {
		t.RawSetString("pcall", pcall)
		t.RawSetString("xpcall", xpcall)
	}
}

// protectorOf returns the pool of L's state, creating it for a state that has none (a
// state made outside NewSessionWith and NewSandbox).
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
		if b, ok := ctx.(*budget); ok {
			b.states[th] = true
		}
	} else {
		th.RemoveContext()
	}
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
	th.SetTop(0)
	th.RemoveContext()
	th.Dead = false
	if len(p.idle) < maxIdleThreads {
		p.idle = append(p.idle, th)
	}
}

// canYield reports whether a yield from L reaches a coroutine's resumer: L is a
// coroutine, or a pool thread resumed (transitively) from one.
func (p *protector) canYield(L *lua.LState) bool {
	for L.Parent != nil {
		if !p.resumed[L] {
			return true
		}
		L = L.Parent
	}
	return false
}

// argError raises "bad argument" at the position of the Lua code that called pcall or
// xpcall (level 2: past the Go half and the Lua half), when that frame is still there.
func argError(L *lua.LState, fn string, n int, msg string) {
	where := L.Where(2)
	if where != "" && !strings.HasPrefix(where, protectChunk+":") {
		where += " "
	} else {
		where = ""
	}
	L.Error(lua.LString(where+"bad argument #"+strconv.Itoa(n)+" to "+fn+" ("+msg+")"), 0)
}

// pcallStart is the Go half of pcall(f, ...).
func pcallStart(L *lua.LState) int {
	if L.GetTop() == 0 {
		argError(L, "pcall", 1, "value expected")
	}
	f := L.Get(1)
	if f.Type() != lua.LTFunction && L.GetMetaField(f, "__call").Type() != lua.LTFunction {
		L.Push(lua.LNil)
		L.Push(lua.LFalse)
		L.Push(lua.LString("attempt to call a " + f.Type().String() + " value"))
		return 3
	}
	return protectorOf(L).start(L, f, nil, 2)
}

// xpcallStart is the Go half of xpcall(f, handler).
func xpcallStart(L *lua.LState) int {
	f, ok := L.Get(1).(*lua.LFunction)
	if !ok {
		argError(L, "xpcall", 1, "function expected, got "+L.Get(1).Type().String())
	}
	h, ok := L.Get(2).(*lua.LFunction)
	if !ok {
		argError(L, "xpcall", 2, "function expected, got "+L.Get(2).Type().String())
	}
	return protectorOf(L).start(L, f, h, 3)
}

// start runs f with L's values from index first on as arguments, and pushes nil and the
// results (true, values... or false, error) or, when the call yielded, the thread and the
// yielded values.
func (p *protector) start(L *lua.LState, f lua.LValue, h *lua.LFunction, first int) int {
	top := L.GetTop()
	fn, _ := f.(*lua.LFunction)
	if fn != nil && !fn.IsG && p.canYield(L) {
		args := make([]lua.LValue, 0, max(top-first+1, 0))
		for i := first; i <= top; i++ {
			args = append(args, L.Get(i))
		}
		return p.resume(L, p.thread(L), fn, h, args)
	}
	th := p.thread(L)
	th.Push(f)
	for i := first; i <= top; i++ {
		th.Push(L.Get(i))
	}
	err := th.PCall(max(top-first+1, 0), lua.MultRet, h)
	L.Push(lua.LNil)
	if err != nil {
		L.Push(lua.LFalse)
		L.Push(locateGoError(L, fn, errorObject(err)))
		if h == nil {
			p.release(th)
		}
		// A handler stops gopher-lua from closing the failed frames' upvalues, so a
		// closure they made may still point into the thread's stack: never reuse it.
		return 3
	}
	n := th.GetTop()
	L.Push(lua.LTrue)
	th.XMoveTo(L, n)
	p.release(th)
	return n + 2
}

// locateGoError gives the error of a Go function called directly by pcall (pcall(error,
// "x"), pcall(bgl.run, ...)) the position of the Lua code that called pcall: on the
// thread no Lua frame lies below the Go function, so gopher-lua found none and left the
// message starting with the space that would have followed it. When pcall was
// tail-called (`return pcall(f)`) that code's frame is gone; the message then has no
// position, as in Lua 5.1.
func locateGoError(L *lua.LState, fn *lua.LFunction, obj lua.LValue) lua.LValue {
	msg, ok := obj.(lua.LString)
	if fn == nil || !fn.IsG || !ok || !strings.HasPrefix(string(msg), " ") {
		return obj
	}
	where := L.Where(2)
	if where == "" || strings.HasPrefix(where, protectChunk+":") {
		return msg[1:]
	}
	return lua.LString(where) + msg
}

// pcallResume is the Go half that resumes a yielded protected call: resume(th, h, ...),
// h being xpcall's handler or nil.
func pcallResume(L *lua.LState) int {
	th := L.CheckThread(1)
	h, _ := L.Get(2).(*lua.LFunction)
	args := make([]lua.LValue, 0, max(L.GetTop()-2, 0))
	for i := 3; i <= L.GetTop(); i++ {
		args = append(args, L.Get(i))
	}
	return protectorOf(L).resume(L, th, nil, h, args)
}

// resume starts (fn != nil) or continues th as a coroutine of L and pushes what start
// pushes. The handler of a resumed xpcall runs after the thread has unwound.
func (p *protector) resume(L, th *lua.LState, fn, h *lua.LFunction, args []lua.LValue) int {
	if fn == nil {
		if ctx := L.Context(); ctx != nil {
			th.SetContext(ctx)
		}
	}
	p.resumed[th] = true
	prev := L.G.CurrentThread
	st, err, vals := L.Resume(th, fn, args...)
	L.G.CurrentThread = prev
	delete(p.resumed, th)
	switch st {
	case lua.ResumeYield:
		L.Push(th)
		for _, v := range vals {
			L.Push(v)
		}
		return len(vals) + 1
	case lua.ResumeOK:
		p.release(th)
		L.Push(lua.LNil)
		L.Push(lua.LTrue)
		for _, v := range vals {
			L.Push(v)
		}
		return len(vals) + 2
	}
	// A failed thread keeps the frames the error unwound through: it is not reused.
	obj := errorObject(err)
	if h != nil {
		out, herr := protectedCall(L, h, 1, obj)
		if obj = errorObject(herr); herr == nil {
			obj = out[0]
		}
	}
	L.Push(lua.LNil)
	L.Push(lua.LFalse)
	L.Push(obj)
	return 3
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

// protectedCall calls fn(args...) from Go on a pool thread of L's state and returns nret
// results (all with lua.MultRet), or the *lua.ApiError of the failure with the thread's
// traceback. Use it instead of L.PCall and CallByParam{Protect: true} whenever Lua code
// may be running on L, so a failure cannot close the upvalues of L's frames.
func protectedCall(L *lua.LState, fn lua.LValue, nret int, args ...lua.LValue) ([]lua.LValue, error) {
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
// results; see protectedCall. Go code outside this package uses it to call Lua safely.
func ProtectedCall(L *lua.LState, fn lua.LValue, args ...lua.LValue) ([]lua.LValue, error) {
	return protectedCall(L, fn, lua.MultRet, args...)
}
