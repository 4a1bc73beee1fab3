package script

import (
	"context"
	"fmt"

	"github.com/dpclsh/dpclsh/script/luavm"

	lua "github.com/yuin/gopher-lua"
)

// DefaultSessionMemory is a session's memory budget when Options.Memory is 0: half of
// luavm.HostMemoryLimit, so the Lua state of the REPL or a script cannot take the host's
// memory from the simulated machine, and 4 GiB when the host's limit is unknown.
func DefaultSessionMemory() int64 {
	if l := luavm.HostMemoryLimit(); l > 0 {
		return l / 2
	}
	return 4 << 30
}

// sessionContext is the context a session's chunks run under (the VM's, not the one
// Session.Context hands to Go functions). It is the session's meter: pattern matching
// checks it for an interrupt, library functions charge what they allocate to the session's
// memory budget, and every so many instructions it measures what the Lua state holds, so
// tables grown by the VM alone are bounded too. Once the budget is spent every following
// instruction fails, as after an interrupt: the chunk ends with ErrMemoryBudget, and the
// session goes on. It is used on the session goroutine only; other goroutines see the
// context inside it.
type sessionContext struct {
	context.Context // cancelled by Interrupt and os.exit
	s               *Session
	count, next     int64 // instructions run; when to measure next
	err             error // the memory budget was spent
}

func newSessionContext(s *Session, ctx context.Context) *sessionContext {
	return &sessionContext{Context: ctx, s: s, next: luavm.MemoryCheckEvery}
}

func (c *sessionContext) Done() <-chan struct{} {
	if c.err != nil {
		return luavm.Spent()
	}
	if c.count++; c.count >= c.next {
		c.check()
		if c.err != nil {
			return luavm.Spent()
		}
	}
	return c.Context.Done()
}

func (c *sessionContext) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.Context.Err()
}

// Value hands the meter to the contexts of coroutines derived from this one.
func (c *sessionContext) Value(key any) any {
	if key == (luavm.MeterKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// SpendSteps implements luavm.Meter: a session has no instruction budget, but an interrupt
// ends a long match.
func (c *sessionContext) SpendSteps(int) error {
	if c.err != nil {
		return c.err
	}
	select {
	case <-c.Context.Done():
		return c.Context.Err()
	default:
		return nil
	}
}

// ChargeBytes implements luavm.Meter.
func (c *sessionContext) ChargeBytes(L *lua.LState, what string, n int64) error {
	if c.err == nil && !c.s.mem.Fits(n) {
		c.err = c.s.mem.Settle(what, n, c.s.measureMemory(L))
	}
	if c.err == nil {
		c.err = luavm.CheckHostMemory(what, n)
	}
	return c.err
}

// check is the periodic measurement. Its interval grows with what the state holds, so a
// large state is walked no more often than the instructions could have grown it by a
// quarter; both depend only on the script, so the check fires at the same instruction on
// any host. The host check then catches a heap the measurement cannot see.
func (c *sessionContext) check() {
	mem := &c.s.mem
	if mem.Limit > 0 {
		n := c.s.measureMemory(c.s.L)
		if n > mem.Limit {
			c.err = fmt.Errorf("%w: the session's Lua state holds more than %s", luavm.ErrMemoryBudget, luavm.ByteSize(float64(mem.Limit)))
			return
		}
		mem.Measured(n)
	}
	c.next = c.count + max(luavm.MemoryCheckEvery, 4*mem.Held/luavm.SlotCost)
	c.err = luavm.CheckHostMemory("the session's Lua state", luavm.HostCheckMin)
}

// measureMemory is what the session's Lua state holds: its globals, its registry (loaded
// modules) and the frames of its running threads, as running on L.
func (s *Session) measureMemory(L *lua.LState) int64 {
	roots := luavm.RootsOfStates([]lua.LValue{s.L.G.Global, s.L.G.Registry}, L)
	return luavm.Measure(roots, s.mem.Limit)
}

// memoryStop is the error of a chunk that spent the session's memory budget, or nil.
func (s *Session) memoryStop() error {
	if s.vmctx != nil && s.vmctx.err != nil {
		return s.vmctx.err
	}
	return nil
}
