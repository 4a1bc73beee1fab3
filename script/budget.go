package script

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
	// string bytes plus a fixed cost per table slot (<= 0: unlimited). It is checked
	// every memoryCheckEvery instructions and when the call returns, and bounds every
	// string a wrapped library function (string.rep, string.format, table.concat) builds.
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

// memoryCheckEvery is how many instructions run between two measurements of the memory a
// call holds.
const memoryCheckEvery = 1 << 16

// closedChan is the Done channel of a spent budget.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// budget is the context a budgeted call runs under. gopher-lua asks for Done before every
// instruction, which is where the budget counts; once spent, every following instruction
// fails again, so pcall inside the script cannot keep the call alive.
type budget struct {
	left   int64
	lim    Limits
	roots  []lua.LValue         // what the call's memory is measured from
	states map[*lua.LState]bool // the state and threads running the call: their locals count
	err    error
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }
func (b *budget) Err() error                  { return b.err }

func (b *budget) Done() <-chan struct{} {
	if b.err != nil {
		return closedChan
	}
	b.left--
	if b.left < 0 && b.lim.Instructions > 0 {
		b.err = fmt.Errorf("%w: more than %d Lua instructions in one call", ErrBudget, b.lim.Instructions)
		return closedChan
	}
	if b.lim.Memory > 0 && b.left%memoryCheckEvery == 0 {
		if err := b.checkMemory(); err != nil {
			b.err = err
			return closedChan
		}
	}
	return nil
}

func (b *budget) checkMemory() error {
	if b.lim.Memory <= 0 {
		return nil
	}
	roots := b.roots
	for st := range b.states {
		roots = appendLocals(roots, st)
	}
	if n := measure(roots, b.lim.Memory); n > b.lim.Memory {
		return fmt.Errorf("%w: the filter's state and globals hold more than %d MiB", ErrBudget, b.lim.Memory>>20)
	}
	return nil
}

// memoryLimitOf is the string size limit for library functions running under L: its
// budget's memory, or the session's MaxString.
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
		return nil, errors.New("script: call with budget: nil function")
	}
	b := &budget{left: lim.Instructions, lim: lim, roots: append(append(roots[:len(roots):len(roots)], fn), args...),
		states: map[*lua.LState]bool{L: true}}
	L.SetContext(b)
	defer L.RemoveContext()
	out, err := protectedCall(L, fn, lua.MultRet, args...)
	if err == nil && b.err == nil {
		b.roots = append(b.roots, out...)
		b.err = b.checkMemory()
	}
	if b.err != nil {
		where := ""
		if err != nil {
			where = strings.TrimSuffix(errorMessage(err), b.err.Error())
		}
		return nil, fmt.Errorf("script: %s%w", where, b.err)
	}
	if err != nil {
		return nil, fmt.Errorf("script: %s", errorMessage(err))
	}
	return out, nil
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

// slotCost is what one table slot counts for in a memory budget (key, value, overhead).
const slotCost = 40

// measure adds up the bytes reachable from roots, stopping once past limit. Only tables
// and functions go on the stack; numbers, booleans and strings are counted where found,
// so a large array of numbers costs one pass.
func measure(roots []lua.LValue, limit int64) int64 {
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
				total += slotCost
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
		}
	}
	return total
}
