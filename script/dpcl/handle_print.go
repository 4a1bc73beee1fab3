package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// interactive marks sessions run as a REPL (on a terminal or reading stdin line by line):
// there, messages of a probe without a callback are printed as they arrive
// (bpftrace-style) unless it was installed with print = false.
var interactiveKey = script.NewKey[bool]("interactive")

// SetInteractive says whether s is a REPL.
func SetInteractive(s *script.Session, on bool) { interactiveKey.Set(s, on) }

func isInteractive(s *script.Session) bool {
	on, _ := interactiveKey.Get(s)
	return on
}

// printOption decides whether a probe's messages are printed: never with a callback;
// else the print option, defaulting to true in an interactive session.
func printOption(s *script.Session, opts lua.LValue, cb *lua.LFunction) (bool, error) {
	on := cb == nil && isInteractive(s)
	if t, ok := opts.(*lua.LTable); ok {
		switch v := t.RawGetString("print").(type) {
		case *lua.LNilType:
		case lua.LBool:
			on = bool(v) && cb == nil
		default:
			return false, fmt.Errorf("print must be a boolean, got %s", script.Describe(v))
		}
	}
	return on, nil
}

// printFalse says whether opts says print = false: such a probe's unread messages are
// not printed at exit either (handle_leftover.go).
func printFalse(opts lua.LValue) bool {
	t, ok := opts.(*lua.LTable)
	return ok && t.RawGetString("print") == lua.LFalse
}

// warnFalse is whether install options say warn = false: no warning when the job ends
// and none of the probe's points ran. A tool that instruments every function of a kind
// (limpio, trace) sets it: most of those are never called, and that is no mistake.
func warnFalse(opts lua.LValue) bool {
	t, ok := opts.(*lua.LTable)
	return ok && t.RawGetString("warn") == lua.LFalse
}

// formatMessage is one printed line: "probe 2 rank 5: 17" or "probe 2 (64 ranks): 1088".
func formatMessage(L *lua.LState, id uint32, m *lua.LTable) string {
	var vals []string
	if t, ok := m.RawGetString("values").(*lua.LTable); ok {
		for i := 1; i <= t.Len(); i++ {
			vals = append(vals, script.Format(L, t.RawGetInt(i), script.DefaultFormat))
		}
	}
	who := fmt.Sprintf("(%s ranks)", script.Format(L, m.RawGetString("count"), script.DefaultFormat))
	if r := m.RawGetString("rank"); r != lua.LNil {
		who = "rank " + script.Format(L, r, script.DefaultFormat)
	}
	return fmt.Sprintf("probe %d %s: %s", id, who, strings.Join(vals, " ")) + lagNote(m)
}

// lagNoteNS is how long a message's data must have spent in the tool's tree before its
// printed line says so: past it, the program has moved on from what the line shows.
const lagNoteNS = 1_000_000

// lagNote is "  (sent 0.8 ms, 1.9 ms in the tree)" when the oldest data of m took longer
// than lagNoteNS from its rank to the front-end, else "". Aggregated data sent over a
// span shows it: "sent 0.8-1.1 ms".
func lagNote(m *lua.LTable) string {
	sent, ok := m.RawGetString("sent").(*lua.LTable)
	if !ok {
		return ""
	}
	first, _ := sent.RawGetString("first_ns").(lua.LNumber)
	last, _ := sent.RawGetString("last_ns").(lua.LNumber)
	at, _ := m.RawGetString("time_ns").(lua.LNumber)
	lag := float64(at - first)
	if lag <= lagNoteNS {
		return ""
	}
	when := msText(float64(first))
	if to := msText(float64(last)); to != when {
		when += "-" + to
	}
	return fmt.Sprintf("  (sent %s ms, %s ms in the tree)", when, msText(lag))
}

// msText writes ns as milliseconds with one decimal, or three where one would read 0.
func msText(ns float64) string {
	ms := ns / 1e6
	if ms >= 0.1 || ms == 0 {
		return strconv.FormatFloat(ms, 'f', 1, 64)
	}
	return strconv.FormatFloat(ms, 'f', 3, 64)
}
