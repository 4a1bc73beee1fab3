/* libmpi.c: MPI for the simulated Blue Gene/L, over the MPI hypercalls of dpcl_bgl.h.
 *
 * The simulated machine's MPI engine (package bgl) does the work: matching, collectives
 * over the tree network, virtual-time costs, deadlock detection. Each MPI function here
 * packs its arguments into a block of 32-bit words, in the C order of its parameters, and
 * passes the block's address to one hypercall; the engine reads the block, writes the
 * results (buffers, status, request handles, flags) into this process's memory and
 * returns MPI_SUCCESS. Errors are fatal in the engine (MPI_ERRORS_ARE_FATAL), so no
 * function here sees a failure.
 *
 * Every MPI function is a real, separately emitted function (MPI_FN), so a tool can put
 * probes on its entry and its exits. */
#include "mpi.h"
#include "dpcl_bgl.h"

#define MPI_FN __attribute__((noinline, used))

/* W turns a pointer or handle into a block word. */
#define W(x) ((unsigned long)(x))

static int mpi_initialized;

MPI_FN int MPI_Init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	mpi_initialized = 1;
	return dpcl_mpi_init();
}

MPI_FN int MPI_Finalize(void)
{
	return dpcl_mpi_finalize();
}

MPI_FN int MPI_Initialized(int *flag)
{
	*flag = mpi_initialized;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	(void)comm;
	*rank = dpcl_rank();
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_size(MPI_Comm comm, int *size)
{
	(void)comm;
	*size = dpcl_size();
	return MPI_SUCCESS;
}

MPI_FN double MPI_Wtime(void)
{
	return (double)dpcl_mpi_wtime() * 1e-9;
}

MPI_FN int MPI_Abort(MPI_Comm comm, int errorcode)
{
	unsigned long b[] = {W(comm), W(errorcode)};

	return dpcl_mpi_abort((long)b);
}

MPI_FN int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm)};

	return dpcl_mpi_send((long)b);
}

MPI_FN int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Status *status)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(source), W(tag), W(comm), W(status)};

	return dpcl_mpi_recv((long)b);
}

MPI_FN int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm), W(request)};

	return dpcl_mpi_isend((long)b);
}

MPI_FN int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(source), W(tag), W(comm), W(request)};

	return dpcl_mpi_irecv((long)b);
}

MPI_FN int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	unsigned long b[] = {W(request), W(status)};

	return dpcl_mpi_wait((long)b);
}

MPI_FN int MPI_Waitall(int count, MPI_Request *requests, MPI_Status *statuses)
{
	unsigned long b[] = {W(count), W(requests), W(statuses)};

	return dpcl_mpi_waitall((long)b);
}

MPI_FN int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	unsigned long b[] = {W(request), W(flag), W(status)};

	return dpcl_mpi_test((long)b);
}

/* MPI_Sendrecv: sends are buffered, so a send followed by a receive cannot deadlock. */
MPI_FN int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Status *status)
{
	unsigned long s[] = {W(sendbuf), W(sendcount), W(sendtype), W(dest), W(sendtag), W(comm)};
	unsigned long r[] = {W(recvbuf), W(recvcount), W(recvtype), W(source), W(recvtag), W(comm), W(status)};

	dpcl_mpi_send((long)s);
	return dpcl_mpi_recv((long)r);
}

MPI_FN int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	unsigned long b[] = {W(source), W(tag), W(comm), W(status)};

	return dpcl_mpi_probe((long)b);
}

MPI_FN int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
	int size = MPI__TYPE_SIZE(type);

	if (size == 0)
		return MPI_ERR_TYPE;
	*count = status->count % size == 0 ? status->count / size : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Barrier(MPI_Comm comm)
{
	unsigned long b[] = {W(comm)};

	return dpcl_mpi_barrier((long)b);
}

MPI_FN int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(root), W(comm)};

	return dpcl_mpi_bcast((long)b);
}

MPI_FN int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(root), W(comm)};

	return dpcl_mpi_reduce((long)b);
}

MPI_FN int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(recvbuf), W(count), W(type), W(op), W(comm)};

	return dpcl_mpi_allreduce((long)b);
}

MPI_FN int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm)};

	return dpcl_mpi_gather((long)b);
}

MPI_FN int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcounts),
		W(displs), W(recvtype), W(root), W(comm)};

	return dpcl_mpi_gatherv((long)b);
}

MPI_FN int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(comm)};

	return dpcl_mpi_allgather((long)b);
}

MPI_FN int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	unsigned long b[] = {W(sendbuf), W(sendcount), W(sendtype), W(recvbuf), W(recvcount),
		W(recvtype), W(root), W(comm)};

	return dpcl_mpi_scatter((long)b);
}
