/* libmpi_dtcoll.c: derived datatypes in the collectives. Included by libmpi_coll.c.
 *
 * The engine moves bytes. A rank whose send or receive type is derived packs what it sends
 * into a contiguous buffer, receives into another and unpacks it afterwards, and hands the
 * engine MPI_BYTE counts in place of its own, so the engine checks sizes against the other
 * ranks' as it does for predefined types (a vector of 3 ints meets 3 MPI_INTs). Each rank
 * decides alone, from its own arguments, as MPI's type rules let it: only the sizes of the
 * two sides' type signatures must agree.
 *
 * With MPI_IN_PLACE the engine reads the caller's contribution from its receive buffer, so
 * the caller's slots are packed into the packed receive buffer before the call.
 *
 * A predefined reduction operation takes predefined types only, as in MPICH; a user
 * operation takes any type (libmpi_types.c). */

static int dtc_rank(MPI_Comm comm)
{
	int r = 0;

	MPI_Comm_rank(comm, &r);
	return r;
}

static int dtc_size(MPI_Comm comm)
{
	int n = 0;

	MPI_Comm_size(comm, &n);
	return n;
}

/* dtc_send_blocks packs the send triple at b[i] (buf, count, type) of n equal slots and
 * puts the packed buffer and the bytes per slot in its place; it returns the buffer to
 * free, or NULL when there was nothing to pack. */
static char *dtc_send_blocks(const char *call, unsigned long *b, int i, int n)
{
	MPI_Datatype t = (MPI_Datatype)b[i + 2];
	int count = (int)b[i + 1];
	char *p;

	if ((void *)b[i] == MPI_IN_PLACE || !is_derived(t))
		return NULL;
	p = dt_alloc(call, dt_use(call, t)->size * count * (long)n);
	dt_pack_into(call, (const void *)b[i], count * n, t, p);
	b[i] = W(p);
	b[i + 1] = W(dt_size(t) * count);
	b[i + 2] = W(MPI_BYTE);
	return p;
}

/* dtc_recv_blocks replaces the receive triple at b[i] of n equal slots by a packed
 * buffer, first packing slots [first, first+inplace) of the caller's data into it. */
static char *dtc_recv_blocks(const char *call, unsigned long *b, int i, int n, int first, int inplace)
{
	MPI_Datatype t = (MPI_Datatype)b[i + 2];
	int count = (int)b[i + 1];
	long slot;
	char *p;

	if ((void *)b[i] == MPI_IN_PLACE || !is_derived(t))
		return NULL;
	slot = dt_use(call, t)->size * count;
	p = dt_alloc(call, slot * n);
	if (inplace > 0)
		dt_pack_into(call, (const char *)b[i] + first * count * dt_extent(t), count * inplace, t, p + first * slot);
	b[i] = W(p);
	b[i + 1] = W(slot);
	b[i + 2] = W(MPI_BYTE);
	return p;
}

/* dtc_unpack_blocks unpacks n slots of count elements of type t from p into buf. */
static void dtc_unpack_blocks(char *p, void *buf, int count, MPI_Datatype t, int n)
{
	if (p == NULL)
		return;
	dt_unpack(p, (int)(dt_size(t) * count * n), buf, count * n, t);
	free(p);
}

/* A dtc_v is a v-collective's side packed: each rank's piece at displs[i] bytes, counts[i]
 * bytes long, in buf. */
struct dtc_v {
	char *buf;
	int *counts, *displs;
};

/* dtc_layout sizes a packed v layout for counts[] elements of type t. */
static int dtc_layout(const char *call, struct dtc_v *v, const int counts[], MPI_Datatype t, int n)
{
	long size = dt_use(call, t)->size, total = 0;
	int i;

	v->counts = (int *)dt_alloc(call, sizeof(int) * 2 * (long)n);
	v->displs = v->counts + n;
	for (i = 0; i < n; i++) {
		if (counts[i] < 0)
			lib_error(call, MPI_ERR_COUNT, "counts[%d] = %d", i, counts[i]);
		v->counts[i] = (int)(counts[i] * size);
		v->displs[i] = (int)total;
		total += v->counts[i];
	}
	v->buf = dt_alloc(call, total);
	return n;
}

/* dtc_pack_v packs pieces [first, first+cnt) of a v layout (counts[] and displs[] in extents
 * of t at buf) into v. */
static void dtc_pack_v(const char *call, struct dtc_v *v, const void *buf, const int counts[],
	const int displs[], MPI_Datatype t, int first, int cnt)
{
	int i;

	for (i = first; i < first + cnt; i++)
		dt_pack_into(call, (const char *)buf + displs[i] * dt_extent(t), counts[i], t, v->buf + v->displs[i]);
}

/* dtc_send_v packs the v send side at b[i] (buf, counts, displs, type) of n ranks. */
static int dtc_send_v(const char *call, unsigned long *b, int i, int n, struct dtc_v *v)
{
	MPI_Datatype t = (MPI_Datatype)b[i + 3];

	if ((void *)b[i] == MPI_IN_PLACE || !is_derived(t))
		return 0;
	dtc_layout(call, v, (const int *)b[i + 1], t, n);
	dtc_pack_v(call, v, (const void *)b[i], (const int *)b[i + 1], (const int *)b[i + 2], t, 0, n);
	b[i] = W(v->buf);
	b[i + 1] = W(v->counts);
	b[i + 2] = W(v->displs);
	b[i + 3] = W(MPI_BYTE);
	return 1;
}

/* dtc_recv_v replaces the v receive side at b[i] (buf, counts, displs, type) by a packed
 * layout, packing pieces [first, first+inplace) of the caller's data into it first. */
static int dtc_recv_v(const char *call, unsigned long *b, int i, int n, int first, int inplace, struct dtc_v *v)
{
	MPI_Datatype t = (MPI_Datatype)b[i + 3];

	if ((void *)b[i] == MPI_IN_PLACE || !is_derived(t))
		return 0;
	dtc_layout(call, v, (const int *)b[i + 1], t, n);
	dtc_pack_v(call, v, (const void *)b[i], (const int *)b[i + 1], (const int *)b[i + 2], t, first, inplace);
	b[i] = W(v->buf);
	b[i + 1] = W(v->counts);
	b[i + 2] = W(v->displs);
	b[i + 3] = W(MPI_BYTE);
	return 1;
}

/* dtc_unpack_v unpacks a packed v layout into buf (counts[] and displs[] in extents of t). */
static void dtc_unpack_v(struct dtc_v *v, void *buf, const int counts[], const int displs[], MPI_Datatype t, int n)
{
	int i;

	for (i = 0; i < n; i++)
		dt_unpack(v->buf + v->displs[i], v->counts[i], (char *)buf + displs[i] * dt_extent(t), counts[i], t);
}

static void dtc_free_v(struct dtc_v *v)
{
	free(v->buf);
	free(v->counts);
}

static int dtc_gather(const char *call, unsigned long *b, int all)
{
	MPI_Comm comm = (MPI_Comm)b[all ? 6 : 7];
	int me = dtc_rank(comm), n = dtc_size(comm), root = all ? me : (int)b[6], rc;
	void *recvbuf = (void *)b[3];
	int recvcount = (int)b[4];
	MPI_Datatype recvtype = (MPI_Datatype)b[5];
	char *sp = dtc_send_blocks(call, b, 0, 1), *rp = NULL;

	if (me == root)
		rp = dtc_recv_blocks(call, b, 3, n, me, (void *)b[0] == MPI_IN_PLACE);
	rc = all ? dpcl_mpi_allgather((long)b) : dpcl_mpi_gather((long)b);
	dtc_unpack_blocks(rp, recvbuf, recvcount, recvtype, n);
	free(sp);
	return rc;
}

static int dtc_gatherv(const char *call, unsigned long *b, int all)
{
	MPI_Comm comm = (MPI_Comm)b[all ? 7 : 8];
	int me = dtc_rank(comm), n = dtc_size(comm), root = all ? me : (int)b[7], rc, packed = 0;
	void *recvbuf = (void *)b[3];
	const int *counts = (const int *)b[4], *displs = (const int *)b[5];
	MPI_Datatype recvtype = (MPI_Datatype)b[6];
	char *sp = dtc_send_blocks(call, b, 0, 1);
	struct dtc_v v;

	if (me == root)
		packed = dtc_recv_v(call, b, 3, n, me, (void *)b[0] == MPI_IN_PLACE, &v);
	rc = all ? dpcl_mpi_allgatherv((long)b) : dpcl_mpi_gatherv((long)b);
	if (packed) {
		dtc_unpack_v(&v, recvbuf, counts, displs, recvtype, n);
		dtc_free_v(&v);
	}
	free(sp);
	return rc;
}

static int dtc_scatter(const char *call, unsigned long *b)
{
	MPI_Comm comm = (MPI_Comm)b[7];
	void *recvbuf = (void *)b[3];
	int recvcount = (int)b[4], rc;
	MPI_Datatype recvtype = (MPI_Datatype)b[5];
	char *sp = NULL, *rp = dtc_recv_blocks(call, b, 3, 1, 0, 0);

	if (dtc_rank(comm) == (int)b[6])
		sp = dtc_send_blocks(call, b, 0, dtc_size(comm));
	rc = dpcl_mpi_scatter((long)b);
	dtc_unpack_blocks(rp, recvbuf, recvcount, recvtype, 1);
	free(sp);
	return rc;
}

static int dtc_scatterv(const char *call, unsigned long *b)
{
	MPI_Comm comm = (MPI_Comm)b[8];
	void *recvbuf = (void *)b[4];
	int recvcount = (int)b[5], rc, packed = 0;
	MPI_Datatype recvtype = (MPI_Datatype)b[6];
	char *rp = dtc_recv_blocks(call, b, 4, 1, 0, 0);
	struct dtc_v v;

	if (dtc_rank(comm) == (int)b[7])
		packed = dtc_send_v(call, b, 0, dtc_size(comm), &v);
	rc = dpcl_mpi_scatterv((long)b);
	dtc_unpack_blocks(rp, recvbuf, recvcount, recvtype, 1);
	if (packed)
		dtc_free_v(&v);
	return rc;
}

static int dtc_alltoall(const char *call, unsigned long *b)
{
	int n = dtc_size((MPI_Comm)b[6]), rc;
	void *recvbuf = (void *)b[3];
	int recvcount = (int)b[4];
	MPI_Datatype recvtype = (MPI_Datatype)b[5];
	char *sp = dtc_send_blocks(call, b, 0, n);
	char *rp = dtc_recv_blocks(call, b, 3, n, 0, (void *)b[0] == MPI_IN_PLACE ? n : 0);

	rc = dpcl_mpi_alltoall((long)b);
	dtc_unpack_blocks(rp, recvbuf, recvcount, recvtype, n);
	free(sp);
	return rc;
}

static int dtc_alltoallv(const char *call, unsigned long *b)
{
	int n = dtc_size((MPI_Comm)b[8]), rc, spacked, rpacked;
	void *recvbuf = (void *)b[4];
	const int *counts = (const int *)b[5], *displs = (const int *)b[6];
	MPI_Datatype recvtype = (MPI_Datatype)b[7];
	struct dtc_v sv, rv;

	spacked = dtc_send_v(call, b, 0, n, &sv);
	rpacked = dtc_recv_v(call, b, 4, n, 0, (void *)b[0] == MPI_IN_PLACE ? n : 0, &rv);
	rc = dpcl_mpi_alltoallv((long)b);
	if (rpacked) {
		dtc_unpack_v(&rv, recvbuf, counts, displs, recvtype, n);
		dtc_free_v(&rv);
	}
	if (spacked)
		dtc_free_v(&sv);
	return rc;
}

/* dtc_no_op ends the job for a predefined operation on a derived type: MPICH defines
 * them on predefined types only (MPI_ERR_OP), and so does this library. */
static int dtc_no_op(const char *call, MPI_Op op, MPI_Datatype t)
{
	lib_error(call, MPI_ERR_OP, "predefined operation %d is not defined for derived datatype %d", op, t);
	return MPI_ERR_OP;
}
