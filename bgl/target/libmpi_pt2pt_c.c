/* libmpi_pt2pt_c.c: MPI 4's large-count point-to-point calls (MPI_Send_c and friends),
 * the int-count calls with an MPI_Count. Included by libmpi.c.
 *
 * A node's 32-bit address space holds fewer than 2^31 elements of any type that has data,
 * so a count above INT_MAX can never describe a real buffer: it is refused (MPI_ERR_COUNT
 * on the communicator's handler) rather than truncated. */

#include <limits.h>

/* count_fits checks a large count for call on comm: MPI_SUCCESS, or the error its
 * handler gives. */
static int count_fits(const char *call, MPI_Comm comm, MPI_Count count)
{
	char what[96];

	if (count >= 0 && count <= INT_MAX)
		return MPI_SUCCESS;
	snprintf(what, sizeof what, "count %lld does not fit a node's 32-bit address space", (long long)count);
	return lib_return(call, comm, MPI_ERR_COUNT, what);
}

/* LARGE forwards a large-count call to its int-count form once the count fits. */
#define LARGE(call, comm, count, expr)                                    \
	do {                                                                  \
		int rc_ = count_fits(call, comm, count);                          \
		return rc_ != MPI_SUCCESS ? rc_ : (expr);                         \
	} while (0)

MPI_FN int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	LARGE("MPI_Send_c", comm, count, MPI_Send(buf, (int)count, type, dest, tag, comm));
}

MPI_FN int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	LARGE("MPI_Ssend_c", comm, count, MPI_Ssend(buf, (int)count, type, dest, tag, comm));
}

MPI_FN int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	LARGE("MPI_Bsend_c", comm, count, MPI_Bsend(buf, (int)count, type, dest, tag, comm));
}

MPI_FN int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	LARGE("MPI_Rsend_c", comm, count, MPI_Rsend(buf, (int)count, type, dest, tag, comm));
}

MPI_FN int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Status *status)
{
	LARGE("MPI_Recv_c", comm, count, MPI_Recv(buf, (int)count, type, source, tag, comm, status));
}

MPI_FN int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	LARGE("MPI_Isend_c", comm, count, MPI_Isend(buf, (int)count, type, dest, tag, comm, request));
}

MPI_FN int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	LARGE("MPI_Issend_c", comm, count, MPI_Issend(buf, (int)count, type, dest, tag, comm, request));
}

MPI_FN int MPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	LARGE("MPI_Ibsend_c", comm, count, MPI_Ibsend(buf, (int)count, type, dest, tag, comm, request));
}

MPI_FN int MPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	LARGE("MPI_Irsend_c", comm, count, MPI_Irsend(buf, (int)count, type, dest, tag, comm, request));
}

MPI_FN int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	LARGE("MPI_Irecv_c", comm, count, MPI_Irecv(buf, (int)count, type, source, tag, comm, request));
}

MPI_FN int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request)
{
	LARGE("MPI_Send_init_c", comm, count, MPI_Send_init(buf, (int)count, type, dest, tag, comm, request));
}

MPI_FN int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	LARGE("MPI_Recv_init_c", comm, count, MPI_Recv_init(buf, (int)count, type, source, tag, comm, request));
}

MPI_FN int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Status *status)
{
	int rc = count_fits("MPI_Sendrecv_c", comm, sendcount);

	if (rc != MPI_SUCCESS)
		return rc;
	LARGE("MPI_Sendrecv_c", comm, recvcount,
		MPI_Sendrecv(sendbuf, (int)sendcount, sendtype, dest, sendtag, recvbuf, (int)recvcount, recvtype,
			source, recvtag, comm, status));
}

MPI_FN int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag,
	int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	LARGE("MPI_Sendrecv_replace_c", comm, count,
		MPI_Sendrecv_replace(buf, (int)count, type, dest, sendtag, source, recvtag, comm, status));
}

MPI_FN int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
	int n, rc = MPI_Get_count(status, type, &n);

	*count = n;
	return rc;
}
