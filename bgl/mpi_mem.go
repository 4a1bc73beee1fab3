package bgl

import "fmt"

// Memory the MPI engine holds for a rank. On the real machine the MPI library's requests
// and its buffered (eager) messages live in the node's memory; here they live in the
// host's, so they count against the node's memory (JobConfig.MemoryMB) and the job's host
// pool like brk and mmap do, through the same Proc.committed: a program that posts
// requests nobody completes or sends messages nobody receives runs out of its node's
// memory (MPI_ERR_NO_MEM) instead of growing the host without bound.
const (
	// mpiReqBytes is what a live request costs its rank, from MPI_Isend or MPI_Irecv
	// until MPI_Wait or MPI_Test frees it: about what the engine keeps for one.
	mpiReqBytes = 256
	// mpiMsgHeaderBytes is what an unreceived message costs its sender beyond its payload,
	// from the send until a receive takes it.
	mpiMsgHeaderBytes = 64
)

// mpiCharge is memory held on one process's account; the zero value holds nothing.
type mpiCharge struct {
	p     *Proc
	bytes uint64
}

// release gives the memory back (once).
func (c *mpiCharge) release() {
	if c.p == nil {
		return
	}
	c.p.reserve(-int64(c.bytes))
	c.p.mpiHeld -= c.bytes
	*c = mpiCharge{}
}

// holdMPI charges bytes to p for the MPI engine, or fails with MPI_ERR_NO_MEM naming what
// the memory was for (e.g. "a message of 16384 bytes to rank 0") and the figures.
func holdMPI(p *Proc, bytes uint64, what string) (mpiCharge, error) {
	if bound := p.reserve(int64(bytes)); bound != "" {
		return mpiCharge{}, mpiErrorf(mpiErrNoMem,
			"out of memory for %s: %d more bytes exceed %s (%d KiB held by MPI for this rank, %d KiB committed of %d MiB)",
			what, bytes, bound, p.mpiHeld>>10, p.committed()>>10, p.memLimitBytes()>>20)
	}
	p.mpiHeld += bytes
	return mpiCharge{p: p, bytes: bytes}, nil
}

// msgWhat and recvWhat describe what a charge is for, in the words of the error line.
func msgWhat(bytes uint32, comm *mpiComm, peer int) string {
	if peer == mpiProcNull {
		return "a send to MPI_PROC_NULL"
	}
	r, _ := comm.remote().rankOf(peer)
	return fmt.Sprintf("a message of %d bytes to %s", bytes, rankDesc(comm.remote(), r))
}

func recvWhat(comm *mpiComm, src int) string {
	switch src {
	case mpiAnySource:
		return "a receive request from any rank"
	case mpiProcNull:
		return "a receive request from MPI_PROC_NULL"
	}
	r, _ := comm.remote().rankOf(src)
	return "a receive request from " + rankDesc(comm.remote(), r)
}
