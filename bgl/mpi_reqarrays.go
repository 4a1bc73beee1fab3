package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Testall, Testany, Waitany, Waitsome and Testsome {count, requests, ...}.

// reqArray reads count request handles at addr (nil entries: MPI_REQUEST_NULL).
func (e *mpiEngine) reqArray(n *node, count, addr uint32, now uint64) ([]*mpiReq, error) {
	if int32(count) < 0 || count > 1<<20 {
		return nil, mpiErrorf(mpiErrCount, "invalid count %d of requests", int32(count))
	}
	if err := e.progress(n, now); err != nil {
		return nil, err
	}
	qs := make([]*mpiReq, count)
	for i := range qs {
		q, err := e.lookupReq(n, addr+uint32(4*i))
		if err != nil {
			return nil, err
		}
		qs[i] = q
	}
	return qs, nil
}

// statusAt is the address of the i-th status of an array, or MPI_STATUSES_IGNORE.
func statusAt(sts uint32, i int) uint32 {
	if sts == mpiStatusIgnor || sts == 0 {
		return mpiStatusIgnor
	}
	return sts + uint32(16*i)
}

// pollTestall {count, requests, flag, statuses}: all done frees all and sets flag.
func pollTestall(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	qs, err := e.reqArray(n, c.w[0], c.w[1], now)
	if err != nil {
		return false, err
	}
	for _, q := range qs {
		if q != nil && !q.done {
			return true, writeWords(n, c.w[2], 0)
		}
	}
	for i, q := range qs {
		if err := e.finish(n, q, c.w[1]+uint32(4*i), statusAt(c.w[3], i)); err != nil {
			return false, err
		}
	}
	return true, writeWords(n, c.w[2], 1)
}

// anyDone finds the first completed request: its index, or -1; active says whether any
// request was not MPI_REQUEST_NULL.
func anyDone(qs []*mpiReq) (idx int, active bool) {
	for i, q := range qs {
		if q == nil {
			continue
		}
		active = true
		if q.done {
			return i, true
		}
	}
	return -1, active
}

// pollTestany {count, requests, index, flag, status}.
func pollTestany(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	qs, err := e.reqArray(n, c.w[0], c.w[1], now)
	if err != nil {
		return false, err
	}
	i, active := anyDone(qs)
	if i < 0 {
		if err := writeWords(n, c.w[2], undefinedWord); err != nil {
			return false, err
		}
		if !active {
			return true, e.finishEmpty(n, c.w[3], c.w[4])
		}
		return true, writeWords(n, c.w[3], 0)
	}
	if err := writeWords(n, c.w[2], uint32(i)); err != nil {
		return false, err
	}
	if err := writeWords(n, c.w[3], 1); err != nil {
		return false, err
	}
	return true, e.finish(n, qs[i], c.w[1]+uint32(4*i), c.w[4])
}

// finishEmpty answers a test over requests that are all MPI_REQUEST_NULL: flag set and an
// empty status.
func (e *mpiEngine) finishEmpty(n *node, flag, st uint32) error {
	if err := writeWords(n, flag, 1); err != nil {
		return err
	}
	return writeStatus(n, st, emptyStatus)
}

// pollWaitany {count, requests, index, status} blocks until one request completes.
func pollWaitany(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	qs, err := e.reqArray(n, c.w[0], c.w[1], now)
	if err != nil {
		return false, err
	}
	i, active := anyDone(qs)
	switch {
	case !active:
		if err := writeWords(n, c.w[2], undefinedWord); err != nil {
			return false, err
		}
		return true, writeStatus(n, c.w[3], emptyStatus)
	case i < 0:
		return false, nil
	}
	if err := writeWords(n, c.w[2], uint32(i)); err != nil {
		return false, err
	}
	return true, e.finish(n, qs[i], c.w[1]+uint32(4*i), c.w[3])
}

// pollWaitsome {incount, requests, outcount, indices, statuses} blocks until at least one
// request completes (Testsome does not), then frees every completed one.
func pollWaitsome(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	qs, err := e.reqArray(n, c.w[0], c.w[1], now)
	if err != nil {
		return false, err
	}
	var done []int
	active := false
	for i, q := range qs {
		if q != nil {
			active = true
			if q.done {
				done = append(done, i)
			}
		}
	}
	if !active {
		return true, writeWords(n, c.w[2], undefinedWord)
	}
	if len(done) == 0 && c.num == abi.HcMPIWaitsome {
		return false, nil
	}
	for k, i := range done {
		if err := writeWords(n, c.w[3]+uint32(4*k), uint32(i)); err != nil {
			return false, err
		}
		if err := e.finish(n, qs[i], c.w[1]+uint32(4*i), statusAt(c.w[4], k)); err != nil {
			return false, err
		}
	}
	return true, writeWords(n, c.w[2], uint32(len(done)))
}

// undefinedWord is MPI_UNDEFINED as a word of the target's memory.
const undefinedWord = ^uint32(0) - 2
