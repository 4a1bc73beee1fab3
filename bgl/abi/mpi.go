package abi

// The MPI engine's hypercalls, in the reserved range [MPIFirst, MPILast]. Every call but
// the three that take nothing passes the address of an argument block in r3: consecutive
// 32-bit words holding the MPI function's arguments in their C order (pointers as
// addresses, handles as their int values). The result in r3 is MPI_SUCCESS; errors never
// come back, because the engine treats them as MPI_ERRORS_ARE_FATAL does and ends the job.
// Where the MPI function writes results (status, request, flag, receive buffers), the
// engine writes them into the caller's memory before the call returns.
const (
	HcMPIInit      Sysno = 0x7100 // no block
	HcMPIFinalize  Sysno = 0x7101 // no block
	HcMPIAbort     Sysno = 0x7102 // {comm, errorcode}
	HcMPIWtime     Sysno = 0x7103 // no block; r3:r4 = virtual time in ns
	HcMPISend      Sysno = 0x7110 // {buf, count, type, dest, tag, comm}
	HcMPIRecv      Sysno = 0x7111 // {buf, count, type, source, tag, comm, status}
	HcMPIIsend     Sysno = 0x7112 // {buf, count, type, dest, tag, comm, request}
	HcMPIIrecv     Sysno = 0x7113 // {buf, count, type, source, tag, comm, request}
	HcMPIWait      Sysno = 0x7114 // {request, status}
	HcMPIWaitall   Sysno = 0x7115 // {count, requests, statuses}
	HcMPITest      Sysno = 0x7116 // {request, flag, status}
	HcMPIProbe     Sysno = 0x7117 // {source, tag, comm, status}
	HcMPIBarrier   Sysno = 0x7120 // {comm}
	HcMPIBcast     Sysno = 0x7121 // {buf, count, type, root, comm}
	HcMPIReduce    Sysno = 0x7122 // {sendbuf, recvbuf, count, type, op, root, comm}
	HcMPIAllreduce Sysno = 0x7123 // {sendbuf, recvbuf, count, type, op, comm}
	HcMPIGather    Sysno = 0x7124 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm}
	HcMPIGatherv   Sysno = 0x7125 // {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm}
	HcMPIAllgather Sysno = 0x7126 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm}
	HcMPIScatter   Sysno = 0x7127 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm}
)

// MPIBlockWords gives the length, in 32-bit words, of each MPI hypercall's argument block
// (0: the call takes none).
var MPIBlockWords = map[Sysno]int{
	HcMPIInit: 0, HcMPIFinalize: 0, HcMPIAbort: 2, HcMPIWtime: 0,
	HcMPISend: 6, HcMPIRecv: 7, HcMPIIsend: 7, HcMPIIrecv: 7,
	HcMPIWait: 2, HcMPIWaitall: 3, HcMPITest: 3, HcMPIProbe: 4,
	HcMPIBarrier: 1, HcMPIBcast: 5, HcMPIReduce: 7, HcMPIAllreduce: 6,
	HcMPIGather: 8, HcMPIGatherv: 9, HcMPIAllgather: 7, HcMPIScatter: 8,
}

var mpiHypercalls = []Hypercall{
	{HcMPIInit, "dpcl_mpi_init", 0, "int", "MPI_Init: join the job's MPI engine"},
	{HcMPIFinalize, "dpcl_mpi_finalize", 0, "int", "MPI_Finalize: a barrier of every rank"},
	{HcMPIAbort, "dpcl_mpi_abort", 1, "int", "MPI_Abort: end every rank; the job's status is errorcode"},
	{HcMPIWtime, "dpcl_mpi_wtime", 0, "unsigned long long", "virtual time in ns (MPI_Wtime)"},
	{HcMPISend, "dpcl_mpi_send", 1, "int", "MPI_Send (buffered: returns once the data is copied)"},
	{HcMPIRecv, "dpcl_mpi_recv", 1, "int", "MPI_Recv"},
	{HcMPIIsend, "dpcl_mpi_isend", 1, "int", "MPI_Isend"},
	{HcMPIIrecv, "dpcl_mpi_irecv", 1, "int", "MPI_Irecv"},
	{HcMPIWait, "dpcl_mpi_wait", 1, "int", "MPI_Wait"},
	{HcMPIWaitall, "dpcl_mpi_waitall", 1, "int", "MPI_Waitall"},
	{HcMPITest, "dpcl_mpi_test", 1, "int", "MPI_Test"},
	{HcMPIProbe, "dpcl_mpi_probe", 1, "int", "MPI_Probe"},
	{HcMPIBarrier, "dpcl_mpi_barrier", 1, "int", "MPI_Barrier"},
	{HcMPIBcast, "dpcl_mpi_bcast", 1, "int", "MPI_Bcast"},
	{HcMPIReduce, "dpcl_mpi_reduce", 1, "int", "MPI_Reduce"},
	{HcMPIAllreduce, "dpcl_mpi_allreduce", 1, "int", "MPI_Allreduce"},
	{HcMPIGather, "dpcl_mpi_gather", 1, "int", "MPI_Gather"},
	{HcMPIGatherv, "dpcl_mpi_gatherv", 1, "int", "MPI_Gatherv"},
	{HcMPIAllgather, "dpcl_mpi_allgather", 1, "int", "MPI_Allgather"},
	{HcMPIScatter, "dpcl_mpi_scatter", 1, "int", "MPI_Scatter"},
}

// init adds the MPI calls to the hypercall table and the C generator: they are listed
// after the tool's calls, so Hypercalls stays in number order. The block address is a
// long in C (callers pass (long)&block), as a register argument is.
func init() {
	for _, h := range mpiHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		if h.Args == 1 {
			cParams[h.Name] = "long args"
			cArgs[h.Name] = "args, 0"
		}
	}
}
