package script

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dpclsh/dpclsh/runtime"
	lua "github.com/yuin/gopher-lua"
)

// What happens to a probe's messages on the Lua side (runtime delivers them; this file
// decides where they go):
//   - with a callback, it is called; its first error is reported in full, and after
//     maxCallbackErrors errors the probe is deactivated with one line saying so;
//   - without one, the message is queued on the handle (h:next(), h:messages()), or, in
//     the interactive shell, printed as it arrives (bpftrace-style) unless print = false.

// maxCallbackErrors is how many callback errors a probe may raise before it is turned off.
const maxCallbackErrors = 3

// maxQueued bounds a handle's queue; older messages are dropped (h:stats().dropped).
const maxQueued = 1 << 16

// handleLua is a probe's Lua-side state.
type handleLua struct {
	callback *lua.LFunction
	print    bool // print messages as they arrive instead of queueing them
	queue    []runtime.Message
	errors   int
	dropped  int
	disabled bool // the callback failed maxCallbackErrors times
}

// interactive marks sessions run as a REPL (on a terminal or reading stdin line by line).
var interactive sync.Map // *Session -> bool

// SetInteractive says that s is a REPL: messages of probes without a callback are printed
// as they arrive unless the probe was installed with print = false.
func SetInteractive(s *Session, on bool) { interactive.Store(s, on) }

func isInteractive(s *Session) bool {
	v, ok := interactive.Load(s)
	return ok && v.(bool)
}

// newHandleLua reads callback and print from the install options table.
func newHandleLua(s *Session, t lua.LValue, cb *lua.LFunction) (*handleLua, error) {
	hl := &handleLua{callback: cb, print: cb == nil && isInteractive(s)}
	if opts, ok := t.(*lua.LTable); ok {
		switch v := opts.RawGetString("print").(type) {
		case *lua.LNilType:
		case lua.LBool:
			hl.print = bool(v) && cb == nil
		default:
			return nil, fmt.Errorf("print must be a boolean, got %s", describe(v))
		}
	}
	return hl, nil
}

// deliver hands one message to its probe's callback, printer or queue.
func (st *dpclState) deliver(a *luaApp, hl *handleLua, m runtime.Message) (called bool, err error) {
	switch {
	case hl.callback != nil && hl.disabled:
		return false, nil
	case hl.callback != nil:
		return true, st.callProbe(hl, m)
	case hl.print:
		fmt.Fprintln(st.s.Stdout(), formatMessage(st.s.L, m))
		return false, nil
	}
	if len(hl.queue) >= maxQueued {
		hl.queue = hl.queue[1:]
		hl.dropped++
	}
	hl.queue = append(hl.queue, m)
	return false, nil
}

// callProbe runs a probe's callback with the error policy above.
func (st *dpclState) callProbe(hl *handleLua, m runtime.Message) error {
	what := fmt.Sprintf("callback of probe %d", m.Handle.ID)
	cerr, stop := st.callErr(hl.callback, messageTable(st.s.L, m))
	if stop != nil || cerr == nil {
		return stop
	}
	hl.errors++
	if hl.errors == 1 {
		fmt.Fprintf(st.s.Stderr(), "dpcl: %s: %s", what, FormatError(cerr, st.s.Verbose()))
	}
	if hl.errors >= maxCallbackErrors {
		hl.disabled = true
		why := "deactivated"
		if err := m.Handle.Deactivate(); err != nil {
			why = "no longer called" // a one-shot or removed probe cannot be deactivated
		}
		fmt.Fprintf(st.s.Stderr(), "dpcl: probe %d: its callback failed %d times; the probe is %s (h:stats().errors)\n",
			m.Handle.ID, hl.errors, why)
	}
	return nil
}

// formatMessage is one printed line: "probe 2 rank 5: 17" or "probe 2 (64 ranks): 1088".
func formatMessage(L *lua.LState, m runtime.Message) string {
	vals := make([]string, len(m.Values))
	for i, v := range m.Values {
		vals[i] = Format(L, packetValueToLua(L, v), DefaultFormat)
	}
	who := fmt.Sprintf("rank %d", m.Rank)
	if m.Rank < 0 {
		who = fmt.Sprintf("(%d ranks)", m.Count)
	}
	return fmt.Sprintf("probe %d %s: %s", m.Handle.ID, who, strings.Join(vals, " "))
}

// handleLuaOf finds the Lua-side state of the handle at stack index 1.
func handleLuaOf(L *lua.LState) (*runtime.Handle, *handleLua) {
	h := CheckObject[*runtime.Handle](L, 1, handleTypeName)
	if st, ok := dpclStates.Load(SessionOf(L)); ok {
		for _, a := range st.(*dpclState).apps {
			if hl := a.hlua[h.ID]; hl != nil && a.handles[h.ID] != nil && a.handles[h.ID].Value == h {
				return h, hl
			}
		}
	}
	return h, &handleLua{}
}

// handleNext pops the oldest queued message of a probe without a callback, or nil.
func handleNext(L *lua.LState) int {
	_, hl := handleLuaOf(L)
	if len(hl.queue) == 0 {
		L.Push(lua.LNil)
		return 1
	}
	m := hl.queue[0]
	hl.queue = hl.queue[1:]
	L.Push(messageTable(L, m))
	return 1
}

// handleMessages is an iterator over the queued messages: for m in h:messages() do ... end.
func handleMessages(L *lua.LState) int {
	ud := L.CheckUserData(1)
	L.Push(L.NewFunction(func(L *lua.LState) int {
		L.SetTop(0)
		L.Push(ud)
		return handleNext(L)
	}))
	return 1
}
