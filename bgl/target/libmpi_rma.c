/* libmpi_rma.c: the one-sided operations and synchronisation calls. Included by
 * libmpi_win.c.
 *
 * A buffer goes to the engine as a layout: {address, blocks, block list}, each block
 * {offset, predefined type, count}; a derived datatype's blocks are repeated count times
 * at its extent, so the engine reads and writes each side's memory in place. */

/* The kinds of dpcl_mpi_rma (bgl/abi/mpi_win.go). */
enum { DPCL_RMA_PUT, DPCL_RMA_GET, DPCL_RMA_ACC, DPCL_RMA_GACC, DPCL_RMA_CAS };

/* The kinds of dpcl_mpi_win_sync (bgl/abi/mpi_win.go). */
enum {
	DPCL_WIN_LOCK, DPCL_WIN_UNLOCK, DPCL_WIN_LOCK_ALL, DPCL_WIN_UNLOCK_ALL, DPCL_WIN_FLUSH,
	DPCL_WIN_FLUSH_ALL, DPCL_WIN_FLUSH_LOCAL, DPCL_WIN_FLUSH_LOCAL_ALL, DPCL_WIN_SYNC, DPCL_WIN_POST,
	DPCL_WIN_START, DPCL_WIN_COMPLETE, DPCL_WIN_WAIT, DPCL_WIN_TEST
};

struct layout {
	unsigned long w[3];
	unsigned long one[3];
	unsigned long *blk;
};

static void layout_make(const char *call, struct layout *l, const void *addr, int count, MPI_Datatype t)
{
	struct dtype *d;
	int k, i, n = 0;

	if (count < 0)
		lib_error(call, MPI_ERR_COUNT, "negative count %d", count);
	l->blk = NULL;
	if (!is_derived(t)) {
		l->one[0] = 0, l->one[1] = W(t), l->one[2] = W(count);
		l->w[0] = W(addr), l->w[1] = 1, l->w[2] = W(l->one);
		return;
	}
	d = dt_use(call, t);
	l->blk = (unsigned long *)dt_alloc(call, 3L * sizeof(unsigned long) * count * d->nblk);
	for (k = 0; k < count; k++)
		for (i = 0; i < d->nblk; i++, n++) {
			l->blk[3 * n] = W(k * d->extent + d->blk[i].off);
			l->blk[3 * n + 1] = W(d->blk[i].basic);
			l->blk[3 * n + 2] = W(d->blk[i].count);
		}
	l->w[0] = W(addr), l->w[1] = W(n), l->w[2] = W(l->blk);
}

/* rma issues one operation; origin and result are NULL where the operation has none. */
static int rma(const char *call, int kind, const void *origin, int ocount, MPI_Datatype otype, void *result,
	int rcount, MPI_Datatype rtype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op,
	const void *compare, MPI_Win win)
{
	struct layout o, r, t;
	unsigned long b[8];
	int rc;

	o.blk = r.blk = NULL;
	if (origin != NULL || kind == DPCL_RMA_PUT || kind == DPCL_RMA_ACC)
		layout_make(call, &o, origin, ocount, otype);
	if (result != NULL)
		layout_make(call, &r, result, rcount, rtype);
	layout_make(call, &t, (const void *)disp, tcount, ttype);
	b[0] = W(kind), b[1] = W(win), b[2] = W(target);
	b[3] = origin != NULL || kind == DPCL_RMA_PUT || kind == DPCL_RMA_ACC ? W(o.w) : 0;
	b[4] = result != NULL ? W(r.w) : 0;
	b[5] = W(t.w), b[6] = W(op), b[7] = W(compare);
	rc = dpcl_mpi_rma((long)b);
	free(o.blk);
	free(r.blk);
	free(t.blk);
	return rc;
}

MPI_FN int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	return rma("MPI_Put", DPCL_RMA_PUT, origin_addr, origin_count, origin_datatype, NULL, 0, 0,
		target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, NULL, win);
}

MPI_FN int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
	return rma("MPI_Get", DPCL_RMA_GET, NULL, 0, 0, origin_addr, origin_count, origin_datatype,
		target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, NULL, win);
}

MPI_FN int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	return rma("MPI_Accumulate", DPCL_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, 0,
		target_rank, target_disp, target_count, target_datatype, op, NULL, win);
}

MPI_FN int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	/* With MPI_NO_OP the origin buffer is not read (it may be NULL). */
	return rma("MPI_Get_accumulate", DPCL_RMA_GACC, op == MPI_NO_OP ? NULL : origin_addr, origin_count,
		origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp,
		target_count, target_datatype, op, NULL, win);
}

MPI_FN int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
	MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
	return rma("MPI_Fetch_and_op", DPCL_RMA_GACC, op == MPI_NO_OP ? NULL : origin_addr, 1, datatype,
		result_addr, 1, datatype, target_rank, target_disp, 1, datatype, op, NULL, win);
}

MPI_FN int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
	MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
	return rma("MPI_Compare_and_swap", DPCL_RMA_CAS, origin_addr, 1, datatype, result_addr, 1, datatype,
		target_rank, target_disp, 1, datatype, MPI_OP_NULL, compare_addr, win);
}

/* win_sync is one synchronisation call: {kind, win, rank, lock type, assert, group
 * size, group, flag}. */
static int win_sync(int kind, MPI_Win win, int rank, int lock_type, int assert, MPI_Group group, int *flag)
{
	unsigned long b[] = {W(kind), W(win), W(rank), W(lock_type), W(assert), 0, 0, W(flag)};
	int n = 0, *world = NULL;

	if (group != MPI_GROUP_NULL) {
		group_get(kind == DPCL_WIN_POST ? "MPI_Win_post" : "MPI_Win_start", group, &n, &world);
		b[5] = W(n), b[6] = W(world);
	}
	return dpcl_mpi_win_sync((long)b);
}

/* rma_request flushes the operation just issued and returns a complete request. */
static int rma_request(int rc, int target, MPI_Win win, MPI_Request *request)
{
	unsigned long b[] = {0, 0, W(MPI_BYTE), W(MPI_PROC_NULL), 0, W(MPI_COMM_SELF), W(request)};

	if (rc != MPI_SUCCESS)
		return rc;
	if ((rc = win_sync(DPCL_WIN_FLUSH, win, target, 0, 0, MPI_GROUP_NULL, NULL)) != MPI_SUCCESS)
		return rc;
	return dpcl_mpi_irecv((long)b);
}

MPI_FN int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	int rc = rma("MPI_Rput", DPCL_RMA_PUT, origin_addr, origin_count, origin_datatype, NULL, 0, 0,
		target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, NULL, win);

	return rma_request(rc, target_rank, win, request);
}

MPI_FN int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	int rc = rma("MPI_Rget", DPCL_RMA_GET, NULL, 0, 0, origin_addr, origin_count, origin_datatype,
		target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, NULL, win);

	return rma_request(rc, target_rank, win, request);
}

MPI_FN int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
	MPI_Request *request)
{
	int rc = rma("MPI_Raccumulate", DPCL_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, 0,
		target_rank, target_disp, target_count, target_datatype, op, NULL, win);

	return rma_request(rc, target_rank, win, request);
}

MPI_FN int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
	MPI_Request *request)
{
	int rc = rma("MPI_Rget_accumulate", DPCL_RMA_GACC, op == MPI_NO_OP ? NULL : origin_addr, origin_count,
		origin_datatype, result_addr, result_count, result_datatype, target_rank, target_disp,
		target_count, target_datatype, op, NULL, win);

	return rma_request(rc, target_rank, win, request);
}

MPI_FN int MPI_Win_fence(int assert, MPI_Win win)
{
	unsigned long b[] = {W(win), W(assert)};

	return dpcl_mpi_win_fence((long)b);
}

MPI_FN int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
	return win_sync(DPCL_WIN_POST, win, 0, 0, assert, group, NULL);
}

MPI_FN int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
	return win_sync(DPCL_WIN_START, win, 0, 0, assert, group, NULL);
}

MPI_FN int MPI_Win_complete(MPI_Win win)
{
	return win_sync(DPCL_WIN_COMPLETE, win, 0, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_wait(MPI_Win win)
{
	return win_sync(DPCL_WIN_WAIT, win, 0, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_test(MPI_Win win, int *flag)
{
	return win_sync(DPCL_WIN_TEST, win, 0, 0, 0, MPI_GROUP_NULL, flag);
}

MPI_FN int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
	return win_sync(DPCL_WIN_LOCK, win, rank, lock_type, assert, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_unlock(int rank, MPI_Win win)
{
	return win_sync(DPCL_WIN_UNLOCK, win, rank, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_lock_all(int assert, MPI_Win win)
{
	return win_sync(DPCL_WIN_LOCK_ALL, win, 0, 0, assert, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_unlock_all(MPI_Win win)
{
	return win_sync(DPCL_WIN_UNLOCK_ALL, win, 0, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_flush(int rank, MPI_Win win)
{
	return win_sync(DPCL_WIN_FLUSH, win, rank, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_flush_all(MPI_Win win)
{
	return win_sync(DPCL_WIN_FLUSH_ALL, win, 0, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_flush_local(int rank, MPI_Win win)
{
	return win_sync(DPCL_WIN_FLUSH_LOCAL, win, rank, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_flush_local_all(MPI_Win win)
{
	return win_sync(DPCL_WIN_FLUSH_LOCAL_ALL, win, 0, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN int MPI_Win_sync(MPI_Win win)
{
	return win_sync(DPCL_WIN_SYNC, win, 0, 0, 0, MPI_GROUP_NULL, NULL);
}

MPI_FN MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
	return base + disp;
}

MPI_FN MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
	return addr1 - addr2;
}
