/* libmpi_inter.c: intercommunicators, as MPICH builds them: the engine keeps the two
 * groups under one handle (with DPCL_INTER_BIT set, so no call is needed to tell an
 * intercommunicator) and, per group, a hidden intracommunicator of the local group and a
 * hidden twin intercommunicator for this library's own messages. MPI_Intercomm_create's
 * leaders exchange their groups over the peer communicator; the collectives are
 * point-to-point calls on the twin plus collectives of the local group, so they cost what
 * those cost on the network. Also MPI_Comm_create_group, _idup and _split_type.
 * Included by libmpi.c before the functions that dispatch here. */

/* The twin's tags, one per operation: an operation's messages between two ranks arrive in
 * order, so operations that follow one another never take each other's. */
enum { IC_BARRIER = 1, IC_BCAST, IC_REDUCE, IC_ALLREDUCE, IC_GATHER, IC_SCATTER, IC_ALLGATHER,
	IC_ALLTOALL, IC_MERGE, IC_SPLIT, IC_REDSCAT };

struct ic {
	int remote_size, rank, size;
	MPI_Comm local, twin;
};

/* ic_info reads comm's intercommunicator facts; it returns the call's error code, and
 * *inter is whether comm is one. */
static int ic_info(MPI_Comm comm, struct ic *ic, int *inter)
{
	unsigned long out[4], b[] = {W(comm), W(out)};
	int rc = dpcl_mpi_inter_info((long)b);

	if (rc != MPI_SUCCESS)
		return rc;
	*inter = (int)out[0];
	ic->remote_size = (int)out[1];
	ic->local = (MPI_Comm)out[2];
	ic->twin = (MPI_Comm)out[3];
	if (*inter) {
		MPI_Comm_rank(ic->local, &ic->rank);
		MPI_Comm_size(ic->local, &ic->size);
	}
	return MPI_SUCCESS;
}

/* ic_get is ic_info for a call that needs an intercommunicator. */
static int ic_get(const char *call, MPI_Comm comm, struct ic *ic)
{
	int inter, rc = ic_info(comm, ic, &inter);

	if (rc == MPI_SUCCESS && !inter)
		return lib_return(call, comm, MPI_ERR_COMM, "not an intercommunicator");
	return rc;
}

/* ic_remote returns the remote group's world ranks (malloc'd). */
static int *ic_remote(const char *call, MPI_Comm comm, int n)
{
	int *w = (int *)dt_alloc(call, sizeof(int) * (long)(n + 1));
	unsigned long b[] = {W(comm), W(w)};

	dpcl_mpi_comm_remote_group((long)b);
	return w;
}

/* ic_make is the last step of every intercommunicator constructor: the engine pairs this
 * group's call (a collective of local) with the remote group's. */
static int ic_make(MPI_Comm local, int rsize, int *remote, MPI_Comm *newcomm)
{
	unsigned long b[] = {W(local), W(rsize), W(remote), W(newcomm)};

	return dpcl_mpi_intercomm_make((long)b);
}

MPI_FN int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
	int tag, MPI_Comm *newintercomm)
{
	const char *call = "MPI_Intercomm_create";
	int rank, lsize, rsize = 0, *lw, *rw, rc;
	MPI_Group g;

	if (IS_INTER(local_comm))
		lib_error(call, MPI_ERR_COMM, "local_comm %d is an intercommunicator", local_comm);
	if ((rc = MPI_Comm_rank(local_comm, &rank)) != MPI_SUCCESS)
		return rc;
	MPI_Comm_group(local_comm, &g);
	group_get(call, g, &lsize, &lw);
	if (rank == local_leader)
		MPI_Sendrecv(&lsize, 1, MPI_INT, remote_leader, tag, &rsize, 1, MPI_INT, remote_leader, tag,
			peer_comm, MPI_STATUS_IGNORE);
	if ((rc = MPI_Bcast(&rsize, 1, MPI_INT, local_leader, local_comm)) != MPI_SUCCESS)
		return rc;
	rw = (int *)dt_alloc(call, sizeof(int) * (long)(rsize + 1));
	if (rank == local_leader)
		MPI_Sendrecv(lw, lsize, MPI_INT, remote_leader, tag, rw, rsize, MPI_INT, remote_leader, tag,
			peer_comm, MPI_STATUS_IGNORE);
	MPI_Bcast(rw, rsize, MPI_INT, local_leader, local_comm);
	rc = ic_make(local_comm, rsize, rw, newintercomm);
	free(rw);
	MPI_Group_free(&g);
	if (rc == MPI_SUCCESS)
		inherit_eh(local_comm, *newintercomm);
	return rc;
}

/* MPI_Intercomm_merge orders the group that passed high = false first; when both passed
 * the same, the group whose rank 0 has the lower world rank, as MPICH does. */
MPI_FN int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
	const char *call = "MPI_Intercomm_merge";
	struct ic ic;
	int rhigh = 0, local_first, *lw, *rw, *merged, n, rc;
	unsigned long b[4];

	if ((rc = ic_get(call, intercomm, &ic)) != MPI_SUCCESS)
		return rc;
	high = high != 0;
	if (ic.rank == 0)
		MPI_Sendrecv(&high, 1, MPI_INT, 0, IC_MERGE, &rhigh, 1, MPI_INT, 0, IC_MERGE, ic.twin, MPI_STATUS_IGNORE);
	MPI_Bcast(&rhigh, 1, MPI_INT, 0, ic.local);
	n = ic.size + ic.remote_size;
	lw = (int *)dt_alloc(call, sizeof(int) * (long)ic.size);
	b[0] = W(ic.local);
	b[1] = W(lw);
	dpcl_mpi_comm_group((long)b);
	rw = ic_remote(call, intercomm, ic.remote_size);
	local_first = high != rhigh ? !high : lw[0] < rw[0];
	merged = (int *)dt_alloc(call, sizeof(int) * (long)n);
	memcpy(merged + (local_first ? 0 : ic.remote_size), lw, sizeof(int) * (long)ic.size);
	memcpy(merged + (local_first ? ic.size : 0), rw, sizeof(int) * (long)ic.remote_size);
	free(lw);
	free(rw);
	b[0] = W(ic.local);
	b[1] = W(n);
	b[2] = W(merged);
	b[3] = W(newintracomm);
	rc = dpcl_mpi_intercomm_merge((long)b);
	free(merged);
	if (rc == MPI_SUCCESS)
		inherit_eh(intercomm, *newintracomm);
	return rc;
}

MPI_FN int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
	struct ic ic;

	return ic_info(comm, &ic, flag);
}

/* On an intracommunicator the remote group is the group itself, as MPICH 4.0 answers. */
MPI_FN int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
	struct ic ic;
	int inter, rc = ic_info(comm, &ic, &inter);

	if (rc != MPI_SUCCESS)
		return rc;
	if (!inter)
		return MPI_Comm_size(comm, size);
	*size = ic.remote_size;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
	struct ic ic;
	int inter, rc = ic_info(comm, &ic, &inter);

	if (rc != MPI_SUCCESS)
		return rc;
	if (!inter)
		return MPI_Comm_group(comm, group);
	return group_new("MPI_Comm_remote_group", ic.remote_size, ic_remote("MPI_Comm_remote_group", comm,
		ic.remote_size), group);
}

/* ic_dup is MPI_Comm_dup of an intercommunicator: a new one between the same groups. */
static int ic_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	struct ic ic;
	int *rw, rc = ic_get("MPI_Comm_dup", comm, &ic);

	if (rc != MPI_SUCCESS)
		return rc;
	rw = ic_remote("MPI_Comm_dup", comm, ic.remote_size);
	rc = ic_make(ic.local, ic.remote_size, rw, newcomm);
	free(rw);
	return rc;
}

/* ic_split is MPI_Comm_split of an intercommunicator: each group splits by color and key,
 * and a part joins the other group's part of the same color; a rank whose color is
 * MPI_UNDEFINED or absent from the other group gets MPI_COMM_NULL. The leaders exchange
 * their groups' (color, key) pairs, so every rank knows the remote part's order. */
static int ic_split(const char *call, MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	struct ic ic;
	MPI_Comm part;
	int mine[2] = {color, key}, *lck, *rck, *rw, *list, cnt = 0, i, j, rc;

	if ((rc = ic_get(call, comm, &ic)) != MPI_SUCCESS)
		return rc;
	if ((rc = MPI_Comm_split(ic.local, color, key, &part)) != MPI_SUCCESS)
		return rc;
	lck = (int *)dt_alloc(call, sizeof(int) * 2 * (long)ic.size);
	rck = (int *)dt_alloc(call, sizeof(int) * 2 * (long)(ic.remote_size + 1));
	MPI_Gather(mine, 2, MPI_INT, lck, 2, MPI_INT, 0, ic.local);
	if (ic.rank == 0)
		MPI_Sendrecv(lck, 2 * ic.size, MPI_INT, 0, IC_SPLIT, rck, 2 * ic.remote_size, MPI_INT, 0, IC_SPLIT,
			ic.twin, MPI_STATUS_IGNORE);
	MPI_Bcast(rck, 2 * ic.remote_size, MPI_INT, 0, ic.local);
	rw = ic_remote(call, comm, ic.remote_size);
	list = (int *)dt_alloc(call, sizeof(int) * (long)(ic.remote_size + 1));
	/* The remote part in its rank order: by key, then by rank (an insertion sort is stable). */
	for (i = 0; color != MPI_UNDEFINED && i < ic.remote_size; i++) {
		if (rck[2 * i] != color)
			continue;
		for (j = cnt; j > 0 && rck[2 * list[j - 1] + 1] > rck[2 * i + 1]; j--)
			list[j] = list[j - 1];
		list[j] = i;
		cnt++;
	}
	for (i = 0; i < cnt; i++)
		list[i] = rw[list[i]];
	*newcomm = MPI_COMM_NULL;
	if (part != MPI_COMM_NULL && cnt > 0)
		rc = ic_make(part, cnt, list, newcomm);
	if (part != MPI_COMM_NULL)
		MPI_Comm_free(&part);
	free(lck);
	free(rck);
	free(rw);
	free(list);
	return rc;
}

/* ic_create is MPI_Comm_create of an intercommunicator: group is a subgroup of the local
 * group; it is ic_split with the members in the group's order. */
static int ic_create(MPI_Comm comm, int n, const int *w, MPI_Comm *newcomm)
{
	int me = dpcl_rank(), i;

	for (i = 0; i < n; i++)
		if (w[i] == me)
			return ic_split("MPI_Comm_create", comm, 0, i, newcomm);
	return ic_split("MPI_Comm_create", comm, MPI_UNDEFINED, 0, newcomm);
}

/* ic_buf allocates room for count elements of type, returning the buffer to pass to MPI
 * (*mem is what to free). */
static void *ic_buf(const char *call, int count, MPI_Datatype type, char **mem)
{
	MPI_Aint lb, ext, tlb, text;
	long bytes;

	MPI_Type_get_extent(type, &lb, &ext);
	MPI_Type_get_true_extent(type, &tlb, &text);
	bytes = count > 0 ? (long)(count - 1) * ext + text : 0;
	*mem = (char *)dt_alloc(call, bytes + 1);
	return *mem - tlb;
}

static int ic_barrier(MPI_Comm comm)
{
	struct ic ic;
	int rc = ic_get("MPI_Barrier", comm, &ic);

	if (rc != MPI_SUCCESS)
		return rc;
	MPI_Barrier(ic.local);
	if (ic.rank == 0)
		MPI_Sendrecv(NULL, 0, MPI_BYTE, 0, IC_BARRIER, NULL, 0, MPI_BYTE, 0, IC_BARRIER, ic.twin,
			MPI_STATUS_IGNORE);
	return MPI_Barrier(ic.local);
}

/* ic_root checks an intercommunicator collective's root: MPI_ROOT, MPI_PROC_NULL or a
 * rank of the remote group. */
static void ic_root(const char *call, struct ic *ic, int root)
{
	if (root != MPI_ROOT && root != MPI_PROC_NULL && (root < 0 || root >= ic->remote_size))
		lib_error(call, MPI_ERR_ROOT, "invalid root %d: neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group (size %d)",
			root, ic->remote_size);
}

static int ic_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
	struct ic ic;
	int rc = ic_get("MPI_Bcast", comm, &ic);

	if (rc != MPI_SUCCESS)
		return rc;
	ic_root("MPI_Bcast", &ic, root);
	if (root == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (root == MPI_ROOT)
		return MPI_Send(buf, count, type, 0, IC_BCAST, ic.twin);
	if (ic.rank == 0)
		MPI_Recv(buf, count, type, root, IC_BCAST, ic.twin, MPI_STATUS_IGNORE);
	return MPI_Bcast(buf, count, type, 0, ic.local);
}

static int ic_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
	MPI_Comm comm)
{
	struct ic ic;
	char *mem = NULL;
	void *tmp = NULL;
	int rc = ic_get("MPI_Reduce", comm, &ic);

	if (rc != MPI_SUCCESS)
		return rc;
	ic_root("MPI_Reduce", &ic, root);
	if (root == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (root == MPI_ROOT)
		return MPI_Recv(recvbuf, count, type, 0, IC_REDUCE, ic.twin, MPI_STATUS_IGNORE);
	if (ic.rank == 0)
		tmp = ic_buf("MPI_Reduce", count, type, &mem);
	rc = MPI_Reduce(sendbuf, tmp, count, type, op, 0, ic.local);
	if (rc == MPI_SUCCESS && ic.rank == 0)
		rc = MPI_Send(tmp, count, type, root, IC_REDUCE, ic.twin);
	free(mem);
	return rc;
}

/* ic_allreduce: each group reduces to its leader, the leaders swap, each leader
 * broadcasts the other group's result. */
static int ic_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm)
{
	struct ic ic;
	char *mem = NULL;
	void *tmp = NULL;
	int rc = ic_get("MPI_Allreduce", comm, &ic);

	if (rc != MPI_SUCCESS)
		return rc;
	if (ic.rank == 0)
		tmp = ic_buf("MPI_Allreduce", count, type, &mem);
	rc = MPI_Reduce(sendbuf, tmp, count, type, op, 0, ic.local);
	if (rc == MPI_SUCCESS && ic.rank == 0)
		rc = MPI_Sendrecv(tmp, count, type, 0, IC_ALLREDUCE, recvbuf, count, type, 0, IC_ALLREDUCE, ic.twin,
			MPI_STATUS_IGNORE);
	free(mem);
	if (rc != MPI_SUCCESS)
		return rc;
	return MPI_Bcast(recvbuf, count, type, 0, ic.local);
}

/* ic_reduce_scatter: the remote group's reduction, scattered over the local group by
 * recvcounts (one count per local rank). */
static int ic_reduce_scatter(const char *call, const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	struct ic ic;
	char *mem = NULL, *rmem = NULL;
	void *tmp = NULL, *res = NULL;
	int rc = ic_get(call, comm, &ic), total = 0, rtotal = 0, i, *displs;

	if (rc != MPI_SUCCESS)
		return rc;
	for (i = 0; i < ic.size; i++)
		total += recvcounts[i];
	/* The remote group's data are reduced over this group's total count. */
	if (ic.rank == 0) {
		MPI_Sendrecv(&total, 1, MPI_INT, 0, IC_REDSCAT, &rtotal, 1, MPI_INT, 0, IC_REDSCAT, ic.twin,
			MPI_STATUS_IGNORE);
		tmp = ic_buf(call, rtotal, type, &mem);
		res = ic_buf(call, total, type, &rmem);
	}
	MPI_Bcast(&rtotal, 1, MPI_INT, 0, ic.local);
	rc = MPI_Reduce(sendbuf, tmp, rtotal, type, op, 0, ic.local);
	if (rc == MPI_SUCCESS && ic.rank == 0)
		rc = MPI_Sendrecv(tmp, rtotal, type, 0, IC_REDSCAT, res, total, type, 0, IC_REDSCAT, ic.twin,
			MPI_STATUS_IGNORE);
	displs = (int *)dt_alloc(call, sizeof(int) * (long)ic.size);
	for (i = 0, total = 0; i < ic.size; i++) {
		displs[i] = total;
		total += recvcounts[i];
	}
	if (rc == MPI_SUCCESS)
		rc = MPI_Scatterv(res, recvcounts, displs, type, recvbuf, recvcounts[ic.rank], type, 0, ic.local);
	free(displs);
	free(mem);
	free(rmem);
	return rc;
}

/* ic_reduce_scatter_block is ic_reduce_scatter with recvcount for every local rank. */
static int ic_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm)
{
	const char *call = "MPI_Reduce_scatter_block";
	int size, i, rc, *counts;

	if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
		return rc;
	counts = (int *)dt_alloc(call, sizeof(int) * (long)size);
	for (i = 0; i < size; i++)
		counts[i] = recvcount;
	rc = ic_reduce_scatter(call, sendbuf, recvbuf, counts, type, op, comm);
	free(counts);
	return rc;
}

/* The rooted gathers and scatters: the root exchanges with every rank of the other group. */
static int ic_gatherv(const char *call, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int *recvcounts, const int *displs, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
	struct ic ic;
	int rc = ic_get(call, comm, &ic), i;

	if (rc != MPI_SUCCESS)
		return rc;
	ic_root(call, &ic, root);
	if (root == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (root != MPI_ROOT)
		return MPI_Send(sendbuf, sendcount, sendtype, root, IC_GATHER, ic.twin);
	for (i = 0; i < ic.remote_size && rc == MPI_SUCCESS; i++)
		rc = MPI_Recv((char *)recvbuf + dt_extent(recvtype) * (recvcounts ? displs[i] : (long)i * recvcount),
			recvcounts ? recvcounts[i] : recvcount, recvtype, i, IC_GATHER, ic.twin, MPI_STATUS_IGNORE);
	return rc;
}

static int ic_scatterv(const char *call, const void *sendbuf, const int *sendcounts, const int *displs,
	int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	MPI_Comm comm)
{
	struct ic ic;
	int rc = ic_get(call, comm, &ic), i;

	if (rc != MPI_SUCCESS)
		return rc;
	ic_root(call, &ic, root);
	if (root == MPI_PROC_NULL)
		return MPI_SUCCESS;
	if (root != MPI_ROOT)
		return MPI_Recv(recvbuf, recvcount, recvtype, root, IC_SCATTER, ic.twin, MPI_STATUS_IGNORE);
	for (i = 0; i < ic.remote_size && rc == MPI_SUCCESS; i++)
		rc = MPI_Send((const char *)sendbuf + dt_extent(sendtype) * (sendcounts ? displs[i] : (long)i * sendcount),
			sendcounts ? sendcounts[i] : sendcount, sendtype, i, IC_SCATTER, ic.twin);
	return rc;
}

/* ic_exchange is the all-to-all pattern every unrooted gather and all-to-all shares: rank
 * i of the remote group gets send piece i and sends receive piece i. Pieces are given by
 * byte offsets, counts and types. */
static int ic_exchange(const char *call, int tag, MPI_Comm comm, const void *sendbuf, const long *soff,
	const int *scounts, const MPI_Datatype *stypes, void *recvbuf, const long *roff, const int *rcounts,
	const MPI_Datatype *rtypes)
{
	struct ic ic;
	MPI_Request *reqs;
	int rc = ic_get(call, comm, &ic), i, n;

	if (rc != MPI_SUCCESS)
		return rc;
	n = ic.remote_size;
	reqs = (MPI_Request *)dt_alloc(call, sizeof(MPI_Request) * 2 * (long)(n + 1));
	for (i = 0; i < n && rc == MPI_SUCCESS; i++)
		rc = MPI_Irecv((char *)recvbuf + roff[i], rcounts[i], rtypes[i], i, tag, ic.twin, &reqs[i]);
	for (i = 0; i < n && rc == MPI_SUCCESS; i++)
		rc = MPI_Isend((const char *)sendbuf + soff[i], scounts[i], stypes[i], i, tag, ic.twin, &reqs[n + i]);
	if (rc == MPI_SUCCESS)
		rc = MPI_Waitall(2 * n, reqs, MPI_STATUSES_IGNORE);
	free(reqs);
	return rc;
}

/* ic_pieces fills the per-remote-rank layout for ic_exchange: counts (or one count for
 * all), displacements in elements (or consecutive blocks, or the same buffer when
 * same is set), types (or one type for all). */
struct ic_layout {
	long *off;
	int *counts;
	MPI_Datatype *types;
};

static void ic_pieces(const char *call, MPI_Comm comm, struct ic_layout *l, int count, const int *counts,
	const int *displs, int bytedispls, int same, MPI_Datatype type, const MPI_Datatype *types)
{
	struct ic ic;
	int i, n;

	ic_get(call, comm, &ic);
	n = ic.remote_size;
	l->off = (long *)dt_alloc(call, sizeof(long) * (long)(n + 1));
	l->counts = (int *)dt_alloc(call, sizeof(int) * (long)(n + 1));
	l->types = (MPI_Datatype *)dt_alloc(call, sizeof(MPI_Datatype) * (long)(n + 1));
	for (i = 0; i < n; i++) {
		MPI_Datatype t = types ? types[i] : type;
		l->types[i] = t;
		l->counts[i] = counts ? counts[i] : count;
		if (bytedispls)
			l->off[i] = displs[i];
		else if (displs)
			l->off[i] = (long)displs[i] * dt_extent(t);
		else
			l->off[i] = same ? 0 : (long)i * count * dt_extent(t);
	}
}

static void ic_free_layout(struct ic_layout *l)
{
	free(l->off);
	free(l->counts);
	free(l->types);
}

static int ic_alltoallw(const char *call, MPI_Comm comm, const void *sendbuf, struct ic_layout *s, void *recvbuf,
	struct ic_layout *r)
{
	int tag = strcmp(call, "MPI_Allgather") == 0 || strcmp(call, "MPI_Allgatherv") == 0 ? IC_ALLGATHER : IC_ALLTOALL;
	int rc = ic_exchange(call, tag, comm, sendbuf, s->off, s->counts, s->types, recvbuf, r->off, r->counts,
		r->types);

	ic_free_layout(s);
	ic_free_layout(r);
	return rc;
}

static int ic_allgatherv(const char *call, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, const int *recvcounts, const int *displs, MPI_Datatype recvtype, MPI_Comm comm)
{
	struct ic_layout s, r;

	ic_pieces(call, comm, &s, sendcount, NULL, NULL, 0, 1, sendtype, NULL);
	ic_pieces(call, comm, &r, recvcount, recvcounts, displs, 0, 0, recvtype, NULL);
	return ic_alltoallw(call, comm, sendbuf, &s, recvbuf, &r);
}

static int ic_alltoallv(const char *call, const void *sendbuf, int sendcount, const int *sendcounts,
	const int *sdispls, MPI_Datatype sendtype, void *recvbuf, int recvcount, const int *recvcounts,
	const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm)
{
	struct ic_layout s, r;

	ic_pieces(call, comm, &s, sendcount, sendcounts, sdispls, 0, 0, sendtype, NULL);
	ic_pieces(call, comm, &r, recvcount, recvcounts, rdispls, 0, 0, recvtype, NULL);
	return ic_alltoallw(call, comm, sendbuf, &s, recvbuf, &r);
}

static int ic_alltoallw_typed(const void *sendbuf, const int *sendcounts, const int *sdispls,
	const MPI_Datatype *sendtypes, void *recvbuf, const int *recvcounts, const int *rdispls,
	const MPI_Datatype *recvtypes, MPI_Comm comm)
{
	struct ic_layout s, r;

	ic_pieces("MPI_Alltoallw", comm, &s, 0, sendcounts, sdispls, 1, 0, MPI_BYTE, sendtypes);
	ic_pieces("MPI_Alltoallw", comm, &r, 0, recvcounts, rdispls, 1, 0, MPI_BYTE, recvtypes);
	return ic_alltoallw("MPI_Alltoallw", comm, sendbuf, &s, recvbuf, &r);
}

/* MPI_Comm_create_group: a collective of the group's members only. The engine names one
 * hidden communicator of those members per (comm, group, tag); duplicating it is the
 * members' collective. */
MPI_FN int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
	int n, *w, rc;
	MPI_Comm stage;
	unsigned long b[5];

	if (IS_INTER(comm))
		lib_error("MPI_Comm_create_group", MPI_ERR_COMM, "communicator %d is an intercommunicator", comm);
	group_get("MPI_Comm_create_group", group, &n, &w);
	if (!group_has(w, n, dpcl_rank())) {
		*newcomm = MPI_COMM_NULL;
		return MPI_SUCCESS;
	}
	b[0] = W(comm);
	b[1] = W(n);
	b[2] = W(w);
	b[3] = W(tag);
	b[4] = W(&stage);
	if ((rc = dpcl_mpi_group_stage((long)b)) != MPI_SUCCESS)
		return rc;
	b[0] = W(stage);
	b[1] = W(newcomm);
	rc = dpcl_mpi_comm_dup((long)b);
	if (rc == MPI_SUCCESS)
		inherit_eh(comm, *newcomm);
	return rc;
}

/* MPI_Comm_idup is a nonblocking collective: the engine makes the duplicate when the
 * last member enters and writes its handle when the request completes (the error handler
 * is MPI_COMM_WORLD's default then; attributes are not copied). An intercommunicator's is
 * its local group's nonblocking collective, paired with the remote group's at completion. */
MPI_FN int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
	unsigned long b[] = {W(comm), W(newcomm), W(request)};
	unsigned long ib[5];
	struct ic ic;
	int *rw, rc;

	if (!IS_INTER(comm))
		return dpcl_mpi_comm_idup((long)b);
	if ((rc = ic_get("MPI_Comm_idup", comm, &ic)) != MPI_SUCCESS)
		return rc;
	rw = ic_remote("MPI_Comm_idup", comm, ic.remote_size);
	ib[0] = W(ic.local);
	ib[1] = W(ic.remote_size);
	ib[2] = W(rw);
	ib[3] = W(newcomm);
	ib[4] = W(request);
	rc = dpcl_mpi_intercomm_idup((long)ib); /* the engine reads the members now */
	free(rw);
	return rc;
}

/* MPI_Comm_split_type: each rank of a Blue Gene/L job has its compute node's memory to
 * itself, so the shared-memory domain of MPI_COMM_TYPE_SHARED is the rank alone. That
 * node is the one hardware resource MPI 4.0's splits know ("mpi_shared_memory"):
 * MPI_COMM_TYPE_HW_GUIDED with another or no mpi_hw_resource_type gives MPI_COMM_NULL, and
 * MPI_COMM_TYPE_HW_UNGUIDED gives the node when it is smaller than comm, naming it in info. */
MPI_FN int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
	const char *call = "MPI_Comm_split_type", *node = "mpi_shared_memory";
	char value[MPI_MAX_INFO_VAL + 1];
	int color = dpcl_rank(), flag = 0, size, rc;

	switch (split_type) {
	case MPI_UNDEFINED:
		color = MPI_UNDEFINED;
		break;
	case MPI_COMM_TYPE_SHARED:
		break;
	case MPI_COMM_TYPE_HW_GUIDED:
		if (info != MPI_INFO_NULL)
			MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, value, &flag);
		if (!flag || strcmp(value, node) != 0)
			color = MPI_UNDEFINED;
		break;
	case MPI_COMM_TYPE_HW_UNGUIDED:
		if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
			return rc;
		if (size <= 1)
			color = MPI_UNDEFINED;
		break;
	default:
		return lib_return(call, comm, MPI_ERR_ARG, "invalid split_type: not MPI_COMM_TYPE_SHARED, _HW_GUIDED, _HW_UNGUIDED or MPI_UNDEFINED");
	}
	rc = MPI_Comm_split(comm, color, key, newcomm);
	if (rc == MPI_SUCCESS && split_type == MPI_COMM_TYPE_HW_UNGUIDED && *newcomm != MPI_COMM_NULL &&
		info != MPI_INFO_NULL)
		MPI_Info_set(info, "mpi_hw_resource_type", node);
	return rc;
}

/* Communicator hints: the machine's MPI acts on none, so MPI_Comm_set_info keeps none (as
 * MPICH ignores keys it does not know) and MPI_Comm_get_info returns an empty info; the
 * _with_info duplicates are MPI_Comm_dup and MPI_Comm_idup. */
MPI_FN int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	int size;

	(void)info;
	return MPI_Comm_size(comm, &size); /* only checks comm */
}

MPI_FN int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	int size, rc = MPI_Comm_size(comm, &size);

	if (rc != MPI_SUCCESS)
		return rc;
	return MPI_Info_create(info_used);
}

MPI_FN int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	(void)info;
	return MPI_Comm_dup(comm, newcomm);
}

MPI_FN int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
	(void)info;
	return MPI_Comm_idup(comm, newcomm, request);
}
