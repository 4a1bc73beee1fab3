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

static int mpi_initialized, mpi_finalized;

/* An intercommunicator's handle has this bit set (libmpi_inter.c). */
#define DPCL_INTER_BIT 0x20000000
#define IS_INTER(c) (((c) & DPCL_INTER_BIT) != 0)
static int ic_create(MPI_Comm comm, int n, const int *w, MPI_Comm *newcomm);
/* Datatype attributes (libmpi_tattr.c) follow MPI_Type_dup and MPI_Type_free. */
static int tattrs_copy(MPI_Datatype oldtype, MPI_Datatype newtype);
static int tattrs_delete_all(MPI_Datatype type);
/* Graph topologies (libmpi_graph.c) are asked for by MPI_Topo_test. */
static int graph_kind(MPI_Comm comm);
/* Nonblocking collectives' completion work (libmpi_after.c), run by Wait and Test. */
static void after_settle(const MPI_Request *before, const MPI_Request *after, int n);
static int after_any(void);

#include "libmpi_types.c"
#include "libmpi_dtcons.c"
#include "libmpi_packext.c"
#include "libmpi_dtlarge.c"
#include "libmpi_dims.c"
#include "libmpi_topo.c"
#include "libmpi_graph.c"
#include "libmpi_groups.c"
#include "libmpi_err.c"
#include "libmpi_info.c"
#include "libmpi_attr.c"
#include "libmpi_inter.c"
#include "libmpi_tattr.c"
#include "libmpi_win.c"
#include "libmpi_io.c"
#include "libmpi_session.c"
#include "libmpi_pt2pt_c.c"

MPI_FN int MPI_Init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	mpi_initialized = 1;
	if (nsessions_open > 0)
		return MPI_SUCCESS; /* a session started the machine's MPI (libmpi_session.c) */
	return dpcl_mpi_init();
}

MPI_FN int MPI_Finalize(void)
{
	/* MPI_COMM_SELF's attributes go first, so their delete callbacks can still call MPI. */
	int rc = attrs_delete_all("MPI_Finalize", MPI_COMM_SELF);

	if (rc != MPI_SUCCESS)
		return rc;
	rc = dpcl_mpi_finalize();

	mpi_finalized = 1;
	return rc;
}

MPI_FN int MPI_Finalized(int *flag)
{
	*flag = mpi_finalized;
	return MPI_SUCCESS;
}

/* MPI_Wtime counts virtual nanoseconds. */
MPI_FN double MPI_Wtick(void)
{
	return 1e-9;
}

/* MPI_Pcontrol is for profiling libraries; without one it does nothing, as the standard
 * says. A tool can put a probe on it. */
MPI_FN int MPI_Pcontrol(const int level, ...)
{
	(void)level;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Get_processor_name(char *name, int *resultlen)
{
	*resultlen = snprintf(name, MPI_MAX_PROCESSOR_NAME, "bgl-node-%d", dpcl_rank());
	return MPI_SUCCESS;
}

MPI_FN int MPI_Get_version(int *version, int *subversion)
{
	*version = 3;
	*subversion = 1;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	unsigned long b[] = {W(comm), W(color), W(key), W(newcomm)};
	int rc = IS_INTER(comm) ? ic_split("MPI_Comm_split", comm, color, key, newcomm) : dpcl_mpi_comm_split((long)b);

	if (rc == MPI_SUCCESS)
		inherit_eh(comm, *newcomm);
	return rc;
}

MPI_FN int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	unsigned long b[] = {W(comm), W(newcomm)};
	int rc = IS_INTER(comm) ? ic_dup(comm, newcomm) : dpcl_mpi_comm_dup((long)b), i = cart_find(comm);

	if (rc != MPI_SUCCESS)
		return rc;
	/* A duplicate keeps the topology, the error handler and what the attributes' copy
	 * callbacks say. */
	if (i >= 0)
		cart_add(*newcomm, carts[i].ndims, carts[i].dims, carts[i].periods);
	graph_copy(comm, *newcomm);
	inherit_eh(comm, *newcomm);
	rc = attrs_copy(comm, *newcomm);
	if (rc != MPI_SUCCESS) {
		/* A failed copy callback fails the duplication: no new communicator. */
		MPI_Comm dup = *newcomm;

		MPI_Comm_free(&dup);
		*newcomm = MPI_COMM_NULL;
	}
	return rc;
}

MPI_FN int MPI_Comm_free(MPI_Comm *comm)
{
	unsigned long b[] = {W(comm)};
	MPI_Comm c = *comm;
	int rc = c == MPI_COMM_NULL ? MPI_SUCCESS : attrs_delete_all("MPI_Comm_free", c);

	if (rc != MPI_SUCCESS)
		return rc;
	rc = dpcl_mpi_comm_free((long)b);
	if (rc != MPI_SUCCESS)
		return rc;
	cart_forget(c);
	graph_forget(c);
	forget_eh(c);
	forget_name(c);
	return rc;
}

MPI_FN int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
	unsigned long b[] = {W(comm1), W(comm2), W(result)};

	return dpcl_mpi_comm_compare((long)b);
}

MPI_FN int MPI_Initialized(int *flag)
{
	*flag = mpi_initialized;
	return MPI_SUCCESS;
}

/* MPI_COMM_WORLD's rank and size come from the kernel at no cost; other communicators'
 * from the engine, which also checks the handle. */
MPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	unsigned long b[] = {W(comm), W(rank), 0};

	if (comm != MPI_COMM_WORLD)
		return dpcl_mpi_comm_info((long)b);
	*rank = dpcl_rank();
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_size(MPI_Comm comm, int *size)
{
	unsigned long b[] = {W(comm), 0, W(size)};

	if (comm != MPI_COMM_WORLD)
		return dpcl_mpi_comm_info((long)b);
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

/* Send modes of do_send: SEND_I, b has a request word (the nonblocking form); SEND_SYNC,
 * the send completes once the matching receive has taken the message (MPI_Ssend). */
enum { SEND_I = 1, SEND_SYNC = 2 };

/* send_block hands block b to the engine's send of that mode. */
static int send_block(unsigned long *b, int mode)
{
	switch (mode) {
	case SEND_I:
		return dpcl_mpi_isend((long)b);
	case SEND_SYNC:
		return dpcl_mpi_ssend((long)b);
	case SEND_I | SEND_SYNC:
		return dpcl_mpi_issend((long)b);
	}
	return dpcl_mpi_send((long)b);
}

/* do_send sends block b {buf, count, type, dest, tag, comm} in mode: the data is copied
 * (a derived type packed first) before the call returns. */
static int do_send(const char *call, unsigned long *b, int mode)
{
	char *packed;
	int bytes, rc;

	if (!is_derived((MPI_Datatype)b[2]))
		return send_block(b, mode);
	packed = dt_pack(call, (const void *)b[0], (int)b[1], (MPI_Datatype)b[2], &bytes);
	b[0] = W(packed);
	b[1] = W(bytes);
	b[2] = W(MPI_BYTE);
	rc = send_block(b, mode);
	free(packed);
	return rc;
}

/* do_recv is a blocking receive of block b {buf, count, type, source, tag, comm, status};
 * a derived type is received packed and unpacked. */
static int do_recv(unsigned long *b)
{
	MPI_Datatype type = (MPI_Datatype)b[2];
	MPI_Status st, *status = (MPI_Status *)b[6];
	void *buf = (void *)b[0];
	int count = (int)b[1], rc;
	char *packed;

	if (!is_derived(type))
		return dpcl_mpi_recv((long)b);
	packed = malloc(dt_use("MPI_Recv", type)->size * count + 1);
	b[0] = W(packed);
	b[1] = W(dt_size(type) * count);
	b[2] = W(MPI_BYTE);
	b[6] = W(&st);
	/* The engine leaves MPI_ERROR as it was, as MPICH does. */
	st.MPI_ERROR = status != MPI_STATUS_IGNORE && status != NULL ? status->MPI_ERROR : MPI_SUCCESS;
	rc = dpcl_mpi_recv((long)b);
	dt_unpack(packed, st.count, buf, count, type);
	free(packed);
	if (status != MPI_STATUS_IGNORE && status != NULL)
		*status = st;
	return rc;
}

#include "libmpi_greq.c"
#include "libmpi_persist.c"

MPI_FN int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm)};

	return do_send("MPI_Send", b, 0);
}

MPI_FN int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Status *status)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(source), W(tag), W(comm), W(status)};

	return do_recv(b);
}

/* The send is eager: the data is copied (packed) before the call returns. */
MPI_FN int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm), W(request)};

	return do_send("MPI_Isend", b, SEND_I);
}

MPI_FN int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(source), W(tag), W(comm), W(request)};

	return do_irecv(b);
}

/* do_irecv posts the receive of block b {buf, count, type, source, tag, comm, request}; a
 * derived type lands packed and is unpacked when a Wait or Test frees the request. */
static int do_irecv(unsigned long *b)
{
	MPI_Datatype type = (MPI_Datatype)b[2];
	void *buf = (void *)b[0];
	int count = (int)b[1], bytes, rc;
	char *packed;

	if (!is_derived(type))
		return dpcl_mpi_irecv((long)b);
	bytes = (int)(dt_use("MPI_Irecv", type)->size * count);
	packed = malloc(bytes + 1);
	b[0] = W(packed);
	b[1] = W(bytes);
	b[2] = W(MPI_BYTE);
	rc = dpcl_mpi_irecv((long)b);
	pending_add(*(MPI_Request *)b[6], packed, bytes, buf, count, type);
	return rc;
}

/* WITH_PENDING runs a Wait or Test call over n requests, whose array is word slot of
 * block b and whose statuses (reported as kind says, ST_*) are word stslot: persistent
 * handles are replaced by their started requests for the engine and kept in the caller's
 * array, and the derived-type receives the call freed are unpacked, as far as their
 * statuses say data arrived (the call always gets statuses, copied out if asked for), and
 * the generalized requests it completed run their query and free callbacks into the
 * caller's statuses (where, GREQ_AT); work registered on a completed request runs too
 * (libmpi_after.c: nonblocking reductions with user operations). */
#define WITH_PENDING(reqs, n, b, slot, stslot, kind, call, where)                         \
	do {                                                                                      \
		MPI_Request buf_[3 * 64], *orig = buf_;                                               \
		MPI_Status stbuf_[64], *sts_ = stbuf_, *user_ = (MPI_Status *)(b)[stslot];            \
		int rc_, i_, nst_ = (kind) == ST_ONE || (kind) == ST_ANY ? 1 : (n);                   \
		if (!pending_any() && persist_count == 0 && greq_count == 0 && !after_any())          \
			return call;                                                                      \
		if ((n) > 64) {                                                                       \
			orig = malloc(sizeof *orig * 3 * (n));                                            \
			sts_ = malloc(sizeof *sts_ * (n));                                                \
		}                                                                                     \
		for (i_ = 0; i_ < (n); i_++) {                                                        \
			orig[i_] = (reqs)[i_];                                                            \
			orig[(n) + i_] = orig[2 * (n) + i_] = persist_real((reqs)[i_]);                   \
		}                                                                                     \
		for (i_ = 0; i_ < nst_; i_++)                                                         \
			sts_[i_] = user_ != MPI_STATUS_IGNORE && user_ != NULL ? user_[i_] : st_empty;    \
		(b)[slot] = W(orig + 2 * (n));                                                        \
		(b)[stslot] = W(sts_);                                                                \
		rc_ = call;                                                                           \
		pending_settle(orig + (n), orig + 2 * (n), (n), sts_, (kind), (b));                   \
		after_settle(orig + (n), orig + 2 * (n), (n));                                        \
		persist_settle(orig, orig + 2 * (n), (reqs), (n));                                    \
		for (i_ = 0; i_ < nst_ && user_ != MPI_STATUS_IGNORE && user_ != NULL; i_++)          \
			user_[i_] = sts_[i_];                                                             \
		rc_ = greq_settle(orig + (n), orig + 2 * (n), (n), (where), rc_);                     \
		if (orig != buf_) {                                                                   \
			free(orig);                                                                       \
			free(sts_);                                                                       \
		}                                                                                     \
		return rc_;                                                                           \
	} while (0)

/* st_empty is what a call given MPI_STATUS_IGNORE starts its own statuses from. */
static const MPI_Status st_empty;

MPI_FN int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	unsigned long b[] = {W(request), W(status)};

	WITH_PENDING(request, 1, b, 0, 1, ST_ONE, dpcl_mpi_wait((long)b), GREQ_AT(GREQ_ONE, status, NULL, NULL));
}

MPI_FN int MPI_Waitall(int count, MPI_Request *requests, MPI_Status *statuses)
{
	unsigned long b[] = {W(count), W(requests), W(statuses)};

	WITH_PENDING(requests, count, b, 1, 2, ST_ALL, dpcl_mpi_waitall((long)b), GREQ_AT(GREQ_ALL, statuses, NULL, NULL));
}

MPI_FN int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	unsigned long b[] = {W(request), W(flag), W(status)};

	WITH_PENDING(request, 1, b, 0, 2, ST_ONE, dpcl_mpi_test((long)b), GREQ_AT(GREQ_ONE, status, NULL, NULL));
}

MPI_FN int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status *statuses)
{
	unsigned long b[] = {W(count), W(requests), W(flag), W(statuses)};

	WITH_PENDING(requests, count, b, 1, 3, ST_ALL, dpcl_mpi_testall((long)b), GREQ_AT(GREQ_ALL, statuses, NULL, NULL));
}

MPI_FN int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
	unsigned long b[] = {W(count), W(requests), W(index), W(flag), W(status)};

	WITH_PENDING(requests, count, b, 1, 4, ST_ANY, dpcl_mpi_testany((long)b), GREQ_AT(GREQ_ONE, status, NULL, NULL));
}

MPI_FN int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
	unsigned long b[] = {W(count), W(requests), W(index), W(status)};

	WITH_PENDING(requests, count, b, 1, 3, ST_ANY, dpcl_mpi_waitany((long)b), GREQ_AT(GREQ_ONE, status, NULL, NULL));
}

MPI_FN int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
	MPI_Status *statuses)
{
	unsigned long b[] = {W(incount), W(requests), W(outcount), W(indices), W(statuses)};

	WITH_PENDING(requests, incount, b, 1, 4, ST_SOME, dpcl_mpi_waitsome((long)b), GREQ_AT(GREQ_SOME, statuses, indices, outcount));
}

MPI_FN int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
	MPI_Status *statuses)
{
	unsigned long b[] = {W(incount), W(requests), W(outcount), W(indices), W(statuses)};

	WITH_PENDING(requests, incount, b, 1, 4, ST_SOME, dpcl_mpi_testsome((long)b), GREQ_AT(GREQ_SOME, statuses, indices, outcount));
}

MPI_FN int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	unsigned long b[] = {W(source), W(tag), W(comm), W(flag), W(status)};

	return dpcl_mpi_iprobe((long)b);
}

/* MPI_Ssend returns once the matching receive has taken the message (the engine's
 * synchronous send, mpi_ssend.go); the ready and buffered sends are the eager send, as
 * buffering every message means no program waits for one. */
MPI_FN int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm)};

	return do_send("MPI_Ssend", b, SEND_SYNC);
}

MPI_FN int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm)};

	return do_send("MPI_Rsend", b, 0);
}

MPI_FN int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm)};

	return do_send("MPI_Bsend", b, 0);
}

MPI_FN int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm), W(request)};

	return do_send("MPI_Issend", b, SEND_I | SEND_SYNC);
}

MPI_FN int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm), W(request)};

	return do_send("MPI_Ibsend", b, SEND_I);
}

MPI_FN int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(dest), W(tag), W(comm), W(request)};

	return do_send("MPI_Irsend", b, SEND_I);
}

static void *bsend_buf;
static int bsend_size;

/* MPI_Buffer_attach: buffered sends never need the space here, but the buffer is kept
 * for MPI_Buffer_detach to hand back. */
MPI_FN int MPI_Buffer_attach(void *buffer, int size)
{
	if (bsend_buf != NULL)
		lib_error("MPI_Buffer_attach", MPI_ERR_BUFFER, "a buffer is already attached");
	bsend_buf = buffer;
	bsend_size = size;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Buffer_detach(void *buffer_addr, int *size)
{
	*(void **)buffer_addr = bsend_buf;
	*size = bsend_size;
	bsend_buf = NULL;
	bsend_size = 0;
	return MPI_SUCCESS;
}

/* MPI_Sendrecv: sends are buffered, so a send followed by a receive cannot deadlock. */
MPI_FN int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Status *status)
{
	unsigned long s[] = {W(sendbuf), W(sendcount), W(sendtype), W(dest), W(sendtag), W(comm)};
	unsigned long r[] = {W(recvbuf), W(recvcount), W(recvtype), W(source), W(recvtag), W(comm), W(status)};

	do_send("MPI_Sendrecv", s, 0);
	return do_recv(r);
}

MPI_FN int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
	int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
	unsigned long s[] = {W(buf), W(count), W(type), W(dest), W(sendtag), W(comm)};
	unsigned long r[] = {W(buf), W(count), W(type), W(source), W(recvtag), W(comm), W(status)};

	/* The send copies the data first, so the receive may overwrite it. */
	do_send("MPI_Sendrecv_replace", s, 0);
	return do_recv(r);
}

MPI_FN int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	unsigned long b[] = {W(source), W(tag), W(comm), W(status)};

	return dpcl_mpi_probe((long)b);
}

MPI_FN int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
	int size = (int)dt_size(type);
	int bytes = status->count & 0x7fffffff; /* without MPI_Cancel's mark */

	/* A type of no data counts an empty message as 0 of it (MPI 4.0, 3.2.5). */
	if (size == 0) {
		*count = bytes == 0 ? 0 : MPI_UNDEFINED;
		return MPI_SUCCESS;
	}

	*count = bytes % size == 0 ? bytes / size : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

#include "libmpi_requests.c"
#include "libmpi_mprobe.c"
#include "libmpi_dtnames.c"
#include "libmpi_coll.c"
#include "libmpi_after.c"
#include "libmpi_iuop.c"
#include "libmpi_iplain.c"
#include "libmpi_icoll.c"
#include "libmpi_neighbor.c"
