package bgl

import "github.com/dpclsh/dpclsh/bgl/abi"

// MPI-IO's engine half. libmpi (target/libmpi_io.c) reads and writes a file itself, with
// the POSIX calls the CNK ships to the job's I/O node, so a rank's file I/O pays the
// CIOD's costs; the engine keeps what no rank can keep alone:
//
//   - a file's shared file pointer (HcMPIFilePointer), keyed by the file's handle, which
//     is the handle of the private communicator the file was opened on and so names one
//     file job-wide. Ranks reach it in virtual-time order, so who gets which part of the
//     file in MPI_File_write_shared depends only on the program. Each access costs one
//     CIOD call, as a pointer kept beside the file on the I/O node would.
//   - requests for nonblocking I/O (HcMPIFileRequest). libmpi does the I/O at the call;
//     an independent call's request is complete, a collective one's (MPI_File_iread_all
//     and the others) is an MPI_Ibarrier on the file's communicator that also reports
//     the bytes moved, so it completes in a Wait or Test once every member has made its
//     call, never at the call.

func init() {
	mpiOps[abi.HcMPIFilePointer] = mpiOpSpec{"MPI_File_shared_pointer", startFilePointer, nil}
	mpiOps[abi.HcMPIFileRequest] = mpiOpSpec{"MPI_File_request", startFileRequest, nil}
	// A file's errors go to its handler: its handle is a communicator's.
	mpiCommWord[abi.HcMPIFilePointer] = 0
	mpiCommWord[abi.HcMPIFileRequest] = 0
}

// startFilePointer {file, op, value high, value low, result} applies op to the file's
// shared pointer and writes the pointer's value before it.
func startFilePointer(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	comm, _, err := e.comm(n, c.w[0])
	if err != nil {
		return false, err
	}
	if comm.peer != nil {
		return false, mpiErrorf(mpiErrComm, "file on %s: files are not opened on intercommunicators", commName(comm))
	}
	if e.filePtrs == nil {
		e.filePtrs = map[uint32]int64{}
	}
	old := e.filePtrs[comm.id]
	value := int64(uint64(c.w[2])<<32 | uint64(c.w[3]))
	switch c.w[1] {
	case abi.FilePtrFetchAdd:
		if old+value < 0 {
			return false, mpiErrorf(mpiErrArg, "shared file pointer %d moved by %d: before the start of the view", old, value)
		}
		e.filePtrs[comm.id] = old + value
	case abi.FilePtrSet:
		if value < 0 {
			return false, mpiErrorf(mpiErrArg, "shared file pointer set to %d: before the start of the view", value)
		}
		e.filePtrs[comm.id] = value
	case abi.FilePtrFree:
		delete(e.filePtrs, comm.id)
	default:
		return false, mpiErrorf(mpiErrArg, "shared file pointer operation %d is not one of abi.FilePtr*", c.w[1])
	}
	c.extraNS = ciodCallNS
	if c.w[4] == 0 {
		return true, nil
	}
	return true, writeWords(n, c.w[4], uint32(uint64(old)>>32), uint32(old))
}

// startFileRequest {file, bytes, request} returns the request of nonblocking I/O libmpi
// has done: complete for an independent call (file MPI_FILE_NULL), else entering an
// Ibarrier on the file's communicator.
func startFileRequest(e *mpiEngine, j *Job, n *node, c *mpiCall, now uint64) (bool, error) {
	st := emptyStatus
	st.count = c.w[1]
	if c.w[0] == mpiCommNull {
		q, err := e.newReq(n, &mpiReq{done: true, st: st}, "MPI_File_iread/iwrite")
		if err != nil {
			return false, err
		}
		return true, writeWords(n, c.w[2], q.id)
	}
	inner := &mpiCall{num: abi.HcMPIBarrier, addr: c.addr, w: c.w[:1], started: true}
	if _, err := startColl(e, j, n, inner, now); err != nil {
		return false, err
	}
	q, err := e.newReq(n, &mpiReq{icoll: inner, fileBytes: &st.count}, "MPI_File_iread_all/iwrite_all")
	if err != nil {
		return false, err
	}
	r := &e.ranks[n.rank]
	r.icolls = append(r.icolls, q)
	return true, writeWords(n, c.w[2], q.id)
}
