package dpcl

import (
	"fmt"
	"io"

	"github.com/dpclsh/dpclsh/script"
)

// statsKey is where a session's jobs say what they cost when they close (dpclsh --stats).
var statsKey = script.NewKey[io.Writer]("stats")

// SetStats makes every job s launches from then on write its account on w when it
// closes (app:close, or the session's end), in exec --stats's words: a line for the job,
// "dpclsh: job N (PROGRAM): RANKS ranks, status S, ... sha256 ...", the same bytes at any
// number of processes, then in a sharded run a line per process (its psets, ranks,
// instructions, windows, bytes exchanged and host time waiting at window ends), which
// process 0 gathers. N counts the session's launches from 1.
func SetStats(s *script.Session, w io.Writer) {
	if w == nil {
		statsKey.Delete(s)
		return
	}
	statsKey.Set(s, w)
}

// jobStats is where an application writes its account when it closes.
type jobStats struct {
	w    io.Writer
	job  int
	name string
}

// printAccount writes the job's account: collective in a sharded run, so every process
// calls it at the same point (every process's session has the same --stats).
func (a *luaApp) printAccount() error {
	res, err := a.app.Account()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stats.w, "dpclsh: job %d (%s): %s\n", a.stats.job, a.stats.name, res.Summary())
	for _, sh := range res.Shards {
		fmt.Fprintf(a.stats.w, "dpclsh: job %d (%s): %v\n", a.stats.job, a.stats.name, sh)
	}
	return nil
}
