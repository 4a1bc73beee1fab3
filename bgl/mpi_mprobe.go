package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Matched probes: MPI_Mprobe and MPI_Improbe take the first arrived message that matches
// out of the unexpected queue, as a receive would, and keep it under a message handle of
// the rank's; only MPI_Mrecv or MPI_Imrecv of that handle receives it, so no receive or
// probe in between can see it. The message stays on its sender's memory account until
// then. MPI_PROC_NULL matches at once with the handle MPI_MESSAGE_NO_PROC, whose receive
// has the status of a receive from MPI_PROC_NULL.

const (
	mpiMessageNull   = 0          // MPI_MESSAGE_NULL
	mpiMessageNoProc = 0xffffffff // MPI_MESSAGE_NO_PROC ((MPI_Message)-1)
)

// mpiMatched is a message a matched probe took, with the communicator it was probed on.
type mpiMatched struct {
	msg  *mpiMsg
	comm *mpiComm
}

func init() {
	mpiOps[abi.HcMPIImprobe] = mpiOpSpec{"MPI_Improbe", startImprobe, nil}
	mpiOps[abi.HcMPIMprobe] = mpiOpSpec{"MPI_Mprobe", nil, pollMprobe}
	mpiOps[abi.HcMPIMrecv] = mpiOpSpec{"MPI_Mrecv", startMrecv, nil}
	mpiOps[abi.HcMPIImrecv] = mpiOpSpec{"MPI_Imrecv", startMrecv, nil}
	mpiCommWord[abi.HcMPIImprobe] = 2
	mpiCommWord[abi.HcMPIMprobe] = 2
	// A matched probe takes a message from its own rank's queue, as a receive does, so it
	// runs across shards as a receive does.
	for _, h := range []abi.Sysno{abi.HcMPIImprobe, abi.HcMPIMprobe, abi.HcMPIMrecv, abi.HcMPIImrecv} {
		shardedMPICalls[h] = true
	}
}

// mprobe takes the first arrived message matching {source, tag, comm} (the first three
// words of c's block) and returns its handle and status; found is false when none has
// arrived.
func (e *mpiEngine) mprobe(n *node, c *mpiCall, now uint64) (handle uint32, st mpiStatus, found bool, err error) {
	comm, _, err := e.comm(n, c.w[2])
	if err != nil {
		return 0, st, false, err
	}
	src, err := commPeer(comm, int(int32(c.w[0])), true)
	if err != nil {
		return 0, st, false, err
	}
	tag := int32(c.w[1])
	if tag < 0 && tag != mpiAnyTag {
		return 0, st, false, mpiErrorf(mpiErrTag, "invalid tag %d", tag)
	}
	if src == mpiProcNull {
		return mpiMessageNoProc, procNullStatus, true, nil
	}
	if err := e.progress(n, now); err != nil {
		return 0, st, false, err
	}
	r := &e.ranks[n.rank]
	pat := mpiReq{comm: comm, src: int32(src), tag: tag}
	for i, m := range r.unexpected {
		if !pat.matches(m) {
			continue
		}
		r.unexpected = append(r.unexpected[:i], r.unexpected[i+1:]...)
		e.matchedSync(m, now)
		if r.matched == nil {
			r.matched = map[uint32]*mpiMatched{}
		}
		for {
			r.nextMsg++
			if r.nextMsg != mpiMessageNull && r.nextMsg != mpiMessageNoProc && r.matched[r.nextMsg] == nil {
				break
			}
		}
		r.matched[r.nextMsg] = &mpiMatched{msg: m, comm: comm}
		from, _ := comm.remote().rankOf(m.src)
		return r.nextMsg, mpiStatus{src: int32(from), tag: m.tag, count: uint32(len(m.data))}, true, nil
	}
	return 0, st, false, nil
}

// startImprobe {source, tag, comm, flag, message, status} answers at once.
func startImprobe(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	h, st, found, err := e.mprobe(n, c, now)
	if err != nil {
		return false, err
	}
	if err := writeWords(n, c.w[3], uint32(bool64(found))); err != nil || !found {
		return true, err
	}
	if err := writeWords(n, c.w[4], h); err != nil {
		return false, err
	}
	return true, writeStatus(n, c.w[5], st)
}

// pollMprobe {source, tag, comm, message, status} waits for a matching message.
func pollMprobe(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	h, st, found, err := e.mprobe(n, c, now)
	if err != nil || !found {
		return false, err
	}
	if err := writeWords(n, c.w[3], h); err != nil {
		return false, err
	}
	return true, writeStatus(n, c.w[4], st)
}

// startMrecv {buf, count, type, message, status or request} receives the message of a
// matched probe and sets the handle to MPI_MESSAGE_NULL. MPI_Imrecv's request is complete
// when made: the message is already here.
func startMrecv(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	bytes, err := bufBytes(c.w[1], c.w[2])
	if err != nil {
		return false, err
	}
	b, errno := n.proc.copyIn(c.w[3], 4)
	if errno != 0 {
		return false, mpiErrorf(mpiErrArg, "message handle at 0x%08x: %v", c.w[3], errno)
	}
	h := be.Uint32(b)
	r := &e.ranks[n.rank]
	q := &mpiReq{recv: true, buf: c.w[0], cap: bytes, done: true, st: procNullStatus}
	if h != mpiMessageNoProc {
		mm := r.matched[h]
		if mm == nil {
			return false, mpiErrorf(mpiErrRequest, "message handle %d is not a matched message", int32(h))
		}
		delete(r.matched, h)
		q.comm, q.src, q.tag = mm.comm, int32(mm.msg.src), mm.msg.tag
		if err := deliverMsg(n, q, mm.msg); err != nil {
			return false, err
		}
	}
	if err := writeWords(n, c.w[3], mpiMessageNull); err != nil {
		return false, err
	}
	if c.num == abi.HcMPIMrecv {
		return true, writeStatus(n, c.w[4], q.st)
	}
	if _, err := e.newReq(n, q, "MPI_Imrecv"); err != nil {
		return false, err
	}
	return true, writeWords(n, c.w[4], q.id)
}
