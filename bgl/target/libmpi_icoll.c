/* libmpi_icoll.c: the nonblocking collectives. Each is one hypercall with its blocking
 * form's argument block followed by the request; the engine enters the collective and
 * hands back a request that a Wait or Test completes (mpi_icoll.go). Included by
 * libmpi.c after the collectives.
 *
 * A reduction with a user operation gathers the contributions and folds them when the
 * request completes (libmpi_iuop.c). A derived type that is one run of a predefined type
 * travels as that type (libmpi_iplain.c); other derived datatypes are refused with
 * MPI_ERR_TYPE: packing them would have to be undone at completion too. */

MPI_FN int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(comm), W(request)};

	return dpcl_mpi_ibarrier((long)b);
}

MPI_FN int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(root), W(comm), W(request)};

	iplain("MPI_Ibcast", b, 1, 2);
	return dpcl_mpi_ibcast((long)b);
}

MPI_FN int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	int root, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(root), W(comm), W(request)};

	if (is_user_op(op))
		return iuop_start("MPI_Ireduce", IUOP_REDUCE, sendbuf, recvbuf, count, NULL, type, op, root, comm, request);
	iplain("MPI_Ireduce", b, 2, 3);
	return dpcl_mpi_ireduce((long)b);
}

MPI_FN int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm), W(request)};

	if (is_user_op(op))
		return iuop_start("MPI_Iallreduce", IUOP_ALLREDUCE, sendbuf, recvbuf, count, NULL, type, op, 0, comm, request);
	iplain("MPI_Iallreduce", b, 2, 3);
	return dpcl_mpi_iallreduce((long)b);
}

MPI_FN int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm), W(request)};

	iplain("MPI_Igather", b, 1, 2);
	iplain("MPI_Igather", b, 4, 5);
	return dpcl_mpi_igather((long)b);
}

MPI_FN int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(root), W(comm), W(request)};

	iplain("MPI_Igatherv", b, 1, 2);
	iplain("MPI_Igatherv", b, -1, 6);
	return dpcl_mpi_igatherv((long)b);
}

MPI_FN int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm), W(request)};

	iplain("MPI_Iallgather", b, 1, 2);
	iplain("MPI_Iallgather", b, 4, 5);
	return dpcl_mpi_iallgather((long)b);
}

MPI_FN int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(comm), W(request)};

	iplain("MPI_Iallgatherv", b, 1, 2);
	iplain("MPI_Iallgatherv", b, -1, 6);
	return dpcl_mpi_iallgatherv((long)b);
}

MPI_FN int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm), W(request)};

	iplain("MPI_Iscatter", b, 1, 2);
	iplain("MPI_Iscatter", b, 4, 5);
	return dpcl_mpi_iscatter((long)b);
}

MPI_FN int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
	MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(displs), W(sendtype), W(recvbuf),
		W(recvcount), W(recvtype), W(root), W(comm), W(request)};

	iplain("MPI_Iscatterv", b, -1, 3);
	iplain("MPI_Iscatterv", b, 5, 6);
	return dpcl_mpi_iscatterv((long)b);
}

MPI_FN int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm), W(request)};

	iplain("MPI_Ialltoall", b, 1, 2);
	iplain("MPI_Ialltoall", b, 4, 5);
	return dpcl_mpi_ialltoall((long)b);
}

MPI_FN int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
	MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(sdispls), W(sendtype), W(recvbuf),
		W(recvcounts), W(rdispls), W(recvtype), W(comm), W(request)};

	iplain("MPI_Ialltoallv", b, -1, 3);
	iplain("MPI_Ialltoallv", b, -1, 7);
	return dpcl_mpi_ialltoallv((long)b);
}

MPI_FN int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm), W(request)};

	if (is_user_op(op))
		return iuop_start("MPI_Iscan", IUOP_SCAN, sendbuf, recvbuf, count, NULL, type, op, 0, comm, request);
	iplain("MPI_Iscan", b, 2, 3);
	return dpcl_mpi_iscan((long)b);
}

MPI_FN int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm), W(request)};

	if (is_user_op(op))
		return iuop_start("MPI_Iexscan", IUOP_EXSCAN, sendbuf, recvbuf, count, NULL, type, op, 0, comm, request);
	iplain("MPI_Iexscan", b, 2, 3);
	return dpcl_mpi_iexscan((long)b);
}

MPI_FN int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(recvcounts), W(type), W(op), W(comm), W(request)};

	if (is_user_op(op))
		return iuop_reduce_scatter("MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, type, op, comm, request);
	iplain("MPI_Ireduce_scatter", b, -1, 3);
	return dpcl_mpi_ireduce_scatter((long)b);
}

MPI_FN int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(recvcount), W(type), W(op), W(comm), W(request)};

	if (is_user_op(op))
		return iuop_reduce_scatter_block("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, type, op, comm, request);
	iplain("MPI_Ireduce_scatter_block", b, 2, 3);
	return dpcl_mpi_ireduce_scatter_block((long)b);
}

MPI_FN int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(sdispls), W(sendtypes), W(recvbuf),
		W(recvcounts), W(rdispls), W(recvtypes), W(comm), W(request)};
	int n = dtc_size(comm);

	if (sendbuf != MPI_IN_PLACE)
		alltoallw_types("MPI_Ialltoallw", sendtypes, n);
	alltoallw_types("MPI_Ialltoallw", recvtypes, n);
	return dpcl_mpi_ialltoallw((long)b);
}
