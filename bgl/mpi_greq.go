package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Generalized requests (MPI_Grequest_start and MPI_Grequest_complete). The engine keeps
// one as any other request, so Wait, Test and their array forms progress and free it with
// the rest; only MPI_Grequest_complete marks it done. The program's query, free and
// cancel callbacks run in the rank, called by libmpi (libmpi_greq.c) around those calls.
// A rank waiting on a generalized request nothing will complete is a deadlock like any
// other: the CNK runs one thread per process, so no other thread can complete it.

// init runs after mpi_end.go's, which makes the table (files initialize in name order).
func init() {
	mpiOps[abi.HcMPIGrequestStart] = mpiOpSpec{"MPI_Grequest_start", startGrequest, nil}
	mpiOps[abi.HcMPIGrequestComplete] = mpiOpSpec{"MPI_Grequest_complete", startGrequestComplete, nil}
	shardedMPICalls[abi.HcMPIGrequestStart] = true
	shardedMPICalls[abi.HcMPIGrequestComplete] = true
}

// startGrequest {request} makes a generalized request, not complete, and writes its
// handle.
func startGrequest(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	q, err := e.newReq(n, &mpiReq{greq: true}, "a generalized request")
	if err != nil {
		return false, err
	}
	r := &e.ranks[n.rank]
	if r.greqs == nil {
		r.greqs = map[uint32]*mpiReq{}
	}
	r.greqs[q.id] = q
	return true, writeWords(n, c.w[0], q.id)
}

// startGrequestComplete {request handle} completes a generalized request with an empty
// status (libmpi's query callback fills the program's). The handle is a value: the
// program may have freed its request with MPI_Request_free, which leaves the request
// pending until this call.
func startGrequestComplete(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	r := &e.ranks[n.rank]
	id := c.w[0]
	q := r.greqs[id]
	if q == nil {
		if id == 0 {
			return false, mpiErrorf(mpiErrRequest, "request handle is MPI_REQUEST_NULL")
		}
		return false, mpiErrorf(mpiErrRequest, "request handle %d is not a pending generalized request", id)
	}
	delete(r.greqs, id)
	q.done, q.st = true, emptyStatus
	if q.freed {
		q.held.release()
	}
	return true, nil
}
