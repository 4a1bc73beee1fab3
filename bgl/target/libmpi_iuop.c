/* libmpi_iuop.c: the nonblocking reductions with a user operation (MPI_Ireduce,
 * Iallreduce, Iscan, Iexscan, Ireduce_scatter(_block)), whose function lives in this
 * process, so the engine cannot apply it. The call posts the engine's Igather (Ireduce)
 * or Iallgather of every rank's contribution, its whole extent as bytes, so derived types
 * travel too, into a scratch buffer; the Wait or Test that completes the request folds
 * the contributions as the blocking forms do (libmpi_types.c's user_reduce: right to left
 * over ranks [0, last], the last being the caller's rank for a scan), so the results are
 * the blocking ones, in MPICH's order for a non-commutative operation. The function is
 * taken at the call, so the operation may be freed before the Wait; a derived type is
 * held until the fold. Included by libmpi.c after libmpi_after.c. */

enum iuop_kind { IUOP_REDUCE, IUOP_ALLREDUCE, IUOP_SCAN, IUOP_EXSCAN, IUOP_REDUCE_SCATTER };

/* iuop is one pending fold: the contributions of ranks [0, last] in all, count elements
 * of type each, folded in a scratch copy; elements [keep, keep + nkeep) of the result go
 * to recvbuf (all of them but for a reduce-scatter, none for a non-root of Ireduce). */
struct iuop {
	MPI_User_function *fn;
	MPI_Datatype type;
	int count, last, keep, nkeep;
	long bytes;
	char *all;
	void *recvbuf;
};

/* iuop_run folds and copies the kept elements out; a derived type's holes in recvbuf
 * are left as they are, as MPICH leaves them. */
static void iuop_run(void *p)
{
	struct iuop *f = (struct iuop *)p;
	MPI_Datatype type = f->type;
	int len = f->count, i;
	long ext = dt_extent(type);
	char *acc;

	if (f->last >= 0 && f->nkeep > 0) {
		acc = dt_alloc("MPI_Wait", f->bytes);
		memcpy(acc, f->all + f->last * f->bytes, f->bytes);
		for (i = f->last - 1; i >= 0; i--)
			f->fn(f->all + i * f->bytes, acc, &len, &type);
		if (is_derived(type)) {
			char *packed = dt_alloc("MPI_Wait", dt_size(type) * f->nkeep);
			long n = dt_pack_into("MPI_Wait", acc + f->keep * ext, f->nkeep, type, packed);

			dt_unpack(packed, (int)n, f->recvbuf, f->nkeep, type);
			free(packed);
		} else {
			memcpy(f->recvbuf, acc + f->keep * ext, f->nkeep * ext);
		}
		free(acc);
	}
	free(f->all);
	dt_unref(f->type);
	free(f);
}

/* iuop_start posts the gathering of a user reduction of kind and registers its fold.
 * recvcounts is the reduce-scatter's (count is then their sum). */
static int iuop_start(const char *call, enum iuop_kind kind, const void *sendbuf, void *recvbuf, int count,
	const int *recvcounts, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
	struct iuop *f;
	int rank, size, i, rc;
	long ext;
	const void *src = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

	if (op - MPI__USER_OP >= MAX_OPS || user_ops[op - MPI__USER_OP].fn == NULL)
		lib_error(call, MPI_ERR_OP, "invalid operation %d", op);
	if (count < 0)
		lib_error(call, MPI_ERR_COUNT, "invalid count %d", count);
	if (is_derived(type))
		dt_use(call, type);
	if (request == NULL)
		lib_error(call, MPI_ERR_REQUEST, "request is NULL");
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	ext = dt_extent(type);
	f = (struct iuop *)dt_alloc(call, sizeof *f);
	f->fn = user_ops[op - MPI__USER_OP].fn;
	f->type = type;
	f->count = count;
	f->bytes = count * ext;
	f->all = dt_alloc(call, f->bytes * size);
	f->recvbuf = recvbuf;
	f->keep = 0;
	f->nkeep = count;
	switch (kind) {
	case IUOP_REDUCE:
		f->last = rank == root ? size - 1 : -1; /* only the root folds */
		break;
	case IUOP_SCAN:
		f->last = rank;
		break;
	case IUOP_EXSCAN:
		f->last = rank - 1; /* rank 0's receive buffer is left as it is */
		break;
	case IUOP_REDUCE_SCATTER:
		f->last = size - 1;
		for (i = 0; i < rank; i++)
			f->keep += recvcounts[i];
		f->nkeep = recvcounts[rank];
		break;
	default:
		f->last = size - 1;
	}
	dt_ref(type);
	if (kind == IUOP_REDUCE) {
		unsigned long b[] = {W(src), W(f->bytes), W(MPI_BYTE), W(f->all), W(f->bytes), W(MPI_BYTE), W(root),
			W(comm), W(request)};

		rc = dpcl_mpi_igather((long)b);
	} else {
		unsigned long b[] = {W(src), W(f->bytes), W(MPI_BYTE), W(f->all), W(f->bytes), W(MPI_BYTE), W(comm),
			W(request)};

		rc = dpcl_mpi_iallgather((long)b);
	}
	after_add(call, *request, iuop_run, f);
	return rc;
}

/* iuop_reduce_scatter checks recvcounts and starts the reduction of their sum. */
static int iuop_reduce_scatter(const char *call, const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	int size, i, total = 0;

	MPI_Comm_size(comm, &size);
	for (i = 0; i < size; i++) {
		if (recvcounts[i] < 0)
			lib_error(call, MPI_ERR_COUNT, "invalid recvcounts[%d] = %d", i, recvcounts[i]);
		total += recvcounts[i];
	}
	return iuop_start(call, IUOP_REDUCE_SCATTER, sendbuf, recvbuf, total, recvcounts, type, op, 0, comm, request);
}

static int iuop_reduce_scatter_block(const char *call, const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
	int size, i, rc, *counts;

	MPI_Comm_size(comm, &size);
	counts = (int *)dt_alloc(call, sizeof(int) * (long)size);
	for (i = 0; i < size; i++)
		counts[i] = recvcount;
	rc = iuop_reduce_scatter(call, sendbuf, recvbuf, counts, type, op, comm, request);
	free(counts);
	return rc;
}
