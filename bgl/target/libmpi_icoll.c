/* libmpi_icoll.c: the nonblocking collectives. Each is one hypercall with its blocking
 * form's argument block followed by the request; the engine enters the collective and
 * hands back a request that a Wait or Test completes (mpi_icoll.go). Included by
 * libmpi.c after the collectives.
 *
 * Derived datatypes and user operations are packed and folded by the library around the
 * blocking calls; a nonblocking call would have to do it at completion, so it refuses
 * them with MPI_ERR_TYPE and MPI_ERR_OP instead of computing at the call. */

static void icoll_types(const char *call, MPI_Datatype a, MPI_Datatype b)
{
	if (is_derived(a) || is_derived(b))
		lib_error(call, MPI_ERR_TYPE, "derived datatype %d: nonblocking collectives take predefined types",
			is_derived(a) ? a : b);
}

static void icoll_op(const char *call, MPI_Op op)
{
	if (is_user_op(op))
		lib_error(call, MPI_ERR_OP, "user operation %d: nonblocking reductions take predefined operations", op);
}

MPI_FN int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(comm), W(request)};

	return dpcl_mpi_ibarrier((long)b);
}

MPI_FN int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(root), W(comm), W(request)};

	icoll_types("MPI_Ibcast", type, type);
	return dpcl_mpi_ibcast((long)b);
}

MPI_FN int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	int root, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(root), W(comm), W(request)};

	icoll_types("MPI_Ireduce", type, type);
	icoll_op("MPI_Ireduce", op);
	return dpcl_mpi_ireduce((long)b);
}

MPI_FN int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm), W(request)};

	icoll_types("MPI_Iallreduce", type, type);
	icoll_op("MPI_Iallreduce", op);
	return dpcl_mpi_iallreduce((long)b);
}

MPI_FN int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm), W(request)};

	icoll_types("MPI_Igather", sendtype, recvtype);
	return dpcl_mpi_igather((long)b);
}

MPI_FN int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(root), W(comm), W(request)};

	icoll_types("MPI_Igatherv", sendtype, recvtype);
	return dpcl_mpi_igatherv((long)b);
}

MPI_FN int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm), W(request)};

	icoll_types("MPI_Iallgather", sendtype, recvtype);
	return dpcl_mpi_iallgather((long)b);
}

MPI_FN int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(comm), W(request)};

	icoll_types("MPI_Iallgatherv", sendtype, recvtype);
	return dpcl_mpi_iallgatherv((long)b);
}

MPI_FN int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm), W(request)};

	icoll_types("MPI_Iscatter", sendtype, recvtype);
	return dpcl_mpi_iscatter((long)b);
}

MPI_FN int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
	MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(displs), W(sendtype), W(recvbuf),
		W(recvcount), W(recvtype), W(root), W(comm), W(request)};

	icoll_types("MPI_Iscatterv", sendtype, recvtype);
	return dpcl_mpi_iscatterv((long)b);
}

MPI_FN int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm), W(request)};

	icoll_types("MPI_Ialltoall", sendtype, recvtype);
	return dpcl_mpi_ialltoall((long)b);
}

MPI_FN int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
	MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(sdispls), W(sendtype), W(recvbuf),
		W(recvcounts), W(rdispls), W(recvtype), W(comm), W(request)};

	icoll_types("MPI_Ialltoallv", sendtype, recvtype);
	return dpcl_mpi_ialltoallv((long)b);
}

MPI_FN int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm), W(request)};

	icoll_types("MPI_Iscan", type, type);
	icoll_op("MPI_Iscan", op);
	return dpcl_mpi_iscan((long)b);
}

MPI_FN int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm), W(request)};

	icoll_types("MPI_Iexscan", type, type);
	icoll_op("MPI_Iexscan", op);
	return dpcl_mpi_iexscan((long)b);
}

MPI_FN int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(recvcounts), W(type), W(op), W(comm), W(request)};

	icoll_types("MPI_Ireduce_scatter", type, type);
	icoll_op("MPI_Ireduce_scatter", op);
	return dpcl_mpi_ireduce_scatter((long)b);
}

MPI_FN int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(recvcount), W(type), W(op), W(comm), W(request)};

	icoll_types("MPI_Ireduce_scatter_block", type, type);
	icoll_op("MPI_Ireduce_scatter_block", op);
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
