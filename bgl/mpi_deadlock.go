package bgl

import (
	"fmt"
	"slices"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// checkDeadlock ends the job when every live rank is blocked in MPI, none has a message
// on its way or a completed collective to take, and nothing else is in flight. If
// something else still is (a packet, an event), it looks again once that has been
// delivered; the engine's own wakes of ranks that will stay blocked do not count. It reports whether the job was ended.
func (e *mpiEngine) checkDeadlock(j *Job, cur *node) bool {
	// A sharded run looks for a deadlock at each window's start, over every process; it
	// notes the step, which may be the one that finds it here (mpi_shard_end.go).
	if e.sh != nil {
		if cur != nil {
			e.sh.traceBlock(cur)
		}
		return false
	}
	if e.ended != nil || e.blocked == 0 || e.blocked != j.live {
		return false
	}
	for r := range e.ranks {
		if e.ranks[r].blockedOn != nil {
			if _, ok := e.nextChange(r); ok {
				return false
			}
		}
	}
	var latest uint64
	inFlight := false
	for _, m := range j.queue {
		if m.src != engineSrc(j) {
			latest, inFlight = max(latest, m.at), true
		}
	}
	if inFlight {
		e.wakeAt(j, e.firstBlocked(cur), latest)
		return false
	}
	if signalled(j) != nil {
		// They wait for a rank killed by a signal: the event listener ends the job when
		// that event is dispatched, at the end of this window.
		return false
	}
	waits := e.waits(j)
	e.end(j, cur, &MPIEnd{Kind: MPIEndDeadlock, Rank: -1, Status: MPIDeadlockStatus, TimeNS: j.now, Waits: waits,
		Msg: fmt.Sprintf("MPI deadlock at virtual time %.3f µs: all %d live ranks are blocked", float64(j.now)/1e3, len(waits))})
	return true
}

func (e *mpiEngine) firstBlocked(cur *node) int {
	if cur != nil {
		return cur.rank
	}
	for r := range e.ranks {
		if e.ranks[r].blockedOn != nil {
			return r
		}
	}
	return 0
}

// waits describes every blocked rank's call and whom it waits for.
func (e *mpiEngine) waits(j *Job) []MPIWait {
	var out []MPIWait
	for r := range e.ranks {
		if c := e.ranks[r].blockedOn; c != nil {
			w := e.describe(j, r, c)
			w.Rank = r
			out = append(out, w)
		}
	}
	return out
}

func peerName(src int32) string {
	if src == mpiAnySource {
		return "any source"
	}
	return fmt.Sprintf("source %d", src)
}

func tagName(tag int32) string {
	if tag == mpiAnyTag {
		return "any tag"
	}
	return fmt.Sprintf("tag %d", tag)
}

func peers(src int32) []int {
	if src == mpiAnySource {
		return nil
	}
	return []int{int(src)}
}

func (e *mpiEngine) describe(j *Job, rank int, c *mpiCall) MPIWait {
	name := mpiCallName(c.num)
	switch {
	case c.coll != nil:
		var missing []int
		for r, in := range c.coll.in {
			if !in {
				missing = append(missing, c.coll.comm.worldOf(r))
			}
		}
		where := ""
		if c.coll.comm.world != nil {
			where = " on " + commName(c.coll.comm)
		}
		return MPIWait{Call: fmt.Sprintf("%s (collective #%d%s)", name, c.coll.seq+1, where), For: missing}
	case c.num == abi.HcMPIRecv:
		q := c.req
		return MPIWait{Call: fmt.Sprintf("%s(%s, %s)", name, peerName(q.src), tagName(q.tag)), For: peers(q.src)}
	case c.num == abi.HcMPISsend:
		return describeSsend(name, c.req)
	case c.num == abi.HcMPIProbe, c.num == abi.HcMPIMprobe:
		src, tag := int32(c.w[0]), int32(c.w[1])
		return MPIWait{Call: fmt.Sprintf("%s(%s, %s)", name, peerName(src), tagName(tag)), For: peers(src)}
	}
	return e.describeRequests(rank, name)
}

// describeRequests covers Wait and Waitall: the pending receives of the rank.
func (e *mpiEngine) describeRequests(rank int, name string) MPIWait {
	pend := e.ranks[rank].posted
	w := MPIWait{Call: fmt.Sprintf("%s(%d pending receives)", name, len(pend))}
	if g := len(e.ranks[rank].greqs); g > 0 {
		// Only the rank itself could complete them, and it is blocked.
		w.Call = fmt.Sprintf("%s(%d pending receives, %d generalized requests not completed)", name, len(pend), g)
	}
	seen := map[int]bool{}
	for _, q := range pend {
		if q.src == mpiAnySource {
			w.For = nil
			return w
		}
		if !seen[int(q.src)] {
			seen[int(q.src)] = true
			w.For = append(w.For, int(q.src))
		}
	}
	slices.Sort(w.For)
	return w
}
