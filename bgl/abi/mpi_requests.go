package abi

// Request calls beyond Wait and Test: cancelling a pending receive, reading a request's
// status without freeing it, and the nonblocking collectives, whose argument blocks are
// their blocking collective's followed by the request. Numbers 0x71a0 and up.
const (
	HcMPICancel           Sysno = 0x71a0 // {request}
	HcMPIRequestGetStatus Sysno = 0x71a1 // {request, flag, status}
	HcMPIIbarrier         Sysno = 0x71a2 // {comm, request}
	HcMPIIbcast           Sysno = 0x71a3 // MPI_Bcast's block, request
	HcMPIIreduce          Sysno = 0x71a4 // MPI_Reduce's block, request
	HcMPIIallreduce       Sysno = 0x71a5 // MPI_Allreduce's block, request
	HcMPIIgather          Sysno = 0x71a6 // MPI_Gather's block, request
	HcMPIIgatherv         Sysno = 0x71a7 // MPI_Gatherv's block, request
	HcMPIIallgather       Sysno = 0x71a8 // MPI_Allgather's block, request
	HcMPIIallgatherv      Sysno = 0x71a9 // MPI_Allgatherv's block, request
	HcMPIIscatter         Sysno = 0x71aa // MPI_Scatter's block, request
	HcMPIIscatterv        Sysno = 0x71ab // MPI_Scatterv's block, request
	HcMPIIalltoall        Sysno = 0x71ac // MPI_Alltoall's block, request
	HcMPIIalltoallv       Sysno = 0x71ad // MPI_Alltoallv's block, request
	HcMPIIscan            Sysno = 0x71ae // MPI_Scan's block, request
	HcMPIIexscan          Sysno = 0x71af // MPI_Exscan's block, request
	HcMPIIreduceScatter   Sysno = 0x71b0 // MPI_Reduce_scatter's block, request
	// MPI_Reduce_scatter_block {sendbuf, recvbuf, recvcount, type, op, comm}
	HcMPIReduceScatterBlock  Sysno = 0x71b1
	HcMPIIreduceScatterBlock Sysno = 0x71b2 // MPI_Reduce_scatter_block's block, request
	// MPI_Alltoallw {sendbuf, sendcounts, sdispls (bytes), sendtypes, recvbuf, recvcounts,
	// rdispls (bytes), recvtypes, comm}
	HcMPIAlltoallw  Sysno = 0x71b3
	HcMPIIalltoallw Sysno = 0x71b4 // MPI_Alltoallw's block, request
)

// MPIIcollBlocking maps each nonblocking collective to its blocking one.
var MPIIcollBlocking = map[Sysno]Sysno{
	HcMPIIbarrier: HcMPIBarrier, HcMPIIbcast: HcMPIBcast, HcMPIIreduce: HcMPIReduce,
	HcMPIIallreduce: HcMPIAllreduce, HcMPIIgather: HcMPIGather, HcMPIIgatherv: HcMPIGatherv,
	HcMPIIallgather: HcMPIAllgather, HcMPIIallgatherv: HcMPIAllgatherv, HcMPIIscatter: HcMPIScatter,
	HcMPIIscatterv: HcMPIScatterv, HcMPIIalltoall: HcMPIAlltoall, HcMPIIalltoallv: HcMPIAlltoallv,
	HcMPIIscan: HcMPIScan, HcMPIIexscan: HcMPIExscan, HcMPIIreduceScatter: HcMPIReduceScatter,
	HcMPIIreduceScatterBlock: HcMPIReduceScatterBlock, HcMPIIalltoallw: HcMPIAlltoallw,
}

var mpiRequestHypercalls = []Hypercall{
	{HcMPICancel, "dpcl_mpi_cancel", 1, "int", "MPI_Cancel: a receive not yet matched completes cancelled; a send, complete when made, is not cancelled"},
	{HcMPIRequestGetStatus, "dpcl_mpi_request_get_status", 1, "int", "MPI_Request_get_status: flag and status of a request, which stays allocated"},
	{HcMPIIbarrier, "dpcl_mpi_ibarrier", 1, "int", "MPI_Ibarrier"},
	{HcMPIIbcast, "dpcl_mpi_ibcast", 1, "int", "MPI_Ibcast"},
	{HcMPIIreduce, "dpcl_mpi_ireduce", 1, "int", "MPI_Ireduce"},
	{HcMPIIallreduce, "dpcl_mpi_iallreduce", 1, "int", "MPI_Iallreduce"},
	{HcMPIIgather, "dpcl_mpi_igather", 1, "int", "MPI_Igather"},
	{HcMPIIgatherv, "dpcl_mpi_igatherv", 1, "int", "MPI_Igatherv"},
	{HcMPIIallgather, "dpcl_mpi_iallgather", 1, "int", "MPI_Iallgather"},
	{HcMPIIallgatherv, "dpcl_mpi_iallgatherv", 1, "int", "MPI_Iallgatherv"},
	{HcMPIIscatter, "dpcl_mpi_iscatter", 1, "int", "MPI_Iscatter"},
	{HcMPIIscatterv, "dpcl_mpi_iscatterv", 1, "int", "MPI_Iscatterv"},
	{HcMPIIalltoall, "dpcl_mpi_ialltoall", 1, "int", "MPI_Ialltoall"},
	{HcMPIIalltoallv, "dpcl_mpi_ialltoallv", 1, "int", "MPI_Ialltoallv"},
	{HcMPIIscan, "dpcl_mpi_iscan", 1, "int", "MPI_Iscan"},
	{HcMPIIexscan, "dpcl_mpi_iexscan", 1, "int", "MPI_Iexscan"},
	{HcMPIIreduceScatter, "dpcl_mpi_ireduce_scatter", 1, "int", "MPI_Ireduce_scatter"},
	{HcMPIReduceScatterBlock, "dpcl_mpi_reduce_scatter_block", 1, "int", "MPI_Reduce_scatter_block"},
	{HcMPIIreduceScatterBlock, "dpcl_mpi_ireduce_scatter_block", 1, "int", "MPI_Ireduce_scatter_block"},
	{HcMPIAlltoallw, "dpcl_mpi_alltoallw", 1, "int", "MPI_Alltoallw"},
	{HcMPIIalltoallw, "dpcl_mpi_ialltoallw", 1, "int", "MPI_Ialltoallw"},
}

// init runs after mpi.go's (files initialize in name order), so the table stays in
// number order.
func init() {
	MPIBlockWords[HcMPICancel] = 1
	MPIBlockWords[HcMPIRequestGetStatus] = 3
	MPIBlockWords[HcMPIReduceScatterBlock] = 6
	MPIBlockWords[HcMPIAlltoallw] = 9
	for i, b := range MPIIcollBlocking {
		MPIBlockWords[i] = MPIBlockWords[b] + 1
	}
	for _, h := range mpiRequestHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
