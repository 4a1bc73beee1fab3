package bgl

import (
	"fmt"
	"slices"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// Synchronous sends (MPI_Ssend, MPI_Issend, and MPI_Ssend_init's started requests). The
// message goes as every send's does (copied at the call, on the same FIFO channel, at the
// same cost), but the sender's call, or its request, completes only once a receive at the
// destination has taken the message (or a matched probe has), and the sender learns of
// that match one small message's latency later, as with MPICH's rendezvous
// acknowledgement. So MPI_Ssend blocks until the matching receive starts, a program whose
// Ssends wait on each other deadlocks as under MPICH, and MPI_Request_get_status right
// after a barrier that followed the Ssend sees the receive done. Across shards the
// receiver's process reports the match back at the round's end (recMPIAck), before the
// news is due, so the send completes at the same virtual time as in one process.

func init() {
	mpiOps[abi.HcMPISsend] = mpiOpSpec{"MPI_Ssend", startSsend, pollSsend}
	mpiOps[abi.HcMPIIssend] = mpiOpSpec{"MPI_Issend", startSsend, nil}
	mpiCommWord[abi.HcMPISsend] = 5
	mpiCommWord[abi.HcMPIIssend] = 5
	shardedMPICalls[abi.HcMPISsend] = true
	shardedMPICalls[abi.HcMPIIssend] = true
}

// startSsend sends {buf, count, type, dest, tag, comm[, request]} with a synchronous
// request: MPI_Issend's is registered and its handle written; MPI_Ssend waits on it.
// To MPI_PROC_NULL it is complete at once.
func startSsend(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	q := &mpiReq{}
	a, what, err := e.sendMsg(j, n, c, now, q)
	if err != nil {
		return false, err
	}
	// The destination and tag name the send should the job deadlock in it.
	q.comm, q.src, q.tag = a.comm, int32(a.peer), a.tag
	if a.peer == mpiProcNull {
		q.done = true
	}
	if q.done {
		q.st = emptyStatus
	}
	if c.num == abi.HcMPIIssend {
		if _, err := e.newReq(n, q, what); err != nil {
			return false, err
		}
		return true, writeWords(n, c.w[6], q.id)
	}
	c.req = q
	return q.done, nil
}

// pollSsend looks whether MPI_Ssend's match has been reported.
func pollSsend(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if err := e.progress(n, now); err != nil {
		return false, err
	}
	return c.req.done, nil
}

// matchedSync notes that a receive took message m at virtual time t: a synchronous
// send's request completes when its sender learns of it, and the sender, if blocked, is
// woken then (step does, flushing the engine's acks).
func (e *mpiEngine) matchedSync(m *mpiMsg, t uint64) {
	if m.sync == nil && m.away != nil && m.ackLat != 0 && !m.acked {
		// Sent synchronously from another shard: its process learns of the match at the
		// round's end, before the news could arrive (ackLat is past the window).
		m.acked = true
		m.away.matched(m, max(t+m.ackLat, 1))
		return
	}
	if m.sync == nil || m.sync.ackAt != 0 {
		return
	}
	m.sync.ackAt = max(t+m.sync.ackLat, 1)
	e.acks = append(e.acks, mpiAck{rank: m.src, at: m.sync.ackAt})
}

// mpiAck is a match to report: wake rank at virtual time at.
type mpiAck struct {
	rank int
	at   uint64
}

// flushAcks wakes the blocked senders of the matches noted since the last flush; one not
// blocked finds its send complete in its next progressing call (progress), or is woken
// when it blocks (nextChange).
func (e *mpiEngine) flushAcks(j *Job) {
	for _, a := range e.acks {
		e.wakeAt(j, a.rank, a.at)
	}
	e.acks = e.acks[:0]
}

// completeSyncs completes the synchronous sends of rank r whose match the sender knows of
// by virtual time t.
func (e *mpiEngine) completeSyncs(r *mpiRank, t uint64) {
	r.syncs = slices.DeleteFunc(r.syncs, func(q *mpiReq) bool {
		if q.ackAt == 0 || q.ackAt > t {
			return q.done // to MPI_PROC_NULL: complete when sent
		}
		q.done, q.st = true, emptyStatus
		if q.freed {
			q.held.release()
		}
		return true
	})
}

// nextSync is the earliest time a synchronous send of rank r learns of its match.
func (r *mpiRank) nextSync() (uint64, bool) {
	t, ok := uint64(0), false
	for _, q := range r.syncs {
		if q.ackAt != 0 && (!ok || q.ackAt < t) {
			t, ok = q.ackAt, true
		}
	}
	return t, ok
}

// describeSsend names a deadlocked MPI_Ssend: whom it waits for to receive.
func describeSsend(name string, q *mpiReq) MPIWait {
	return MPIWait{Call: fmt.Sprintf("%s(dest %d, %s)", name, q.src, tagName(q.tag)),
		For: []int{int(q.src)}}
}
