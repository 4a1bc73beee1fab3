package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// MPI_Cancel and MPI_Request_get_status.

// statusCancelled is the bit of MPI_Status.count that marks a cancelled request: counts
// stay below 1<<30, and MPI_Test_cancelled reads it, MPI_Get_count masks it.
const statusCancelled = 1 << 31

// init runs after mpi_end.go's, which makes the table (files initialize in name order).
func init() {
	mpiOps[abi.HcMPICancel] = mpiOpSpec{"MPI_Cancel", startCancel, nil}
	mpiOps[abi.HcMPIRequestGetStatus] = mpiOpSpec{"MPI_Request_get_status", startRequestGetStatus, nil}
}

// startCancel {request} cancels a receive that no message has matched yet: it leaves the
// posted receives and completes, cancelled, with no data; the caller's Wait or Test then
// frees it as any completed request. A receive already matched, and a send (complete when
// made: the data was copied and is on its way), are not cancelled, which the standard
// allows for a communication that has completed.
func startCancel(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if err := e.progress(n, now); err != nil {
		return false, err
	}
	q, err := e.lookupReq(n, c.w[0])
	if err != nil {
		return false, err
	}
	if q == nil {
		return false, mpiErrorf(mpiErrRequest, "request handle is MPI_REQUEST_NULL")
	}
	if !q.recv || q.done {
		return true, nil
	}
	r := &e.ranks[n.rank]
	for i, p := range r.posted {
		if p == q {
			r.posted = append(r.posted[:i], r.posted[i+1:]...)
			break
		}
	}
	q.done = true
	q.st = mpiStatus{src: q.src, tag: q.tag, cancelled: true}
	return true, nil
}

// startRequestGetStatus {request, flag, status} is MPI_Test without freeing: the handle
// stays valid whether or not the request has completed.
func startRequestGetStatus(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
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
	st := emptyStatus
	if q != nil {
		st = q.st
	}
	return true, writeStatus(n, c.w[2], st)
}
