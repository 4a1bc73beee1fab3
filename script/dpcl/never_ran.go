package dpcl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dpclsh/dpclsh/probes"
	"github.com/dpclsh/dpclsh/runtime"
)

// warnNeverRan says once, when the job has ended, which installed probes sit at a point
// no rank ever reached: their counters and timers read 0 and they sent nothing, which
// otherwise looks like a measurement. A function's entry or exit that never ran while
// the compiler inlined the function is the usual cause, and the warning offers the
// inlined copies' points.
func (st *dpclState) warnNeverRan(a *luaApp) {
	if a.neverRanTold || a.closed() || !a.app.Done() {
		return
	}
	a.neverRanTold = true
	list, err := a.app.NeverRan()
	if err != nil {
		fmt.Fprintf(st.s.Stderr(), "dpcl: %v\n", err)
		return
	}
	list = slices.DeleteFunc(list, func(n runtime.NeverRan) bool {
		x := st.extras[n.Handle]
		return x != nil && x.noWarn
	})
	told := map[uint32]int{}
	for i, n := range list {
		id := n.Handle.ID
		if told[id]++; told[id] > maxNeverRanLines {
			if i+1 == len(list) || list[i+1].Handle.ID != id {
				fmt.Fprintf(st.s.Stderr(), "dpclsh: warning: probe %d: and %d more of its points never ran\n", id, told[id]-maxNeverRanLines)
			}
			continue
		}
		fmt.Fprintf(st.s.Stderr(), "dpclsh: warning: probe %d at %s never ran%s\n",
			id, pointPlace(n.Point), neverRanHint(a.app, n.Point))
	}
}

// maxNeverRanLines is how many of one probe's points that never ran are named.
const maxNeverRanLines = 3

// pointPlace names a point as a user picked it: "work entry (imb.c:7)"; points that are
// one of several in a function (exits, call sites, lines) carry their address.
func pointPlace(p probes.Point) string {
	s := p.Func + " " + p.Kind.String()
	if p.Kind != probes.PointEntry {
		s += fmt.Sprintf(" 0x%x", p.Addr)
	}
	if p.File != "" {
		s += fmt.Sprintf(" (%s:%d)", p.File, p.Line)
	}
	return s
}

// neverRanHint is why an entry or exit of a function the compiler inlined never ran.
func neverRanHint(app *runtime.App, p probes.Point) string {
	if p.Kind != probes.PointEntry && p.Kind != probes.PointExit {
		return ""
	}
	into := app.Prog.InlinedInto(p.Func)
	if len(into) == 0 {
		return ""
	}
	return fmt.Sprintf(": %s is inlined into %s; try app:points(%q, \"inlined\")", p.Func, strings.Join(into, ", "), p.Func)
}
