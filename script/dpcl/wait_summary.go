package dpcl

import (
	"errors"
	"fmt"
	"slices"

	"github.com/dpclsh/dpclsh/runtime"
	"github.com/dpclsh/dpclsh/script"
)

// printWaitSummary tells a shell user who pressed Ctrl-C in app:wait where each of the
// job's probes stands: how much its ranks sent, how much reached the front-end, how much
// is still in the tree and how much waits unread, so that a stopped wait does not look
// like a probe that sent nothing.
func (st *dpclState) printWaitSummary(a *luaApp) {
	if !isInteractive(st.s) || !errors.Is(st.s.StopError(), script.ErrInterrupted) {
		return
	}
	ids := make([]uint32, 0, len(a.handles))
	for id := range a.handles {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	out := st.s.Stderr()
	fmt.Fprintf(out, "app:wait stopped at virtual %s ms; its probes:\n", msText(float64(a.app.Now())))
	for _, id := range ids {
		h, ok := a.handles[id].Value.(*runtime.Handle)
		if !ok {
			continue
		}
		s := h.Stats()
		fmt.Fprintf(out, "  probe %d (%s): %d sent by the ranks, %d delivered, %d in the tree, %d unread\n",
			id, h.State(), s.Sent, s.Delivered, max(0, s.Sent-s.Delivered), len(st.extra(h).queue))
	}
}
