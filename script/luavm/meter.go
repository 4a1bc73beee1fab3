package luavm

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Library functions that do much work in one Go call (pattern matching) or allocate what
// the script asks for (string.rep, string.format, string.gsub, table.concat, ..) cannot
// rely on the check gopher-lua makes before each instruction: they charge the context Lua
// runs under themselves. A budgeted call's context (budget.go) is a Meter, and so is any
// context a host runs a state under that implements it (dpclsh's session context);
// inside a coroutine the context is one gopher-lua derived from it, which hands the meter
// on through Value(MeterKey{}).

// MeterKey is the context value key of the meter a context belongs to.
type MeterKey struct{}

// Meter is what library functions charge: the context a state runs under, or the one
// its Value(MeterKey{}) returns.
type Meter interface {
	// SpendSteps counts n steps of work done inside one Go call against the instruction
	// budget, and fails once it is spent or the call was interrupted.
	SpendSteps(n int) error
	// ChargeBytes is called before a library function allocates n bytes for the script
	// running on L; it fails when that would take the call past its memory budget.
	ChargeBytes(L *lua.LState, what string, n int64) error
}

// ErrMemoryBudget is wrapped by the error of a call or chunk that would have held more
// memory than its budget allows; it wraps ErrBudget.
var ErrMemoryBudget = fmt.Errorf("memory %w", ErrBudget)

// meterOf returns the meter L runs under, or nil.
func meterOf(L *lua.LState) Meter {
	ctx := L.Context()
	if ctx == nil {
		return nil
	}
	if m, ok := ctx.(Meter); ok {
		return m
	}
	m, _ := ctx.Value(MeterKey{}).(Meter)
	return m
}

// spendSteps charges n steps of library work to L's budget; it raises the budget's error,
// or the interrupt, as a Lua error.
func spendSteps(L *lua.LState, n int) {
	if m := meterOf(L); m != nil {
		if err := m.SpendSteps(n); err != nil {
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
		err = m.ChargeBytes(L, what, n)
	} else {
		err = CheckHostMemory(what, n)
	}
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
}

// MemAccount is the deterministic part of a memory budget: bytes measured reachable at
// the last measurement plus bytes charged since. Garbage is not subtracted until the next
// measurement, which happens when the charges would pass the limit, so the measurement
// (a walk of what the script holds) is paid for by allocation of the same order.
type MemAccount struct {
	Limit   int64 // <= 0: no limit
	Held    int64 // reachable at the last measurement
	pending int64 // charged since
}

// Fits adds n bytes to the account when they fit without a new measurement.
func (a *MemAccount) Fits(n int64) bool {
	if a.Limit > 0 && a.Held+a.pending+n > a.Limit {
		return false
	}
	a.pending += n
	return true
}

// Settle is the slow path of a charge, given a fresh measurement of what the script holds: the
// n bytes by what fit beside it, or the budget's error.
func (a *MemAccount) Settle(what string, n, held int64) error {
	a.Held, a.pending = held, 0
	if a.Held+n > a.Limit {
		return fmt.Errorf("%w: %s of %s would take what the script holds past %s", ErrMemoryBudget,
			what, ByteSize(float64(n)), ByteSize(float64(a.Limit)))
	}
	a.pending = n
	return nil
}

// Measured records a measurement made outside charge.
func (a *MemAccount) Measured(n int64) { a.Held, a.pending = n, 0 }

// RootsOfStates adds the registers of the frames of L, the threads that resumed it, the
// main thread and the protected calls in progress (pcall.go) to roots.
func RootsOfStates(roots []lua.LValue, L *lua.LState) []lua.LValue {
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
