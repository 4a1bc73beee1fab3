package bgl

import (
	"sort"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// MPI wildcards and handles as bgl/target/mpi.h defines them.
const (
	mpiAnySource   = -2
	mpiAnyTag      = -1
	mpiCommWorld   = 1
	mpiStatusIgnor = 1 // MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE
)

// mpiRank is one rank's point-to-point state.
type mpiRank struct {
	future     []*mpiMsg // sent here, arriving after the last progress; (arrival, src, seq) order
	unexpected []*mpiMsg // arrived and unmatched, in arrival order
	posted     []*mpiReq // pending receives, in posting order
	icolls     []*mpiReq // pending nonblocking collectives, in starting order
	reqs       map[uint32]*mpiReq
	nextReq    uint32
	sendSeq    uint64
	lastArr    map[int]uint64 // latest arrival per destination: a channel is FIFO
	collSeq    map[uint32]int // collectives entered so far, per communicator context
	self       *mpiComm       // MPI_COMM_SELF
	freed      map[uint32]bool
	blockedOn  *mpiCall
	wake       *message
	life       mpiLife                // where the rank is between MPI_Init and MPI_Finalize
	errReturn  map[uint32]bool        // communicators whose errors return (mpi_errhandler.go)
	matched    map[uint32]*mpiMatched // messages taken by matched probes (mpi_mprobe.go)
	greqs      map[uint32]*mpiReq     // generalized requests not yet completed (mpi_greq.go)
	syncs      []*mpiReq              // synchronous sends not yet complete (mpi_ssend.go)
	nextMsg    uint32
}

// mpiMsg is a message in flight or waiting to be matched. Sends are buffered (eager):
// the data was copied when the send was made.
type mpiMsg struct {
	src     int // world rank
	ctx     uint32
	tag     int32
	seq     uint64
	arrival uint64
	data    []byte
	held    mpiCharge // on the sender's account until a receive takes it
	away    *shardRun // sent from another shard: its receive is reported there
	sync    *mpiReq   // a synchronous send's request, completed when a receive takes it (mpi_ssend.go)
	ackLat  uint64    // sent synchronously from another shard: the match's news travels back this long
	acked   bool      // that news was sent
}

func (a *mpiMsg) before(b *mpiMsg) bool {
	if a.arrival != b.arrival {
		return a.arrival < b.arrival
	}
	if a.src != b.src {
		return a.src < b.src
	}
	return a.seq < b.seq
}

// mpiReq is a request: a receive (pending or done) or a send (done at once).
type mpiReq struct {
	id        uint32
	recv      bool
	comm      *mpiComm
	src, tag  int32 // src: a world rank or MPI_ANY_SOURCE
	buf, cap  uint32
	done      bool
	freed     bool // MPI_Request_free detached it while active: nothing waits, completion frees it
	st        mpiStatus
	held      mpiCharge // on its rank's account until Wait, Test or (freed) completion frees it
	icoll     *mpiCall  // a nonblocking collective's entered call (mpi_icoll.go)
	fileBytes *uint32   // nonblocking collective file I/O: the bytes its status reports (mpi_io.go)
	greq      bool      // a generalized request: only MPI_Grequest_complete completes it (mpi_greq.go)
	ackLat    uint64    // a synchronous send's: from the match to the sender knowing it (mpi_ssend.go)
	ackAt     uint64    // when the sender knows of the match; 0 until matched
}

type mpiStatus struct {
	src, tag  int32
	count     uint32 // bytes
	cancelled bool   // MPI_Cancel took the receive before a message matched it
}

var emptyStatus = mpiStatus{src: mpiAnySource, tag: mpiAnyTag}

func (q *mpiReq) matches(m *mpiMsg) bool {
	return q.comm.id == m.ctx && (q.src == mpiAnySource || int(q.src) == m.src) && (q.tag == mpiAnyTag || q.tag == m.tag)
}

// send deposits a message from rank src to dest at virtual time now and returns the
// sender's cost. The message arrives after the sender overhead, the torus latency (never
// below the window), the hops and the bytes; messages on one channel never overtake.
// held is the message's memory, released when a receive takes it. sync, if not nil, is a
// synchronous send's request, completed once a receive takes the message.
func (e *mpiEngine) send(j *Job, src, dest int, ctx uint32, tag int32, data []byte, held mpiCharge, now uint64, sync *mpiReq) uint64 {
	s := &e.ranks[src]
	bytes := uint64(len(data))
	lat := max(TorusLatencyNS, j.window) + uint64(j.part.Hops(j.part.NodeOf(src), j.part.NodeOf(dest)))*TorusHopNS + bytes*TorusNSPerByte
	arrival := now + MPISendNS + lat
	if s.lastArr == nil {
		s.lastArr = map[int]uint64{}
	}
	arrival = max(arrival, s.lastArr[dest])
	s.lastArr[dest] = arrival
	s.sendSeq++
	m := &mpiMsg{src: src, ctx: ctx, tag: tag, seq: s.sendSeq, arrival: arrival, data: data, held: held}
	if sync != nil {
		// The match's news travels back as a small message would.
		sync.ackLat = lat - bytes*TorusNSPerByte
		m.sync = sync
		s.syncs = append(s.syncs, sync)
	}
	if e.sh != nil && !e.sh.owns(j.part, dest) {
		// The receiver's process reports the match back (recMPIAck).
		e.sh.sendAway(m, dest)
		return MPISendNS + bytes
	}
	d := &e.ranks[dest]
	i := sort.Search(len(d.future), func(i int) bool { return m.before(d.future[i]) })
	d.future = append(d.future, nil)
	copy(d.future[i+1:], d.future[i:])
	d.future[i] = m
	e.wakeAt(j, dest, arrival)
	return MPISendNS + bytes
}

// progress lets every message that arrived at rank r by virtual time t meet the posted
// receives, in arrival order: each takes the first posted receive it matches, or waits as
// unexpected. Calls at time t run after every message arriving by t was sent (the latency
// is at least a window), so this is the order the messages really arrived in.
func (e *mpiEngine) progress(n *node, t uint64) error {
	r := &e.ranks[n.rank]
	e.completeSyncs(r, t)
	k := 0
	for ; k < len(r.future) && r.future[k].arrival <= t; k++ {
		m := r.future[k]
		matched := false
		for i, q := range r.posted {
			if q.matches(m) {
				r.posted = append(r.posted[:i], r.posted[i+1:]...)
				if err := deliverMsg(n, q, m); err != nil {
					return err
				}
				// Matched when the receiver's MPI makes progress, as without
				// asynchronous progress under MPICH.
				e.matchedSync(m, t)
				matched = true
				break
			}
		}
		if !matched {
			r.unexpected = append(r.unexpected, m)
		}
	}
	r.future = r.future[k:]
	return e.progressIcolls(n, t)
}

// deliverMsg completes receive q with message m, copying the data to the receiver.
func deliverMsg(n *node, q *mpiReq, m *mpiMsg) error {
	src, _ := q.comm.remote().rankOf(m.src)
	if uint32(len(m.data)) > q.cap {
		return mpiErrorf(mpiErrTruncate, "message of %d bytes from %s (tag %d) truncated: the receive buffer holds %d",
			len(m.data), rankDesc(q.comm.remote(), src), m.tag, q.cap)
	}
	if errno := n.proc.copyOut(q.buf, m.data); errno != 0 {
		return mpiErrorf(mpiErrBuffer, "receive buffer at 0x%08x: %v", q.buf, errno)
	}
	m.held.release()
	if m.away != nil {
		m.away.received(m)
	}
	if q.freed {
		q.held.release()
	}
	q.done = true
	q.st = mpiStatus{src: int32(src), tag: m.tag, count: uint32(len(m.data))}
	return nil
}

// post starts receive q on rank n at time t: the first unexpected message that matches
// completes it at once, or it joins the posted receives.
func (e *mpiEngine) post(n *node, q *mpiReq, t uint64) error {
	if err := e.progress(n, t); err != nil {
		return err
	}
	r := &e.ranks[n.rank]
	for i, m := range r.unexpected {
		if q.matches(m) {
			r.unexpected = append(r.unexpected[:i], r.unexpected[i+1:]...)
			e.matchedSync(m, t)
			return deliverMsg(n, q, m)
		}
	}
	r.posted = append(r.posted, q)
	return nil
}

// newReq registers a request of rank n, charging its memory (what it is for names it in
// the error when the node's memory is exhausted), and returns it with its handle.
func (e *mpiEngine) newReq(n *node, q *mpiReq, what string) (*mpiReq, error) {
	held, err := holdMPI(&n.proc, mpiReqBytes, what)
	if err != nil {
		return nil, err
	}
	q.held = held
	r := &e.ranks[n.rank]
	if r.reqs == nil {
		r.reqs = map[uint32]*mpiReq{}
	}
	for {
		r.nextReq++
		// A freed generalized request keeps its handle until MPI_Grequest_complete names it.
		if r.nextReq != 0 && r.reqs[r.nextReq] == nil && r.greqs[r.nextReq] == nil {
			break
		}
	}
	q.id = r.nextReq
	r.reqs[q.id] = q
	return q, nil
}

// p2pArgs checks and reads the common (buf, count, type, peer, tag, comm) arguments.
// peer is a world rank, MPI_ANY_SOURCE or MPI_PROC_NULL.
type p2pArgs struct {
	buf, bytes uint32
	comm       *mpiComm
	peer       int
	tag        int32
}

func (e *mpiEngine) p2pArgs(j *Job, n *node, c *mpiCall, recv bool) (p2pArgs, error) {
	w := c.w
	comm, _, err := e.comm(n, w[5])
	if err != nil {
		return p2pArgs{}, err
	}
	bytes, err := bufBytes(w[1], w[2])
	if err != nil {
		return p2pArgs{}, err
	}
	peer, tag := int(int32(w[3])), int32(w[4])
	if peer, err = commPeer(comm, peer, recv); err != nil {
		return p2pArgs{}, err
	}
	if tag < 0 && !(recv && tag == mpiAnyTag) {
		return p2pArgs{}, mpiErrorf(mpiErrTag, "invalid tag %d", tag)
	}
	return p2pArgs{buf: w[0], bytes: bytes, comm: comm, peer: peer, tag: tag}, nil
}

// commPeer turns a communicator rank argument into a world rank, keeping the wildcards.
// On an intercommunicator the rank is in the remote group.
func commPeer(comm *mpiComm, peer int, recv bool) (int, error) {
	comm = comm.remote()
	switch {
	case peer == mpiProcNull, recv && peer == mpiAnySource:
		return peer, nil
	case peer < 0 || peer >= comm.size:
		return 0, mpiErrorf(mpiErrRank, "invalid rank %d: not in %s (size %d)", peer, commName(comm), comm.size)
	}
	return comm.worldOf(peer), nil
}

// procNullStatus is the status of a receive from MPI_PROC_NULL.
var procNullStatus = mpiStatus{src: mpiProcNull, tag: mpiAnyTag}

func startSend(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	_, what, err := e.sendMsg(j, n, c, now, nil)
	if err != nil {
		return false, err
	}
	if c.num == abi.HcMPIIsend {
		q, err := e.newReq(n, &mpiReq{done: true, st: emptyStatus}, what)
		if err != nil {
			return false, err
		}
		return true, writeWords(n, c.w[6], q.id)
	}
	return true, nil
}

// sendMsg sends the message of call c's {buf, count, type, dest, tag, comm}, charging the
// caller its cost; sync, if not nil, is a synchronous send's request. It returns the
// arguments and what the message is, for errors.
func (e *mpiEngine) sendMsg(j *Job, n *node, c *mpiCall, now uint64, sync *mpiReq) (p2pArgs, string, error) {
	a, err := e.p2pArgs(j, n, c, false)
	if err != nil {
		return a, "", err
	}
	what := msgWhat(a.bytes, a.comm, a.peer)
	if a.peer == mpiProcNull {
		return a, what, nil
	}
	// Charged before the copy, so the host never holds what the node could not.
	held, err := holdMPI(&n.proc, uint64(a.bytes)+mpiMsgHeaderBytes, what)
	if err != nil {
		return a, what, err
	}
	data, errno := n.proc.copyIn(a.buf, a.bytes)
	if errno != 0 {
		held.release()
		return a, what, mpiErrorf(mpiErrBuffer, "send buffer at 0x%08x (%d bytes): %v", a.buf, a.bytes, errno)
	}
	c.extraNS = e.send(j, n.rank, a.peer, a.comm.id, a.tag, data, held, now, sync)
	return a, what, nil
}

func startRecv(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	a, err := e.p2pArgs(j, n, c, true)
	if err != nil {
		return false, err
	}
	q := &mpiReq{recv: true, comm: a.comm, src: int32(a.peer), tag: a.tag, buf: a.buf, cap: a.bytes}
	if a.peer == mpiProcNull {
		q.done, q.st = true, procNullStatus
		if c.num != abi.HcMPIIrecv {
			return true, writeStatus(n, c.w[6], q.st)
		}
		if _, err := e.newReq(n, q, recvWhat(a.comm, a.peer)); err != nil {
			return false, err
		}
		return true, writeWords(n, c.w[6], q.id)
	}
	if c.num == abi.HcMPIIrecv {
		if _, err := e.newReq(n, q, recvWhat(a.comm, a.peer)); err != nil {
			return false, err
		}
		if err := writeWords(n, c.w[6], q.id); err != nil {
			return false, err
		}
		return true, e.post(n, q, now)
	}
	c.req = q
	return false, e.post(n, q, now)
}

func pollRecv(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if err := e.progress(n, now); err != nil || !c.req.done {
		return false, err
	}
	return true, writeStatus(n, c.w[6], c.req.st)
}
