package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Nonblocking collectives (MPI_Ibarrier, Ibcast, Ireduce, Iallreduce, Igather(v),
// Iallgather(v), Iscatter(v), Ialltoall(v/w), Iscan, Iexscan, Ireduce_scatter(_block)). The call enters the rank's next collective on
// the communicator exactly as its blocking form does (the same sequence, so blocking and
// nonblocking collectives keep MPI's one order per communicator; the send data is read
// now, which MPI allows since it must not change until completion) and returns a request
// at once. The collective completes when the last member enters, at the same virtual time
// as the blocking form, and the request completes in the first progress of its rank at or
// after that time (any Wait, Test or other call that progresses), when the results are
// written into the caller's buffers. It is never complete at the call.

// init runs after mpi_end.go's, which makes the table (files initialize in name order);
// it adds the blocking collectives that came with the nonblocking ones first, since their
// names name the nonblocking forms.
func init() {
	mpiOps[abi.HcMPIReduceScatterBlock] = mpiOpSpec{"MPI_Reduce_scatter_block", startColl, pollColl}
	mpiOps[abi.HcMPIAlltoallw] = mpiOpSpec{"MPI_Alltoallw", startColl, pollColl}
	for i, b := range abi.MPIIcollBlocking {
		name := mpiOps[b].name
		if len(name) < 5 {
			continue // a later file names it (MPI_Comm_idup of an intercommunicator, mpi_inter.go)
		}
		mpiOps[i] = mpiOpSpec{"MPI_I" + string(name[4]+'a'-'A') + name[5:], startIcoll, nil}
	}
}

// startIcoll {blocking form's block..., request} enters the collective and returns the
// request that completes with it.
func startIcoll(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	last := len(c.w) - 1
	inner := &mpiCall{num: abi.MPIIcollBlocking[c.num], addr: c.addr, w: c.w[:last], started: true}
	if _, err := startColl(e, j, n, inner, now); err != nil {
		return false, err
	}
	q, err := e.newReq(n, &mpiReq{icoll: inner}, mpiCallName(c.num))
	if err != nil {
		return false, err
	}
	r := &e.ranks[n.rank]
	r.icolls = append(r.icolls, q)
	return true, writeWords(n, c.w[last], q.id)
}

// progressIcolls completes the rank's nonblocking collectives whose results the network
// has delivered by time t, in the order they were started.
func (e *mpiEngine) progressIcolls(n *node, t uint64) error {
	r := &e.ranks[n.rank]
	var pending []*mpiReq
	for _, q := range r.icolls {
		k := q.icoll.coll
		if !k.done || t < k.doneAt {
			pending = append(pending, q)
			continue
		}
		if leave := collSpecs[q.icoll.num].leave; leave != nil {
			if err := leave(n, q.icoll, k); err != nil {
				return err
			}
		}
		q.done = true
		q.st = emptyStatus
		if q.fileBytes != nil {
			q.st.count = *q.fileBytes
		}
		if q.freed {
			q.held.release()
		}
	}
	r.icolls = pending
	return nil
}
