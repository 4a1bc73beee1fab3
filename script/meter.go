package script

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Library functions that do much work in one Go call (pattern matching) or allocate what
// the script asks for (string.rep, string.format, string.gsub, table.concat, ..) cannot
// rely on the check gopher-lua makes before each instruction: they charge the context Lua
// runs under themselves. A budgeted call's context (budget.go) and a session's
// (sessionContext, session_meter.go) are meters; inside a coroutine the context is one
// gopher-lua derived from them, which hands the meter on through Value.

// meterKey is the context value key of the meter a context belongs to.
type meterKey struct{}

// vmMeter is what library functions charge.
type vmMeter interface {
	// spendSteps counts n steps of work done inside one Go call against the instruction
	// budget, and fails once it is spent or the call was interrupted.
	spendSteps(n int) error
	// chargeBytes is called before a library function allocates n bytes for the script
	// running on L; it fails when that would take the call past its memory budget.
	chargeBytes(L *lua.LState, what string, n int64) error
}

// ErrMemoryBudget is wrapped by the error of a call or chunk that would have held more
// memory than its budget allows; it wraps ErrBudget.
var ErrMemoryBudget = fmt.Errorf("memory %w", ErrBudget)

// meterOf returns the meter L runs under, or nil.
func meterOf(L *lua.LState) vmMeter {
	ctx := L.Context()
	if ctx == nil {
		return nil
	}
	if m, ok := ctx.(vmMeter); ok {
		return m
	}
	m, _ := ctx.Value(meterKey{}).(vmMeter)
	return m
}

// spendSteps charges n steps of library work to L's budget; it raises the budget's error,
// or the interrupt, as a Lua error.
func spendSteps(L *lua.LState, n int) {
	if m := meterOf(L); m != nil {
		if err := m.spendSteps(n); err != nil {
			L.RaiseError("%s", err.Error())
		}
		return
	}
	if ctx := L.Context(); ctx != nil {
		select {
		case <-ctx.Done():
			L.RaiseError("%s", ctx.Err().Error())
		default:
		}
	}
}

// stepSpender returns the spend function of a pattern match run by L.
func stepSpender(L *lua.LState) func(int) {
	if L.Context() == nil {
		return nil
	}
	return func(n int) { spendSteps(L, n) }
}

// chargeBytes charges an allocation of n bytes by what (a library function's name) to
// L's memory budget and raises its error. Without a meter only the host check applies.
func chargeBytes(L *lua.LState, what string, n int64) {
	var err error
	if m := meterOf(L); m != nil {
		err = m.chargeBytes(L, what, n)
	} else {
		err = checkHostMemory(what, n)
	}
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
}

// memAccount is the deterministic part of a memory budget: bytes measured reachable at
// the last measurement plus bytes charged since. Garbage is not subtracted until the next
// measurement, which happens when the charges would pass the limit, so the measurement
// (a walk of what the script holds) is paid for by allocation of the same order.
type memAccount struct {
	limit   int64 // <= 0: no limit
	held    int64 // reachable at the last measurement
	pending int64 // charged since
}

// fits adds n bytes to the account when they fit without a new measurement.
func (a *memAccount) fits(n int64) bool {
	if a.limit > 0 && a.held+a.pending+n > a.limit {
		return false
	}
	a.pending += n
	return true
}

// settle is charge's slow path, given a fresh measurement of what the script holds: the
// n bytes by what fit beside it, or the budget's error.
func (a *memAccount) settle(what string, n, held int64) error {
	a.held, a.pending = held, 0
	if a.held+n > a.limit {
		return fmt.Errorf("%w: %s of %s would take what the script holds past %s", ErrMemoryBudget,
			what, byteSize(float64(n)), byteSize(float64(a.limit)))
	}
	a.pending = n
	return nil
}

// measured records a measurement made outside charge.
func (a *memAccount) measured(n int64) { a.held, a.pending = n, 0 }

// rootsOfStates adds the registers of the frames of L, the threads that resumed it, the
// main thread and the protected calls in progress (pcall.go) to roots.
func rootsOfStates(roots []lua.LValue, L *lua.LState) []lua.LValue {
	seen := map[*lua.LState]bool{}
	add := func(st *lua.LState) {
		if st != nil && !seen[st] {
			seen[st] = true
			roots = appendLocals(roots, st)
		}
	}
	for st := L; st != nil; st = st.Parent {
		add(st)
	}
	add(L.G.MainThread)
	for th := range protectorOf(L).active {
		add(th)
	}
	return roots
}
