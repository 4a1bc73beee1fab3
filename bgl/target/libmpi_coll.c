/* libmpi_coll.c: the collectives, one hypercall each (the engine meets the k-th call of
 * every rank of the communicator); derived types are packed before and unpacked after,
 * user operations run here (libmpi_types.c). Included by libmpi.c. */

#include "libmpi_dtcoll.c"
#include "libmpi_collmore.c"

/* DERIVED2 is whether either of a call's two datatypes is derived (then it is packed). */
#define DERIVED2(a, b) (is_derived(a) || is_derived(b))

MPI_FN int MPI_Barrier(MPI_Comm comm)
{
	unsigned long b[] = {W(comm)};

	if (IS_INTER(comm))
		return ic_barrier(comm);
	return dpcl_mpi_barrier((long)b);
}

MPI_FN int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(root), W(comm)};
	char *packed;
	int bytes, rank, rc;

	if (IS_INTER(comm))
		return ic_bcast(buf, count, type, root, comm);
	if (!is_derived(type))
		return dpcl_mpi_bcast((long)b);
	packed = dt_pack("MPI_Bcast", buf, count, type, &bytes);
	b[0] = W(packed);
	b[1] = W(bytes);
	b[2] = W(MPI_BYTE);
	rc = dpcl_mpi_bcast((long)b);
	MPI_Comm_rank(comm, &rank);
	if (rank != root)
		dt_unpack(packed, bytes, buf, count, type);
	free(packed);
	return rc;
}

MPI_FN int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(root), W(comm)};
	int rank, rc;
	char *tmp;

	if (IS_INTER(comm))
		return ic_reduce(sendbuf, recvbuf, count, type, op, root, comm);
	if (!is_user_op(op) && is_derived(type))
		return dtc_no_op("MPI_Reduce", op, type);
	if (!is_user_op(op))
		return dpcl_mpi_reduce((long)b);
	MPI_Comm_rank(comm, &rank);
	if (rank == root)
		return user_reduce("MPI_Reduce", sendbuf, recvbuf, count, type, op, comm, 0, 0);
	/* Other ranks' receive buffers are not significant: fold into a scratch one. */
	tmp = malloc(count * dt_extent(type) + 1);
	rc = user_reduce("MPI_Reduce", sendbuf, tmp, count, type, op, comm, 0, 0);
	free(tmp);
	return rc;
}

MPI_FN int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm)};

	if (IS_INTER(comm))
		return ic_allreduce(sendbuf, recvbuf, count, type, op, comm);
	if (is_user_op(op))
		return user_reduce("MPI_Allreduce", sendbuf, recvbuf, count, type, op, comm, 0, 0);
	if (is_derived(type))
		return dtc_no_op("MPI_Allreduce", op, type);
	return dpcl_mpi_allreduce((long)b);
}

MPI_FN int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm)};

	if (IS_INTER(comm))
		return ic_gatherv("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, NULL, NULL, recvcount, recvtype, root, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_gather("MPI_Gather", b, 0);
	return dpcl_mpi_gather((long)b);
}

MPI_FN int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(root), W(comm)};

	if (IS_INTER(comm))
		return ic_gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, 0, recvtype, root, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_gatherv("MPI_Gatherv", b, 0);
	return dpcl_mpi_gatherv((long)b);
}

MPI_FN int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm)};

	if (IS_INTER(comm))
		return ic_allgatherv("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_gather("MPI_Allgather", b, 1);
	return dpcl_mpi_allgather((long)b);
}

MPI_FN int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm)};

	if (IS_INTER(comm))
		return ic_scatterv("MPI_Scatter", sendbuf, NULL, NULL, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_scatter("MPI_Scatter", b);
	return dpcl_mpi_scatter((long)b);
}

MPI_FN int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
	MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(displs), W(sendtype), W(recvbuf),
		W(recvcount), W(recvtype), W(root), W(comm)};

	if (IS_INTER(comm))
		return ic_scatterv("MPI_Scatterv", sendbuf, sendcounts, displs, 0, sendtype, recvbuf, recvcount, recvtype, root, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_scatterv("MPI_Scatterv", b);
	return dpcl_mpi_scatterv((long)b);
}

MPI_FN int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(comm)};

	if (IS_INTER(comm))
		return ic_allgatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_gatherv("MPI_Allgatherv", b, 1);
	return dpcl_mpi_allgatherv((long)b);
}

MPI_FN int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm)};

	if (IS_INTER(comm))
		return ic_alltoallv("MPI_Alltoall", sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_alltoall("MPI_Alltoall", b);
	return dpcl_mpi_alltoall((long)b);
}

MPI_FN int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
	MPI_Datatype recvtype, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(sdispls), W(sendtype), W(recvbuf),
		W(recvcounts), W(rdispls), W(recvtype), W(comm)};

	if (IS_INTER(comm))
		return ic_alltoallv("MPI_Alltoallv", sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts, rdispls, recvtype, comm);
	if (DERIVED2(sendtype, recvtype))
		return dtc_alltoallv("MPI_Alltoallv", b);
	return dpcl_mpi_alltoallv((long)b);
}

MPI_FN int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(recvcounts), W(type), W(op), W(comm)};

	if (IS_INTER(comm))
		return ic_reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, type, op, comm);
	if (!is_user_op(op) && is_derived(type))
		return dtc_no_op("MPI_Reduce_scatter", op, type);
	if (is_user_op(op))
		return user_reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, type, op, comm);
	return dpcl_mpi_reduce_scatter((long)b);
}

MPI_FN int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm)};

	if (is_user_op(op))
		return user_reduce("MPI_Scan", sendbuf, recvbuf, count, type, op, comm, 1, 0);
	if (is_derived(type))
		return dtc_no_op("MPI_Scan", op, type);
	return dpcl_mpi_scan((long)b);
}

MPI_FN int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm)};

	if (is_user_op(op))
		return user_reduce("MPI_Exscan", sendbuf, recvbuf, count, type, op, comm, 1, 1);
	if (is_derived(type))
		return dtc_no_op("MPI_Exscan", op, type);
	return dpcl_mpi_exscan((long)b);
}

MPI_FN int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(recvcount), W(type), W(op), W(comm)};

	if (IS_INTER(comm))
		return ic_reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
	if (!is_user_op(op) && is_derived(type))
		return dtc_no_op("MPI_Reduce_scatter_block", op, type);
	if (is_user_op(op))
		return user_reduce_scatter_block("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, type, op, comm);
	return dpcl_mpi_reduce_scatter_block((long)b);
}

/* alltoallw_derived is whether any of the n per-peer types is derived. */
static int alltoallw_derived(const MPI_Datatype types[], int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (is_derived(types[i]))
			return 1;
	return 0;
}

/* alltoallw_types refuses derived types in MPI_Ialltoallw, whose engine request moves
 * the blocks as they lie; n is the communicator's size. */
static void alltoallw_types(const char *call, const MPI_Datatype types[], int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (is_derived(types[i]))
			lib_error(call, MPI_ERR_TYPE, "types[%d] = %d is derived: per-peer types must be predefined", i, types[i]);
}

MPI_FN int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcounts), W(sdispls), W(sendtypes), W(recvbuf),
		W(recvcounts), W(rdispls), W(recvtypes), W(comm)};
	int n = dtc_size(comm);

	if (IS_INTER(comm))
		return ic_alltoallw_typed(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
	if ((sendbuf != MPI_IN_PLACE && alltoallw_derived(sendtypes, n)) || alltoallw_derived(recvtypes, n))
		return alltoallw_packed(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
	return dpcl_mpi_alltoallw((long)b);
}
