package script

import (
	"context"
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

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
	return &sessionContext{Context: ctx, s: s, next: memoryCheckEvery}
}

func (c *sessionContext) Done() <-chan struct{} {
	if c.err != nil {
		return closedChan
	}
	if c.count++; c.count >= c.next {
		c.check()
		if c.err != nil {
			return closedChan
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
	if key == (meterKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// spendSteps implements vmMeter: a session has no instruction budget, but an interrupt
// ends a long match.
func (c *sessionContext) spendSteps(int) error {
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

// chargeBytes implements vmMeter.
func (c *sessionContext) chargeBytes(L *lua.LState, what string, n int64) error {
	if c.err == nil && !c.s.mem.fits(n) {
		c.err = c.s.mem.settle(what, n, c.s.measureMemory(L))
	}
	if c.err == nil {
		c.err = checkHostMemory(what, n)
	}
	return c.err
}

// check is the periodic measurement. Its interval grows with what the state holds, so a
// large state is walked no more often than the instructions could have grown it by a
// quarter; both depend only on the script, so the check fires at the same instruction on
// any host. The host check then catches a heap the measurement cannot see.
func (c *sessionContext) check() {
	mem := &c.s.mem
	if mem.limit > 0 {
		n := c.s.measureMemory(c.s.L)
		if n > mem.limit {
			c.err = fmt.Errorf("%w: the session's Lua state holds more than %s", ErrMemoryBudget, byteSize(float64(mem.limit)))
			return
		}
		mem.measured(n)
	}
	c.next = c.count + max(memoryCheckEvery, 4*mem.held/slotCost)
	c.err = checkHostMemory("the session's Lua state", hostCheckMin)
}

// measureMemory is what the session's Lua state holds: its globals, its registry (loaded
// modules) and the frames of its running threads, as running on L.
func (s *Session) measureMemory(L *lua.LState) int64 {
	roots := rootsOfStates([]lua.LValue{s.L.G.Global, s.L.G.Registry}, L)
	return measure(roots, s.mem.limit)
}

// memoryStop is the error of a chunk that spent the session's memory budget, or nil.
func (s *Session) memoryStop() error {
	if s.vmctx != nil && s.vmctx.err != nil {
		return s.vmctx.err
	}
	return nil
}
