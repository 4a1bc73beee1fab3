/* libmpi_persist.c: persistent requests (MPI_Send_init and friends, MPI_Recv_init,
 * MPI_Start, MPI_Startall, MPI_Request_free), kept by the library. Included by libmpi.c.
 *
 * A persistent request is a handle from MPI__PERSIST naming a saved argument block; Start
 * issues the nonblocking send or receive the block describes (MPI_Ssend_init's the
 * synchronous MPI_Issend, the other send modes the eager MPI_Isend) and keeps the engine's request. The Wait and Test calls hand the engine the
 * started requests in place of the persistent handles (an inactive one as
 * MPI_REQUEST_NULL, which the standard treats alike) and leave the persistent handle in
 * the caller's array, inactive once its operation completed. */

#define MPI__PERSIST 0x7f000000

enum { MAX_PERSIST = 1024 };
static struct persist {
	int used, recv, sync; /* sync: MPI_Ssend_init's, started as MPI_Issend */
	const char *call;
	unsigned long b[6]; /* buf, count, type, peer, tag, comm */
	MPI_Request real;   /* the started request; MPI_REQUEST_NULL while inactive */
} persists[MAX_PERSIST];
static int persist_count;

static int is_persist(MPI_Request r)
{
	return r >= MPI__PERSIST && r < MPI__PERSIST + MAX_PERSIST && persists[r - MPI__PERSIST].used;
}

/* persist_real is what the engine sees for handle r. */
static MPI_Request persist_real(MPI_Request r)
{
	return is_persist(r) ? persists[r - MPI__PERSIST].real : r;
}

static int persist_init(const char *call, int recv, const void *buf, int count, MPI_Datatype type, int peer,
	int tag, MPI_Comm comm, MPI_Request *request)
{
	int i;

	for (i = 0; i < MAX_PERSIST; i++)
		if (!persists[i].used) {
			struct persist p = {1, recv, 0, call, {W(buf), W(count), W(type), W(peer), W(tag), W(comm)}, MPI_REQUEST_NULL};

			persists[i] = p;
			persist_count++;
			dt_ref(type); /* the program may free the type before the request */
			*request = MPI__PERSIST + i;
			return MPI_SUCCESS;
		}
	lib_error(call, MPI_ERR_OTHER, "more than %d persistent requests", MAX_PERSIST);
	return MPI_ERR_OTHER;
}

MPI_FN int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	return persist_init("MPI_Send_init", 0, buf, count, type, dest, tag, comm, request);
}

MPI_FN int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	int rc = persist_init("MPI_Ssend_init", 0, buf, count, type, dest, tag, comm, request);

	if (rc == MPI_SUCCESS)
		persists[*request - MPI__PERSIST].sync = 1;
	return rc;
}

MPI_FN int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	return persist_init("MPI_Rsend_init", 0, buf, count, type, dest, tag, comm, request);
}

MPI_FN int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	return persist_init("MPI_Bsend_init", 0, buf, count, type, dest, tag, comm, request);
}

MPI_FN int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	return persist_init("MPI_Recv_init", 1, buf, count, type, source, tag, comm, request);
}

static int do_irecv(unsigned long *b);

MPI_FN int MPI_Start(MPI_Request *request)
{
	struct persist *p;
	unsigned long b[7];
	int rc;

	if (request == NULL || !is_persist(*request))
		lib_error("MPI_Start", MPI_ERR_REQUEST, "request %d is not a persistent request",
			request == NULL ? 0 : *request);
	p = &persists[*request - MPI__PERSIST];
	if (p->real != MPI_REQUEST_NULL)
		lib_error("MPI_Start", MPI_ERR_REQUEST, "persistent request %d is already active", *request);
	memcpy(b, p->b, sizeof p->b);
	b[6] = W(&p->real);
	rc = p->recv ? do_irecv(b) : do_send(p->call, b, p->sync ? SEND_I | SEND_SYNC : SEND_I);
	return rc;
}

MPI_FN int MPI_Startall(int count, MPI_Request requests[])
{
	int i;

	for (i = 0; i < count; i++)
		MPI_Start(&requests[i]);
	return MPI_SUCCESS;
}

/* MPI_Request_free frees a request. A persistent one is the library's: its handle is
 * freed here, and an operation it started is handed to the engine to free when it
 * completes (a receive still takes its message), as the standard says. Any other request
 * is the engine's, which frees it at once if complete or detaches it until it is, and
 * refuses a handle it never issued or already freed, and MPI_REQUEST_NULL (as MPICH). */
MPI_FN int MPI_Request_free(MPI_Request *request)
{
	struct persist *p;
	unsigned long b[1];

	if (request != NULL && greq_find(*request) != NULL)
		return greq_free(greq_find(*request), request);
	if (request == NULL || !is_persist(*request)) {
		b[0] = W(request);
		return dpcl_mpi_request_free((long)b);
	}
	p = &persists[*request - MPI__PERSIST];
	if (p->real != MPI_REQUEST_NULL) {
		b[0] = W(&p->real);
		dpcl_mpi_request_free((long)b);
	}
	p->used = 0;
	persist_count--;
	dt_unref((MPI_Datatype)p->b[2]);
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

/* persist_settle writes back what a Wait or Test did to the translated handles: a
 * persistent request whose operation completed becomes inactive and keeps its handle. */
static void persist_settle(const MPI_Request *orig, const MPI_Request *tr, MPI_Request *reqs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (is_persist(orig[i]))
			persists[orig[i] - MPI__PERSIST].real = tr[i];
		else
			reqs[i] = tr[i];
}
