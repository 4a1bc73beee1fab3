package abi

// The MPI engine's hypercalls, in the reserved range [MPIFirst, MPILast]. Every call but
// the three that take nothing passes the address of an argument block in r3: consecutive
// 32-bit words holding the MPI function's arguments in their C order (pointers as
// addresses, handles as their int values). The result in r3 is MPI_SUCCESS; errors never
// come back, because the engine treats them as MPI_ERRORS_ARE_FATAL does and ends the job.
// Where the MPI function writes results (status, request, flag, receive buffers), the
// engine writes them into the caller's memory before the call returns.
const (
	HcMPIInit          Sysno = 0x7100 // no block
	HcMPIFinalize      Sysno = 0x7101 // no block
	HcMPIAbort         Sysno = 0x7102 // {comm, errorcode}
	HcMPIWtime         Sysno = 0x7103 // no block; r3:r4 = virtual time in ns
	HcMPICommInfo      Sysno = 0x7104 // {comm, rank, size}
	HcMPISend          Sysno = 0x7110 // {buf, count, type, dest, tag, comm}
	HcMPIRecv          Sysno = 0x7111 // {buf, count, type, source, tag, comm, status}
	HcMPIIsend         Sysno = 0x7112 // {buf, count, type, dest, tag, comm, request}
	HcMPIIrecv         Sysno = 0x7113 // {buf, count, type, source, tag, comm, request}
	HcMPIWait          Sysno = 0x7114 // {request, status}
	HcMPIWaitall       Sysno = 0x7115 // {count, requests, statuses}
	HcMPITest          Sysno = 0x7116 // {request, flag, status}
	HcMPIProbe         Sysno = 0x7117 // {source, tag, comm, status}
	HcMPIIprobe        Sysno = 0x7118 // {source, tag, comm, flag, status}
	HcMPITestall       Sysno = 0x7119 // {count, requests, flag, statuses}
	HcMPITestany       Sysno = 0x711a // {count, requests, index, flag, status}
	HcMPIWaitany       Sysno = 0x711b // {count, requests, index, status}
	HcMPIWaitsome      Sysno = 0x711c // {incount, requests, outcount, indices, statuses}
	HcMPITestsome      Sysno = 0x711d // {incount, requests, outcount, indices, statuses}
	HcMPIRequestFree   Sysno = 0x711e // {request}
	HcMPIBarrier       Sysno = 0x7120 // {comm}
	HcMPIBcast         Sysno = 0x7121 // {buf, count, type, root, comm}
	HcMPIReduce        Sysno = 0x7122 // {sendbuf, recvbuf, count, type, op, root, comm}
	HcMPIAllreduce     Sysno = 0x7123 // {sendbuf, recvbuf, count, type, op, comm}
	HcMPIGather        Sysno = 0x7124 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm}
	HcMPIGatherv       Sysno = 0x7125 // {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm}
	HcMPIAllgather     Sysno = 0x7126 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm}
	HcMPIScatter       Sysno = 0x7127 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm}
	HcMPIAlltoall      Sysno = 0x7128 // {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm}
	HcMPIAlltoallv     Sysno = 0x7129 // {sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm}
	HcMPIAllgatherv    Sysno = 0x712a // {sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm}
	HcMPIScatterv      Sysno = 0x712b // {sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm}
	HcMPIReduceScatter Sysno = 0x712c // {sendbuf, recvbuf, recvcounts, type, op, comm}
	HcMPIScan          Sysno = 0x712d // {sendbuf, recvbuf, count, type, op, comm}
	HcMPIExscan        Sysno = 0x712e // {sendbuf, recvbuf, count, type, op, comm}
	HcMPICommSplit     Sysno = 0x7130 // {comm, color, key, newcomm}
	HcMPICommDup       Sysno = 0x7131 // {comm, newcomm}
	HcMPICommCreate    Sysno = 0x7132 // {comm, n, members (world ranks), newcomm}
	HcMPICommFree      Sysno = 0x7133 // {comm pointer}
	HcMPICommGroup     Sysno = 0x7134 // {comm, members out (world ranks)}
	HcMPICommCompare   Sysno = 0x7135 // {comm1, comm2, result}
)

// MPIBlockWords gives the length, in 32-bit words, of each MPI hypercall's argument block
// (0: the call takes none).
var MPIBlockWords = map[Sysno]int{
	HcMPIInit: 0, HcMPIFinalize: 0, HcMPIAbort: 2, HcMPIWtime: 0,
	HcMPISend: 6, HcMPIRecv: 7, HcMPIIsend: 7, HcMPIIrecv: 7,
	HcMPIWait: 2, HcMPIWaitall: 3, HcMPITest: 3, HcMPIProbe: 4,
	HcMPIBarrier: 1, HcMPIBcast: 5, HcMPIReduce: 7, HcMPIAllreduce: 6,
	HcMPIGather: 8, HcMPIGatherv: 9, HcMPIAllgather: 7, HcMPIScatter: 8,
	HcMPICommInfo: 3, HcMPIIprobe: 5, HcMPITestall: 4, HcMPITestany: 5, HcMPIWaitany: 4,
	HcMPIWaitsome: 5, HcMPITestsome: 5, HcMPIAlltoall: 7, HcMPIAlltoallv: 9, HcMPIAllgatherv: 8,
	HcMPIScatterv: 9, HcMPIReduceScatter: 6, HcMPIScan: 6, HcMPIExscan: 6, HcMPICommSplit: 4,
	HcMPICommDup: 2, HcMPICommCreate: 4, HcMPICommFree: 1, HcMPICommGroup: 2, HcMPICommCompare: 3,
	HcMPIRequestFree: 1,
}

var mpiHypercalls = []Hypercall{
	{HcMPIInit, "dpcl_mpi_init", 0, "int", "MPI_Init: join the job's MPI engine"},
	{HcMPIFinalize, "dpcl_mpi_finalize", 0, "int", "MPI_Finalize: a barrier of every rank"},
	{HcMPIAbort, "dpcl_mpi_abort", 1, "int", "MPI_Abort: end every rank; the job's status is errorcode"},
	{HcMPIWtime, "dpcl_mpi_wtime", 0, "unsigned long long", "virtual time in ns (MPI_Wtime)"},
	{HcMPICommInfo, "dpcl_mpi_comm_info", 1, "int", "MPI_Comm_rank and MPI_Comm_size of a communicator"},
	{HcMPISend, "dpcl_mpi_send", 1, "int", "MPI_Send (buffered: returns once the data is copied)"},
	{HcMPIRecv, "dpcl_mpi_recv", 1, "int", "MPI_Recv"},
	{HcMPIIsend, "dpcl_mpi_isend", 1, "int", "MPI_Isend"},
	{HcMPIIrecv, "dpcl_mpi_irecv", 1, "int", "MPI_Irecv"},
	{HcMPIWait, "dpcl_mpi_wait", 1, "int", "MPI_Wait"},
	{HcMPIWaitall, "dpcl_mpi_waitall", 1, "int", "MPI_Waitall"},
	{HcMPITest, "dpcl_mpi_test", 1, "int", "MPI_Test"},
	{HcMPIProbe, "dpcl_mpi_probe", 1, "int", "MPI_Probe"},
	{HcMPIIprobe, "dpcl_mpi_iprobe", 1, "int", "MPI_Iprobe"},
	{HcMPITestall, "dpcl_mpi_testall", 1, "int", "MPI_Testall"},
	{HcMPITestany, "dpcl_mpi_testany", 1, "int", "MPI_Testany"},
	{HcMPIWaitany, "dpcl_mpi_waitany", 1, "int", "MPI_Waitany"},
	{HcMPIWaitsome, "dpcl_mpi_waitsome", 1, "int", "MPI_Waitsome"},
	{HcMPITestsome, "dpcl_mpi_testsome", 1, "int", "MPI_Testsome"},
	{HcMPIRequestFree, "dpcl_mpi_request_free", 1, "int", "MPI_Request_free of a nonpersistent request (freed when it completes)"},
	{HcMPIBarrier, "dpcl_mpi_barrier", 1, "int", "MPI_Barrier"},
	{HcMPIBcast, "dpcl_mpi_bcast", 1, "int", "MPI_Bcast"},
	{HcMPIReduce, "dpcl_mpi_reduce", 1, "int", "MPI_Reduce"},
	{HcMPIAllreduce, "dpcl_mpi_allreduce", 1, "int", "MPI_Allreduce"},
	{HcMPIGather, "dpcl_mpi_gather", 1, "int", "MPI_Gather"},
	{HcMPIGatherv, "dpcl_mpi_gatherv", 1, "int", "MPI_Gatherv"},
	{HcMPIAllgather, "dpcl_mpi_allgather", 1, "int", "MPI_Allgather"},
	{HcMPIScatter, "dpcl_mpi_scatter", 1, "int", "MPI_Scatter"},
	{HcMPIAlltoall, "dpcl_mpi_alltoall", 1, "int", "MPI_Alltoall"},
	{HcMPIAlltoallv, "dpcl_mpi_alltoallv", 1, "int", "MPI_Alltoallv"},
	{HcMPIAllgatherv, "dpcl_mpi_allgatherv", 1, "int", "MPI_Allgatherv"},
	{HcMPIScatterv, "dpcl_mpi_scatterv", 1, "int", "MPI_Scatterv"},
	{HcMPIReduceScatter, "dpcl_mpi_reduce_scatter", 1, "int", "MPI_Reduce_scatter"},
	{HcMPIScan, "dpcl_mpi_scan", 1, "int", "MPI_Scan"},
	{HcMPIExscan, "dpcl_mpi_exscan", 1, "int", "MPI_Exscan"},
	{HcMPICommSplit, "dpcl_mpi_comm_split", 1, "int", "MPI_Comm_split (collective)"},
	{HcMPICommDup, "dpcl_mpi_comm_dup", 1, "int", "MPI_Comm_dup (collective)"},
	{HcMPICommCreate, "dpcl_mpi_comm_create", 1, "int", "MPI_Comm_create (collective; the group as world ranks)"},
	{HcMPICommFree, "dpcl_mpi_comm_free", 1, "int", "MPI_Comm_free"},
	{HcMPICommGroup, "dpcl_mpi_comm_group", 1, "int", "the world ranks of a communicator's members (MPI_Comm_group)"},
	{HcMPICommCompare, "dpcl_mpi_comm_compare", 1, "int", "MPI_Comm_compare"},
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
