package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// Error handlers. libmpi keeps each communicator's handler (MPI_ERRORS_ARE_FATAL,
// MPI_ERRORS_RETURN or a user function) and tells the engine, per rank and communicator
// handle, whether errors return; a failing call then returns its class to the program
// instead of ending the job. A call without a communicator (Wait, Test and the other
// request calls) or with an invalid one follows MPI_COMM_WORLD's handler, where MPICH
// puts errors that belong to no communicator.

// mpiCommWord is the index of the communicator in each call's argument block.
var mpiCommWord = map[abi.Sysno]int{
	abi.HcMPISend: 5, abi.HcMPIRecv: 5, abi.HcMPIIsend: 5, abi.HcMPIIrecv: 5,
	abi.HcMPIProbe: 2, abi.HcMPIIprobe: 2, abi.HcMPIBarrier: 0, abi.HcMPIBcast: 4,
	abi.HcMPIReduce: 6, abi.HcMPIAllreduce: 5, abi.HcMPIGather: 7, abi.HcMPIGatherv: 8,
	abi.HcMPIAllgather: 6, abi.HcMPIScatter: 7, abi.HcMPIAlltoall: 6, abi.HcMPIAlltoallv: 8,
	abi.HcMPIAllgatherv: 7, abi.HcMPIScatterv: 8, abi.HcMPIReduceScatter: 5, abi.HcMPIScan: 5,
	abi.HcMPIExscan: 5, abi.HcMPICommSplit: 0, abi.HcMPICommDup: 0, abi.HcMPICommCreate: 0,
	abi.HcMPICommGroup: 0, abi.HcMPICommCompare: 0, abi.HcMPICommInfo: 0,
	abi.HcMPICommErrhandler: 0,
}

func init() {
	mpiOps[abi.HcMPICommErrhandler] = mpiOpSpec{"MPI_Comm_set_errhandler", startCommErrhandler, nil}
}

// startCommErrhandler records whether errors on the communicator return.
func startCommErrhandler(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	if _, _, err := e.comm(n, c.w[0]); err != nil {
		return false, err
	}
	if c.w[1] > 1 {
		return false, mpiErrorf(mpiErrArg, "error mode %d is neither 0 (fatal) nor 1 (return)", c.w[1])
	}
	r := &e.ranks[n.rank]
	if r.errReturn == nil {
		r.errReturn = map[uint32]bool{}
	}
	if c.w[1] == 1 {
		r.errReturn[c.w[0]] = true
	} else {
		delete(r.errReturn, c.w[0])
	}
	return true, nil
}

// errorsReturn reports whether call c's failure returns to the program: its communicator
// (or MPI_COMM_WORLD for a call without one) has a handler that is not fatal. MPI_Abort
// and MPI_Finalize always end or go on as they do.
func (e *mpiEngine) errorsReturn(n *node, c *mpiCall) bool {
	r := &e.ranks[n.rank]
	if len(r.errReturn) == 0 || c.num == abi.HcMPIAbort {
		return false
	}
	comm := uint32(mpiCommWorld)
	if i, ok := mpiCommWord[c.num]; ok {
		if i >= len(c.w) {
			return r.errReturn[comm]
		}
		comm = c.w[i]
	}
	if _, _, err := e.comm(n, comm); err != nil {
		// An invalid communicator has no handler of its own: MPI_COMM_WORLD's answers,
		// as in MPICH.
		comm = mpiCommWorld
	}
	return r.errReturn[comm]
}
