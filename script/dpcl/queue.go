package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"

	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// maxQueued bounds a handle's queue of messages no callback took; older ones are
// dropped first and counted (h:stats().dropped).
const maxQueued = 1 << 16

// maxCallbackErrors is how many errors a handle's callback may raise before the handle
// is deactivated: the first is reported in full, the last with one line saying so.
const maxCallbackErrors = 3

// handleExtra is what the session keeps per probe handle besides the runtime's
// accounting: the messages of a handle without a callback, and its callback's errors.
type handleExtra struct {
	print   bool // print messages as they arrive instead of queueing them (the REPL)
	quiet   bool // installed with print = false: what is left at exit is not printed
	noWarn  bool // installed with warn = false: not named if none of its points ran
	queue   []*lua.LTable
	dropped int
	errors  int
}

func (st *dpclState) extra(h *runtime.Handle) *handleExtra {
	if st.extras == nil {
		st.extras = map[*runtime.Handle]*handleExtra{}
	}
	x := st.extras[h]
	if x == nil {
		x = &handleExtra{}
		st.extras[h] = x
		st.handles = append(st.handles, h)
	}
	return x
}

func (x *handleExtra) push(m *lua.LTable) {
	if len(x.queue) == maxQueued {
		x.queue = x.queue[1:]
		x.dropped++
	}
	x.queue = append(x.queue, m)
}

func (x *handleExtra) pop() lua.LValue {
	if len(x.queue) == 0 {
		return lua.LNil
	}
	m := x.queue[0]
	x.queue[0] = nil
	x.queue = x.queue[1:]
	return m
}

// deliver hands message m of handle h to its callback, or queues it when there is none.
// A callback error is reported the first time; at the third the handle is deactivated
// with one line saying so, and later messages skip the callback. Only a stop (Ctrl-C,
// os.exit) is returned.
func (st *dpclState) deliver(h *runtime.Handle, fn *lua.LFunction, m *lua.LTable) error {
	x := st.extra(h)
	if fn == nil && x.print {
		fmt.Fprintln(st.s.Stdout(), formatMessage(st.s.L, h.ID, m))
		return nil
	}
	if fn == nil {
		x.push(m)
		return nil
	}
	if x.errors >= maxCallbackErrors {
		return nil
	}
	err := st.protect(fn, m)
	if err == nil || isStop(err) {
		return err
	}
	x.errors++
	switch x.errors {
	case 1:
		fmt.Fprintf(st.s.Stderr(), "dpcl: callback of probe %d: %s", h.ID, script.FormatError(err, st.s.Verbose()))
	case maxCallbackErrors:
		what := "its messages no longer reach the callback"
		if h.State() == "active" && h.Deactivate() == nil {
			what = "probe deactivated"
		}
		fmt.Fprintf(st.s.Stderr(), "dpcl: probe %d: the callback failed %d times; %s (h:stats().errors)\n",
			h.ID, x.errors, what)
	}
	return nil
}

const handleNextDoc = `h:next() -> message | nil
The oldest message of a probe installed without a callback (nil when none is waiting).
Messages wait in a queue of at most 65,536; older ones are dropped first (h:stats().dropped).`

const handleMessagesDoc = `h:messages() -> iterator
for m in h:messages() do ... end takes every waiting message of a probe without a callback.`

func handleNext(L *lua.LState) int {
	h := script.CheckObject[*runtime.Handle](L, 1, handleTypeName)
	L.Push(dpclOf(L).extra(h).pop())
	return 1
}

func handleMessages(L *lua.LState) int {
	h := script.CheckObject[*runtime.Handle](L, 1, handleTypeName)
	x := dpclOf(L).extra(h)
	L.Push(L.NewFunction(func(L *lua.LState) int {
		L.Push(x.pop())
		return 1
	}))
	return 1
}

// handleExtraStats adds the session's counts to h:stats().
func handleExtraStats(L *lua.LState, h *runtime.Handle, t *lua.LTable) {
	x := dpclOf(L).extra(h)
	t.RawSetString("errors", lua.LNumber(x.errors))
	t.RawSetString("queued", lua.LNumber(len(x.queue)))
	t.RawSetString("dropped", lua.LNumber(x.dropped))
}
