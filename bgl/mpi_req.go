package bgl

// Wait, Waitall, Test and Probe, and writing results into the caller's memory.

// writeWords stores big-endian words at addr in the node's memory.
func writeWords(n *node, addr uint32, words ...uint32) error {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		be.PutUint32(b[4*i:], w)
	}
	if errno := n.proc.copyOut(addr, b); errno != 0 {
		return mpiErrorf(mpiErrArg, "result at 0x%08x: %v", addr, errno)
	}
	return nil
}

// writeStatus fills an MPI_Status {MPI_SOURCE, MPI_TAG, MPI_ERROR, count} unless the
// caller passed MPI_STATUS_IGNORE (or NULL). As with MPICH, MPI_ERROR is left as it was
// (a call that completes one operation reports its error by its result), except in the
// empty status of MPI_REQUEST_NULL, whose MPI_ERROR is MPI_SUCCESS.
func writeStatus(n *node, addr uint32, st mpiStatus) error {
	if addr == 0 || addr == mpiStatusIgnor {
		return nil
	}
	count := st.count
	if st.cancelled {
		count |= statusCancelled
	}
	if st == emptyStatus {
		return writeWords(n, addr, uint32(st.src), uint32(st.tag), 0, count)
	}
	if err := writeWords(n, addr, uint32(st.src), uint32(st.tag)); err != nil {
		return err
	}
	return writeWords(n, addr+12, count)
}

// lookupReq reads the handle at addr: nil for MPI_REQUEST_NULL.
func (e *mpiEngine) lookupReq(n *node, addr uint32) (*mpiReq, error) {
	b, errno := n.proc.copyIn(addr, 4)
	if errno != 0 {
		return nil, mpiErrorf(mpiErrRequest, "request at 0x%08x: %v", addr, errno)
	}
	id := be.Uint32(b)
	if id == 0 {
		return nil, nil
	}
	q := e.ranks[n.rank].reqs[id]
	if q == nil {
		return nil, mpiErrorf(mpiErrRequest, "request handle %d is not active", id)
	}
	return q, nil
}

// finish frees a completed request, sets the handle to MPI_REQUEST_NULL and writes the
// status.
func (e *mpiEngine) finish(n *node, q *mpiReq, reqAddr, stAddr uint32) error {
	st := emptyStatus
	if q != nil {
		delete(e.ranks[n.rank].reqs, q.id)
		q.held.release()
		st = q.st
		if err := writeWords(n, reqAddr, 0); err != nil {
			return err
		}
	}
	return writeStatus(n, stAddr, st)
}

func pollWait(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if err := e.progress(n, now); err != nil {
		return false, err
	}
	q, err := e.lookupReq(n, c.w[0])
	if err != nil || (q != nil && !q.done) {
		return false, err
	}
	return true, e.finish(n, q, c.w[0], c.w[1])
}

func pollTest(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if err := e.progress(n, now); err != nil {
		return false, err
	}
	q, err := e.lookupReq(n, c.w[0])
	if err != nil {
		return false, err
	}
	if q != nil && !q.done {
		return true, writeWords(n, c.w[1], 0)
	}
	if err := writeWords(n, c.w[1], 1); err != nil {
		return false, err
	}
	return true, e.finish(n, q, c.w[0], c.w[2])
}

// pollWaitall completes when every request is done; only then are any of them freed.
func pollWaitall(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	count, reqs, sts := int32(c.w[0]), c.w[1], c.w[2]
	if count < 0 || count > 1<<20 {
		return false, mpiErrorf(mpiErrCount, "Waitall count %d", count)
	}
	if err := e.progress(n, now); err != nil {
		return false, err
	}
	qs := make([]*mpiReq, count)
	for i := range qs {
		q, err := e.lookupReq(n, reqs+uint32(4*i))
		if err != nil || (q != nil && !q.done) {
			return false, err
		}
		qs[i] = q
	}
	for i, q := range qs {
		st := uint32(0)
		if sts != mpiStatusIgnor && sts != 0 {
			st = sts + uint32(16*i)
		}
		if err := e.finish(n, q, reqs+uint32(4*i), st); err != nil {
			return false, err
		}
	}
	return true, nil
}

// pollProbe looks for the first arrived message the (source, tag) pattern matches.
func pollProbe(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	st, found, err := e.probe(n, c, now)
	if err != nil || !found {
		return false, err
	}
	return true, writeStatus(n, c.w[3], st)
}

// startIprobe {source, tag, comm, flag, status} answers at once.
func startIprobe(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	st, found, err := e.probe(n, c, now)
	if err != nil {
		return false, err
	}
	if err := writeWords(n, c.w[3], uint32(bool64(found))); err != nil || !found {
		return true, err
	}
	return true, writeStatus(n, c.w[4], st)
}

// probe matches the (source, tag, comm) of a probe call against the arrived messages.
func (e *mpiEngine) probe(n *node, c *mpiCall, now uint64) (mpiStatus, bool, error) {
	comm, _, err := e.comm(n, c.w[2])
	if err != nil {
		return mpiStatus{}, false, err
	}
	src, err := commPeer(comm, int(int32(c.w[0])), true)
	if err != nil {
		return mpiStatus{}, false, err
	}
	if src == mpiProcNull {
		return procNullStatus, true, nil
	}
	if err := e.progress(n, now); err != nil {
		return mpiStatus{}, false, err
	}
	pat := mpiReq{comm: comm, src: int32(src), tag: int32(c.w[1])}
	for _, m := range e.ranks[n.rank].unexpected {
		if pat.matches(m) {
			r, _ := comm.remote().rankOf(m.src)
			return mpiStatus{src: int32(r), tag: m.tag, count: uint32(len(m.data))}, true, nil
		}
	}
	return mpiStatus{}, false, nil
}

// startRequestFree {request} is MPI_Request_free of a request the engine keeps (libmpi
// frees persistent ones itself, handing the engine only the operation a persistent one
// started). The handle becomes MPI_REQUEST_NULL and invalid at once, as the standard says;
// a completed request is freed now, an active one (a receive whose message has not
// arrived) when it completes: it still takes its message, then its memory is given back.
// Sends are complete when made, so a freed send's message is delivered regardless.
func startRequestFree(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	q, err := e.lookupReq(n, c.w[0])
	if err != nil {
		return false, err
	}
	if q == nil {
		// MPICH refuses MPI_REQUEST_NULL here (MPI_ERR_REQUEST), unlike Wait and Test.
		return false, mpiErrorf(mpiErrRequest, "request handle is MPI_REQUEST_NULL")
	}
	delete(e.ranks[n.rank].reqs, q.id)
	if q.done {
		q.held.release()
	} else {
		q.freed = true
	}
	return true, writeWords(n, c.w[0], 0)
}
