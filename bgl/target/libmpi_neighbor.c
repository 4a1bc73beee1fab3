/* libmpi_neighbor.c: the neighbourhood collectives, MPI_Neighbor_allgather(v) and
 * MPI_Neighbor_alltoall(v/w) and their I-forms, over Cartesian, graph and distributed
 * graph communicators. Included by libmpi.c after the nonblocking collectives.
 *
 * The neighbours are MPICH's, in MPICH's order: a Cartesian communicator's are, per
 * dimension, the rank below then the rank above (MPI_Cart_shift by 1; MPI_PROC_NULL at a
 * non-periodic edge, which sends and receives nothing); a graph's are
 * MPI_Graph_neighbors', both ways; a distributed graph receives from its sources and sends
 * to its destinations. Every call becomes one exchange of byte blocks
 * (dpcl_mpi_neighbor_xchg): the k-th block goes to the k-th destination and the receive
 * slots take, from each source, its blocks for this rank in the order it sent them, as
 * MPICH's receives posted in one order match: MPI_Neighbor_alltoall posts them last slot
 * first, so on a periodic ring of one or two ranks, where the rank below and the rank
 * above are the same, the block a rank sends upward lands in the slot its upper
 * neighbour keeps for the rank below; MPI_Neighbor_alltoallv and _alltoallw post them
 * first slot first, as MPICH 4.0 does. Derived types are packed into bytes first
 * and unpacked after (by the Wait or Test that completes an I-form). */

/* nbr_topo is one rank's neighbour lists with each block's matching key. */
struct nbr_topo {
	int nin, nout;
	int *in, *inkey, *out, *outkey;
};

static void nbr_topo_free(struct nbr_topo *t)
{
	free(t->in);
	free(t->out);
}

/* nbr_topo_get lists comm's neighbours; a communicator without a topology is an error. */
static void nbr_topo_get(const char *call, MPI_Comm comm, struct nbr_topo *t)
{
	int kind, rank = 0, i, weighted;

	t->nin = t->nout = 0;
	MPI_Topo_test(comm, &kind);
	if (kind == MPI_CART) {
		MPI_Cartdim_get(comm, &t->nin);
		t->nin *= 2;
	} else if (kind == MPI_GRAPH) {
		MPI_Comm_rank(comm, &rank);
		MPI_Graph_neighbors_count(comm, rank, &t->nin);
	} else if (kind == MPI_DIST_GRAPH) {
		MPI_Dist_graph_neighbors_count(comm, &t->nin, &t->nout, &weighted);
	} else {
		lib_error(call, MPI_ERR_TOPOLOGY, "communicator %d has no Cartesian, graph or distributed graph topology", comm);
	}
	if (kind != MPI_DIST_GRAPH)
		t->nout = t->nin;
	t->in = (int *)dt_alloc(call, sizeof(int) * 2 * ((long)t->nin + 1));
	t->inkey = t->in + t->nin;
	t->out = (int *)dt_alloc(call, sizeof(int) * 2 * ((long)t->nout + 1));
	t->outkey = t->out + t->nout;
	for (i = 0; i < t->nin; i++)
		t->inkey[i] = 0;
	for (i = 0; i < t->nout; i++)
		t->outkey[i] = 0;
	if (kind == MPI_CART) {
		for (i = 0; i < t->nin / 2; i++)
			MPI_Cart_shift(comm, i, 1, &t->in[2 * i], &t->in[2 * i + 1]);
		for (i = 0; i < t->nout; i++)
			t->out[i] = t->in[i];
	} else if (kind == MPI_GRAPH) {
		MPI_Graph_neighbors(comm, rank, t->nin, t->in);
		for (i = 0; i < t->nout; i++)
			t->out[i] = t->in[i];
	} else {
		int *sw = (int *)dt_alloc(call, sizeof(int) * ((long)t->nin + t->nout + 1));

		MPI_Dist_graph_neighbors(comm, t->nin, t->in, sw, t->nout, t->out, sw + t->nin);
		free(sw);
	}
}

/* nbr_side is one direction of a call, as its arguments give it: either one count and
 * type or one per neighbour (counts, types), and displacements in elements of type
 * (displs), in bytes (wdispls, MPI_Neighbor_alltoallw's), none (same: every neighbour
 * gets the whole buffer, the allgathers' send side) or consecutive blocks. */
struct nbr_side {
	char *buf;
	int count, same, reverse;
	const int *counts, *displs;
	const MPI_Aint *wdispls;
	MPI_Datatype type;
	const MPI_Datatype *types;
};

static int nbr_count(const struct nbr_side *s, int i)
{
	return s->counts != NULL ? s->counts[i] : s->count;
}

static MPI_Datatype nbr_type(const struct nbr_side *s, int i)
{
	return s->types != NULL ? s->types[i] : s->type;
}

static long nbr_disp(const struct nbr_side *s, int i)
{
	if (s->wdispls != NULL)
		return (long)s->wdispls[i];
	if (s->displs != NULL)
		return s->displs[i] * dt_extent(s->type);
	if (s->same)
		return 0;
	return i * (long)s->count * dt_extent(s->type);
}

/* nbr_block is one block of a side: where it is in the caller's buffer and where in the
 * packed one (derived types), for the deferred unpacking of an I-form. */
struct nbr_block {
	char *buf;
	long at;
	int count;
	MPI_Datatype type;
};

struct nbr_unpack {
	char *packed;
	int n;
	struct nbr_block *blk;
};

static void nbr_unpack_run(void *p)
{
	struct nbr_unpack *u = (struct nbr_unpack *)p;
	int i;

	for (i = 0; i < u->n; i++) {
		struct nbr_block *k = &u->blk[i];

		dt_unpack(u->packed + k->at, (int)(dt_size(k->type) * k->count), k->buf, k->count, k->type);
		dt_unref(k->type);
	}
	free(u->packed);
	free(u->blk);
	free(u);
}

/* nbr_list fills side s's {peer, key, offset, bytes} records for the n neighbours peer
 * (keys key) and, when the side has a derived type, its blocks for packing: the records'
 * offsets are then into the packed buffer, whose size goes to *packed. It returns whether
 * the side is packed. */
static int nbr_list(const char *call, const struct nbr_side *s, int n, const int *peer, const int *key,
	int *rec, struct nbr_block *blk, long *packed)
{
	int i, r, derived = 0;
	long pos = 0;

	for (i = 0; i < n; i++)
		if (is_derived(nbr_type(s, i))) {
			dt_use(call, nbr_type(s, i)); /* committed */
			derived = 1;
		}
	for (i = 0; i < n; i++) {
		int count = nbr_count(s, i);
		MPI_Datatype type = nbr_type(s, i);
		long bytes = dt_size(type) * count;

		if (count < 0)
			lib_error(call, MPI_ERR_COUNT, "invalid count %d for neighbour %d (rank %d)", count, i, peer[i]);
		r = s->reverse ? n - 1 - i : i;
		rec[4 * r] = peer[i];
		rec[4 * r + 1] = key[i];
		rec[4 * r + 2] = (int)(derived ? pos : nbr_disp(s, i));
		rec[4 * r + 3] = (int)bytes;
		blk[i].buf = s->buf + nbr_disp(s, i);
		blk[i].at = pos;
		blk[i].count = count;
		blk[i].type = type;
		if (peer[i] != MPI_PROC_NULL)
			pos += bytes;
	}
	*packed = pos;
	return derived;
}

/* nbr_run runs one neighbourhood collective on comm, blocking when request is NULL. */
static int nbr_run(const char *call, MPI_Comm comm, const struct nbr_side *snd, const struct nbr_side *rcv,
	MPI_Request *request)
{
	struct nbr_topo t;
	struct nbr_block *sblk, *rblk;
	int *rec, i, k, rc, spack, rpack;
	long sbytes, rbytes;
	char *sbase = snd->buf, *rbase = rcv->buf, *spacked = NULL, *rpacked = NULL;
	unsigned long b[8];

	nbr_topo_get(call, comm, &t);
	rec = (int *)dt_alloc(call, sizeof(int) * 4 * ((long)t.nout + t.nin + 1));
	sblk = (struct nbr_block *)dt_alloc(call, sizeof *sblk * ((long)t.nout + 1));
	rblk = (struct nbr_block *)dt_alloc(call, sizeof *rblk * ((long)t.nin + 1));
	spack = nbr_list(call, snd, t.nout, t.out, t.outkey, rec, sblk, &sbytes);
	rpack = nbr_list(call, rcv, t.nin, t.in, t.inkey, rec + 4 * t.nout, rblk, &rbytes);
	if (spack) {
		sbase = spacked = dt_alloc(call, sbytes);
		for (i = 0; i < t.nout; i++)
			if (t.out[i] != MPI_PROC_NULL)
				dt_pack_into(call, sblk[i].buf, sblk[i].count, sblk[i].type, spacked + sblk[i].at);
	}
	if (rpack)
		rbase = rpacked = dt_alloc(call, rbytes);
	b[0] = W(sbase);
	b[1] = W(t.nout);
	b[2] = W(rec);
	b[3] = W(rbase);
	b[4] = W(t.nin);
	b[5] = W(rec + 4 * t.nout);
	b[6] = W(comm);
	b[7] = W(request);
	rc = request == NULL ? dpcl_mpi_neighbor_xchg((long)b) : dpcl_mpi_ineighbor_xchg((long)b);
	/* The engine has read the send blocks and both lists at the call. */
	if (rpack) {
		struct nbr_unpack *u = (struct nbr_unpack *)dt_alloc(call, sizeof *u);

		/* Only the blocks a neighbour sends are unpacked. */
		for (i = k = 0; i < t.nin; i++)
			if (t.in[i] != MPI_PROC_NULL) {
				rblk[k] = rblk[i];
				dt_ref(rblk[k++].type);
			}
		u->packed = rpacked;
		u->n = k;
		u->blk = rblk;
		rblk = NULL;
		if (request == NULL)
			nbr_unpack_run(u);
		else
			after_add(call, *request, nbr_unpack_run, u);
	}
	free(rblk);
	free(sblk);
	free(spacked);
	free(rec);
	nbr_topo_free(&t);
	return rc;
}

/* The calls' sides. */
#define NBR_ONE(b, c, t) {(char *)(b), (c), 0, 0, NULL, NULL, NULL, (t), NULL}
#define NBR_ONE_REVERSED(b, c, t) {(char *)(b), (c), 0, 1, NULL, NULL, NULL, (t), NULL}
#define NBR_SAME(b, c, t) {(char *)(b), (c), 1, 0, NULL, NULL, NULL, (t), NULL}
#define NBR_V(b, cs, ds, t) {(char *)(b), 0, 0, 0, (cs), (ds), NULL, (t), NULL}
#define NBR_W(b, cs, ds, ts) {(char *)(b), 0, 0, 0, (cs), NULL, (ds), MPI_BYTE, (ts)}

MPI_FN int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	struct nbr_side s = NBR_SAME(sendbuf, sendcount, sendtype), r = NBR_ONE(recvbuf, recvcount, recvtype);

	return nbr_run("MPI_Neighbor_allgather", comm, &s, &r, NULL);
}

MPI_FN int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
	struct nbr_side s = NBR_SAME(sendbuf, sendcount, sendtype), r = NBR_V(recvbuf, recvcounts, displs, recvtype);

	return nbr_run("MPI_Neighbor_allgatherv", comm, &s, &r, NULL);
}

MPI_FN int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
	struct nbr_side s = NBR_ONE(sendbuf, sendcount, sendtype), r = NBR_ONE_REVERSED(recvbuf, recvcount, recvtype);

	return nbr_run("MPI_Neighbor_alltoall", comm, &s, &r, NULL);
}

MPI_FN int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
	MPI_Comm comm)
{
	struct nbr_side s = NBR_V(sendbuf, sendcounts, sdispls, sendtype), r = NBR_V(recvbuf, recvcounts, rdispls, recvtype);

	return nbr_run("MPI_Neighbor_alltoallv", comm, &s, &r, NULL);
}

MPI_FN int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	struct nbr_side s = NBR_W(sendbuf, sendcounts, sdispls, sendtypes), r = NBR_W(recvbuf, recvcounts, rdispls, recvtypes);

	return nbr_run("MPI_Neighbor_alltoallw", comm, &s, &r, NULL);
}

MPI_FN int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	struct nbr_side s = NBR_SAME(sendbuf, sendcount, sendtype), r = NBR_ONE(recvbuf, recvcount, recvtype);

	return nbr_run("MPI_Ineighbor_allgather", comm, &s, &r, request);
}

MPI_FN int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	struct nbr_side s = NBR_SAME(sendbuf, sendcount, sendtype), r = NBR_V(recvbuf, recvcounts, displs, recvtype);

	return nbr_run("MPI_Ineighbor_allgatherv", comm, &s, &r, request);
}

MPI_FN int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
	struct nbr_side s = NBR_ONE(sendbuf, sendcount, sendtype), r = NBR_ONE_REVERSED(recvbuf, recvcount, recvtype);

	return nbr_run("MPI_Ineighbor_alltoall", comm, &s, &r, request);
}

MPI_FN int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
	MPI_Comm comm, MPI_Request *request)
{
	struct nbr_side s = NBR_V(sendbuf, sendcounts, sdispls, sendtype), r = NBR_V(recvbuf, recvcounts, rdispls, recvtype);

	return nbr_run("MPI_Ineighbor_alltoallv", comm, &s, &r, request);
}

MPI_FN int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
	struct nbr_side s = NBR_W(sendbuf, sendcounts, sdispls, sendtypes), r = NBR_W(recvbuf, recvcounts, rdispls, recvtypes);

	return nbr_run("MPI_Ineighbor_alltoallw", comm, &s, &r, request);
}
