package luavm

import (
	lua "github.com/yuin/gopher-lua"
)

// A coroutine that yielded from inside a protected call is parked on that call's thread
// (pcall.go). coroutine.resume and coroutine.wrap are replaced so that resuming it resumes
// the thread first; when the protected call ends, its results are what the coroutine's
// pcall returns. The other coroutine functions are gopher-lua's.

// installCoroutines replaces coroutine.resume and coroutine.wrap of L, if L has the
// coroutine library, and puts coroutine.yield, pcall and xpcall (in tables, the globals
// and the base library) behind the wrapper of yield.go.
func installCoroutines(L *lua.LState, tables []*lua.LTable) {
	co, ok := L.GetGlobal(lua.CoroutineLibName).(*lua.LTable)
	if !ok {
		return
	}
	installYieldSafe(L, co, tables)
	origResume, ok1 := co.RawGetString("resume").(*lua.LFunction)
	origCreate, ok2 := co.RawGetString("create").(*lua.LFunction)
	if !ok1 || !ok2 || !origResume.IsG || !origCreate.IsG {
		return
	}
	resume := func(L *lua.LState) int {
		th := L.CheckThread(1)
		ok, vals := resumeValues(L, origResume, th, 2)
		L.Push(lua.LBool(ok))
		for _, v := range vals {
			L.Push(v)
		}
		return len(vals) + 1
	}
	co.RawSetString("resume", L.NewFunction(resume))
	co.RawSetString("wrap", L.NewFunction(func(L *lua.LState) int {
		L.CheckFunction(1)
		n := origCreate.GFunction(L)
		th := L.Get(-n)
		L.Push(L.NewClosure(func(L *lua.LState) int {
			ok, vals := resumeValues(L, origResume, L.ToThread(lua.UpvalueIndex(1)), 1)
			if !ok {
				L.Error(vals[0], 0)
			}
			for _, v := range vals {
				L.Push(v)
			}
			return len(vals)
		}, th))
		return 1
	}))
}

// resumeValues resumes th with L's values from index first on, through resumeParked when
// th is parked on a protected call and gopher-lua's resume otherwise, and returns whether
// it ran without error and what it yielded, returned or raised.
func resumeValues(L *lua.LState, origResume *lua.LFunction, th *lua.LState, first int) (bool, []lua.LValue) {
	args := make([]lua.LValue, 0, max(L.GetTop()-first+1, 0))
	for i := first; i <= L.GetTop(); i++ {
		args = append(args, L.Get(i))
	}
	p := protectorOf(L)
	if _, parked := p.parked[th]; parked {
		st, err, vals := p.resumeParked(L, th, args)
		if st == lua.ResumeError {
			return false, []lua.LValue{errorObject(err)}
		}
		return true, vals
	}
	base := L.GetTop()
	L.Push(origResume)
	L.Push(th)
	for _, a := range args {
		L.Push(a)
	}
	L.Call(len(args)+1, lua.MultRet)
	out := make([]lua.LValue, L.GetTop()-base)
	for i := range out {
		out[i] = L.Get(base + 1 + i)
	}
	L.SetTop(base)
	return lua.LVAsBool(out[0]), out[1:]
}

// resumeParked resumes th, a coroutine parked on a protected call (or a protected call's
// thread parked on an inner one), with args: the protected call's thread takes them; once
// that call has ended, th continues with its results.
func (p *protector) resumeParked(L, th *lua.LState, args []lua.LValue) (lua.ResumeState, error, []lua.LValue) {
	pc, parked := p.parked[th]
	if !parked {
		return L.Resume(th, nil, args...)
	}
	delete(p.parked, th)
	st, err, vals := p.resumeParked(L, pc.th, args)
	if st == lua.ResumeYield {
		p.parked[th] = pc
		return st, nil, vals
	}
	return p.resumeParked(L, th, p.finish(L, pc.th, pc.h, st, err, vals))
}
