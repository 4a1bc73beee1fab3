package luavm

import (
	"errors"
	"fmt"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// Limits bound one call of sandboxed code (a Lua filter's init or filter function, a
// back-end behaviour). Both are deterministic: the same call on the same input stops at
// the same instruction whatever the host's load.
type Limits struct {
	// Instructions is how many Lua VM instructions the call may run (<= 0: unlimited).
	Instructions int64
	// Memory bounds, in bytes, what the call's environment and state hold, counted as
	// string bytes plus a fixed cost per table slot (<= 0: unlimited). It is measured
	// every MemoryCheckEvery instructions and when the call returns; in between, library
	// functions charge what they are about to build (meter.go), and every string one
	// builds is bounded by it. Running out fails the call with ErrMemoryBudget.
	Memory int64
}

// Default limits of filter and back-end calls: about a second of gopher-lua on an idle
// host, and a few waves' worth of data per tree node.
const (
	DefaultInstructions = 20_000_000
	DefaultMemory       = 64 << 20
)

// ErrBudget is wrapped by the error of a call that ran out of instructions or memory.
var ErrBudget = errors.New("budget exceeded")

// MemoryCheckEvery is how many instructions run between two measurements of the memory a
// call holds. Library functions charge what they allocate in between (meter.go).
const MemoryCheckEvery = 1 << 16

// closedChan is the Done channel of a spent budget.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Spent is the Done channel of a context whose budget is spent: closed, so gopher-lua
// fails the next instruction and every one after it.
func Spent() <-chan struct{} { return closedChan }

// budget is the context a budgeted call runs under. gopher-lua asks for Done before every
// instruction, which is where the budget counts; once spent, every following instruction
// fails again, so pcall inside the script cannot keep the call alive. It is the call's
// meter too: pattern matching spends instructions and library functions charge memory.
type budget struct {
	left      int64
	nextCheck int64 // measure the memory when left reaches it
	lim       Limits
	L         *lua.LState  // the state the call runs on
	roots     []lua.LValue // what the call's memory is measured from, with L's threads
	mem       MemAccount
	err       error
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Err() error                  { return b.err }

// Value hands the budget to the contexts of threads derived from it.
func (b *budget) Value(key any) any {
	if key == (MeterKey{}) {
		return b
	}
	return nil
}

func (b *budget) Done() <-chan struct{} {
	if b.err != nil {
		return closedChan
	}
	b.left--
	if b.left < 0 && b.lim.Instructions > 0 {
		b.err = fmt.Errorf("%w: more than %d Lua instructions in one call", ErrBudget, b.lim.Instructions)
		return closedChan
	}
	if b.lim.Memory > 0 && b.left <= b.nextCheck {
		b.nextCheck = b.left - MemoryCheckEvery
		if err := b.checkMemory(); err != nil {
			b.err = err
			return closedChan
		}
	}
	return nil
}

// spendSteps implements Meter: n steps of a library function count as n instructions.
func (b *budget) SpendSteps(n int) error {
	if b.err != nil {
		return b.err
	}
	b.left -= int64(n)
	if b.left < 0 && b.lim.Instructions > 0 {
		b.err = fmt.Errorf("%w: more than %d Lua instructions in one call", ErrBudget, b.lim.Instructions)
	}
	return b.err
}

// chargeBytes implements Meter. Running out of memory spends the budget, as running out
// of instructions does.
func (b *budget) ChargeBytes(L *lua.LState, what string, n int64) error {
	if b.err != nil {
		return b.err
	}
	if !b.mem.Fits(n) {
		b.err = b.mem.Settle(what, n, b.measure(L))
	}
	if b.err == nil {
		b.err = CheckHostMemory(what, n)
	}
	return b.err
}

// measure is what the call holds: its roots and the registers of its threads.
func (b *budget) measure(L *lua.LState) int64 {
	return Measure(RootsOfStates(b.roots, L), b.lim.Memory)
}

func (b *budget) checkMemory() error {
	if b.lim.Memory <= 0 {
		return nil
	}
	n := b.measure(b.L)
	if n > b.lim.Memory {
		return fmt.Errorf("%w: the filter's state and globals hold more than %d MiB", ErrMemoryBudget, b.lim.Memory>>20)
	}
	b.mem.Measured(n)
	return nil
}

// memoryLimitOf is the string size limit for library functions running under L: its
// budget's memory, or MaxString outside a budgeted call.
func memoryLimitOf(L *lua.LState) int64 {
	if b, ok := L.Context().(*budget); ok && b.lim.Memory > 0 {
		return b.lim.Memory
	}
	return MaxString
}

// CallWithBudget calls fn(args...) in L under lim and returns all of its results. roots
// are what the call's memory is measured from (the environment, the filter's state); the
// arguments and results are added. Errors carry the script's file:line when the failure
// happened in Lua code and wrap ErrBudget when the call ran out of its budget. L must not
// have a context of its own; it has none afterwards.
func CallWithBudget(L *lua.LState, lim Limits, roots []lua.LValue, fn *lua.LFunction, args ...lua.LValue) ([]lua.LValue, error) {
	if fn == nil {
		return nil, errors.New("luavm: call with budget: nil function")
	}
	b := &budget{left: lim.Instructions, nextCheck: lim.Instructions - MemoryCheckEvery, lim: lim, L: L,
		roots: append(append(roots[:len(roots):len(roots)], fn), args...), mem: MemAccount{Limit: lim.Memory}}
	L.SetContext(b)
	defer L.RemoveContext()
	out, err := ProtectedCallN(L, fn, lua.MultRet, args...)
	if err == nil && b.err == nil {
		b.roots = append(b.roots, out...)
		b.err = b.checkMemory()
	}
	if b.err != nil {
		where := ""
		if err != nil {
			where = strings.TrimSuffix(ErrorMessage(err), b.err.Error())
		}
		return nil, &CallError{Msg: where + b.err.Error(), Err: b.err}
	}
	if err != nil {
		return nil, &CallError{Msg: ErrorMessage(err)}
	}
	return out, nil
}

// CallError is the error of CallWithBudget: the script's message, starting with its
// file:line when the failure happened in Lua code, and the budget's error (wrapping
// ErrBudget) when the call ran out of it.
type CallError struct {
	Msg string
	Err error
}

func (e *CallError) Error() string { return "luavm: " + e.Msg }
func (e *CallError) Unwrap() error { return e.Err }

// relabeled is a CallWithBudget error reported under another prefix; it keeps the budget
// error, so errors.Is(err, ErrBudget) still holds.
type relabeled struct {
	msg string
	err error
}

func (e *relabeled) Error() string { return e.msg }
func (e *relabeled) Unwrap() error { return e.err }

// Relabel returns err, an error of CallWithBudget, as prefix followed by the script's
// message.
func Relabel(prefix string, err error) error {
	var ce *CallError
	if errors.As(err, &ce) {
		return &relabeled{msg: prefix + ce.Msg, err: ce.Err}
	}
	return &relabeled{msg: prefix + err.Error(), err: err}
}

// appendLocals adds the values in the registers of every active frame of st.
func appendLocals(roots []lua.LValue, st *lua.LState) []lua.LValue {
	for level := 0; ; level++ {
		dbg, ok := st.GetStack(level)
		if !ok {
			return roots
		}
		for n := 1; ; n++ {
			name, v := st.GetLocal(dbg, n)
			if name == "" {
				break
			}
			roots = append(roots, v)
		}
	}
}

// SlotCost is what one table slot counts for in a memory budget (key, value, overhead).
const SlotCost = 40

// Measure adds up the bytes reachable from roots, stopping once past limit. Only tables,
// functions and coroutines go on the stack; numbers, booleans and strings are counted where found,
// so a large array of numbers costs one pass.
func Measure(roots []lua.LValue, limit int64) int64 {
	seen := make(map[lua.LValue]bool, 16)
	var total int64
	stack := make([]lua.LValue, 0, 64)
	count := func(v lua.LValue) {
		switch x := v.(type) {
		case lua.LString:
			total += int64(len(x)) + 16
		case *lua.LTable:
			stack = append(stack, v)
		case *lua.LFunction:
			if !x.IsG && len(x.Upvalues) > 0 {
				stack = append(stack, v)
			}
		case *lua.LState:
			stack = append(stack, v)
		}
	}
	for _, v := range roots {
		count(v)
	}
	for len(stack) > 0 && total <= limit {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		switch x := v.(type) {
		case *lua.LTable:
			total += 64
			x.ForEach(func(k, v lua.LValue) {
				total += SlotCost
				count(k)
				count(v)
			})
			count(x.Metatable)
		case *lua.LFunction:
			for _, uv := range x.Upvalues {
				if uv != nil {
					count(uv.Value())
				}
			}
		case *lua.LState: // a coroutine: what its frames hold
			for _, v := range appendLocals(nil, x) {
				count(v)
			}
		}
	}
	return total
}
