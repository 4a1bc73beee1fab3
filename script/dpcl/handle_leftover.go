package dpcl

import "fmt"

// maxLeftoverLines is how many of a probe's unread messages are printed at exit; the
// rest are counted.
const maxLeftoverLines = 10

// printLeftovers prints, when the session ends, the messages still queued on each probe
// (as bpftrace prints its maps at exit): a batch script that never read them would
// otherwise end as if the probe had sent nothing. A probe installed with print = false
// keeps its queue to itself.
func (st *dpclState) printLeftovers() {
	out := st.s.Stdout()
	for _, h := range st.handles {
		x := st.extras[h]
		if x.quiet || len(x.queue) == 0 {
			continue
		}
		fmt.Fprintf(out, "probe %d: %d %s left unread at exit (print = false on install keeps them quiet):\n",
			h.ID, len(x.queue), plural(len(x.queue), "message", "messages"))
		for i, m := range x.queue {
			if i == maxLeftoverLines {
				fmt.Fprintf(out, "probe %d: ... and %d more\n", h.ID, len(x.queue)-i)
				break
			}
			fmt.Fprintln(out, formatMessage(st.s.L, h.ID, m))
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
