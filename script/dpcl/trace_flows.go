package dpcl

import "sort"

// MPI's wildcards and null peer (mpi.h): a receive from MPI_ANY_SOURCE or with
// MPI_ANY_TAG matches more than one queue; MPI_PROC_NULL moves no message.
const (
	mpiAnySource = -2
	mpiAnyTag    = -1
	mpiProcNull  = -1
)

// flow is one point-to-point message: the send that starts it and the call its receive
// is bound to (the receive, or for MPI_Irecv the wait that completed it).
type flow struct {
	send, recv, bind int32 // event indices
}

// msgKey is what MPI matches a message by: its source, destination, tag and communicator.
type msgKey struct {
	src, dst, tag, comm int32
}

// programOrder lists each rank's events in the order the rank entered the calls.
func (log *eventLog) programOrder() [][]int32 {
	n := int32(0)
	for i := range log.events {
		n = max(n, log.events[i].rank+1)
	}
	order := make([][]int32, n)
	for i := range log.events {
		r := log.events[i].rank
		order[r] = append(order[r], int32(i))
	}
	for _, idx := range order {
		// Records leave a rank as calls finish, so only nested calls are out of order.
		sort.SliceStable(idx, func(a, b int) bool { return log.events[idx[a]].start < log.events[idx[b]].start })
	}
	return order
}

// flows pairs every point-to-point send with its receive as MPI does: per source,
// destination, tag and communicator, the n-th send with the n-th receive, in each rank's
// program order (messages do not overtake). A receive with a wildcard source or tag takes,
// among the messages it could match, the one whose send began first. Sends without a
// receive in the trace (dropped, or never received) start no flow.
func (log *eventLog) flows() []flow {
	order := log.programOrder()
	sends := map[msgKey][]int32{}
	keysTo := map[int32][]msgKey{} // the keys of messages to each rank, in first-seen order
	for _, idx := range order {
		for _, i := range idx {
			e := &log.events[i]
			if k := log.kinds[e.fn]; k != kindSend && k != kindSendrecv || !e.pointToPoint() || e.peer < 0 {
				continue
			}
			k := msgKey{src: e.rank, dst: e.peer, tag: e.tag, comm: e.comm}
			if _, seen := sends[k]; !seen {
				keysTo[k.dst] = append(keysTo[k.dst], k)
			}
			sends[k] = append(sends[k], i)
		}
	}
	var out []flow
	for _, idx := range order {
		done := log.completions(idx)
		for _, i := range idx {
			e := &log.events[i]
			r, ok := log.receiveOf(e)
			if !ok {
				continue
			}
			k, ok := takeSend(log.events, sends, keysTo[e.rank], r)
			if !ok {
				continue
			}
			s := sends[k][0]
			sends[k] = sends[k][1:]
			bind := i
			if log.kinds[e.fn] == kindIrecv {
				if w, ok := done[i]; ok {
					bind = w
				}
			}
			out = append(out, flow{send: s, recv: i, bind: bind})
		}
	}
	return out
}

// receive is what a receive is matched by.
type receive struct {
	rank, peer, tag, comm int32
}

// receiveOf is the receive call e makes, if any: MPI_Recv's and MPI_Irecv's own
// arguments, MPI_Sendrecv's receive half. From MPI_PROC_NULL there is nothing to receive.
func (log *eventLog) receiveOf(e *traceEvent) (receive, bool) {
	r := receive{rank: e.rank, peer: e.peer, tag: e.tag, comm: e.comm}
	switch log.kinds[e.fn] {
	case kindRecv, kindIrecv:
	case kindSendrecv:
		r.peer, r.tag = e.rpeer, e.rtag
	default:
		return r, false
	}
	return r, e.pointToPoint() && r.peer != mpiProcNull
}

// pointToPoint says whether a call carried what a message is matched by.
func (e *traceEvent) pointToPoint() bool {
	const need = hasPeer | hasTag | hasComm
	return e.has&need == need
}

// takeSend finds the queue whose first message receive r matches: its own key, or for a
// wildcard the matching queue whose head was sent first.
func takeSend(evs []traceEvent, sends map[msgKey][]int32, keys []msgKey, r receive) (msgKey, bool) {
	if r.peer != mpiAnySource && r.tag != mpiAnyTag {
		k := msgKey{src: r.peer, dst: r.rank, tag: r.tag, comm: r.comm}
		return k, len(sends[k]) > 0
	}
	var best msgKey
	found := false
	for _, k := range keys {
		q := sends[k]
		if len(q) == 0 || k.comm != r.comm || (r.peer != mpiAnySource && k.src != r.peer) ||
			(r.tag != mpiAnyTag && k.tag != r.tag) {
			continue
		}
		if !found || evs[q[0]].start < evs[sends[best][0]].start {
			best, found = k, true
		}
	}
	return best, found
}

// maxWaitRequests bounds how many request slots of one MPI_Waitall are looked at.
const maxWaitRequests = 1 << 16

// completions maps each MPI_Irecv of one rank (in program order) to the MPI_Wait or
// MPI_Waitall that completed it: the first after it whose requests cover the address its
// handle went to. An Irecv whose slot is reused first, or completed by a call the trace
// does not follow (MPI_Waitany, MPI_Test...), has none.
func (log *eventLog) completions(idx []int32) map[int32]int32 {
	pending := map[uint32]int32{}
	done := map[int32]int32{}
	for _, i := range idx {
		e := &log.events[i]
		if e.has&hasReq == 0 {
			continue
		}
		switch log.kinds[e.fn] {
		case kindWait:
			n := min(max(e.nreq, 0), maxWaitRequests)
			if len(pending) == 0 {
				continue
			}
			for j := int32(0); j < n; j++ {
				a := e.req + 4*uint32(j)
				if r, ok := pending[a]; ok {
					done[r] = i
					delete(pending, a)
				}
			}
		case kindIrecv:
			pending[e.req] = i
		default:
			delete(pending, e.req) // an Isend took the slot
		}
	}
	return done
}
