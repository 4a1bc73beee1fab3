package dpcl

import (
	"fmt"
	"github.com/dpclsh/dpclsh/script"
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
	return fmt.Sprintf("probe %d %s: %s", id, who, strings.Join(vals, " "))
}
