/* libmpi_greq.c: generalized requests (MPI_Grequest_start/complete) and the status
 * setters their query callbacks use (MPI_Status_set_cancelled, MPI_Status_set_elements(_x)).
 * Included by libmpi.c before the Wait and Test calls.
 *
 * The engine keeps a generalized request as any other (mpi_greq.go): Wait, Test and their
 * array forms progress it with the rest, and only MPI_Grequest_complete completes it. The
 * program's callbacks run here, in the rank: when a Wait or Test frees a completed one,
 * its query callback fills the status the call returns, then its free callback runs; their
 * nonzero results are the call's error code (in MPI_ERROR with MPI_ERR_IN_STATUS for the
 * array forms). MPI_Request_free of one runs the free callback at once, complete or not,
 * as MPICH does; MPI_Cancel runs the cancel callback, telling it whether the request completed; and
 * MPI_Request_get_status of a completed one runs the query callback. */

enum { MAX_GREQS = 256 };
static struct greq {
	MPI_Request handle; /* the engine's; MPI_REQUEST_NULL when the slot is free */
	MPI_Grequest_query_function *query;
	MPI_Grequest_free_function *free_fn;
	MPI_Grequest_cancel_function *cancel;
	void *extra;
	int complete, freed; /* MPI_Grequest_complete called; MPI_Request_free called */
} greqs[MAX_GREQS];
static int greq_count;

static struct greq *greq_find(MPI_Request r)
{
	int i;

	if (greq_count == 0 || r == MPI_REQUEST_NULL)
		return NULL;
	for (i = 0; i < MAX_GREQS; i++)
		if (greqs[i].handle == r)
			return &greqs[i];
	return NULL;
}

static void greq_release(struct greq *g)
{
	g->handle = MPI_REQUEST_NULL;
	greq_count--;
}

MPI_FN int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
	MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
	unsigned long b[] = {W(request)};
	int i, rc;

	if (query_fn == NULL || free_fn == NULL || cancel_fn == NULL || request == NULL)
		return lib_return("MPI_Grequest_start", MPI_COMM_WORLD, MPI_ERR_ARG, "a callback or the request is NULL");
	for (i = 0; i < MAX_GREQS && greqs[i].handle != MPI_REQUEST_NULL; i++)
		;
	if (i == MAX_GREQS)
		return lib_return("MPI_Grequest_start", MPI_COMM_WORLD, MPI_ERR_NO_MEM, "too many generalized requests");
	if ((rc = dpcl_mpi_grequest_start((long)b)) != MPI_SUCCESS)
		return rc;
	greqs[i] = (struct greq){*request, query_fn, free_fn, cancel_fn, extra_state, 0, 0};
	greq_count++;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Grequest_complete(MPI_Request request)
{
	unsigned long b[] = {W(request)};
	struct greq *g = greq_find(request);
	int rc = dpcl_mpi_grequest_complete((long)b); /* the engine refuses a handle that is not one */

	if (rc != MPI_SUCCESS || g == NULL)
		return rc;
	g->complete = 1;
	if (g->freed)
		greq_release(g); /* its free callback ran at MPI_Request_free */
	return rc;
}

/* greq_where says where a Wait or Test call returns the status of request i. */
enum greq_kind { GREQ_ONE, GREQ_ALL, GREQ_SOME };
struct greq_where {
	enum greq_kind kind;
	MPI_Status *st;
	const int *indices, *outcount; /* GREQ_SOME */
};

#define GREQ_AT(kind, st, indices, outcount) ((struct greq_where){(kind), (st), (indices), (outcount)})

static MPI_Status *greq_status(struct greq_where w, int i)
{
	int k;

	if (w.st == MPI_STATUS_IGNORE || w.st == NULL)
		return NULL;
	switch (w.kind) {
	case GREQ_ONE:
		return w.st;
	case GREQ_ALL:
		return w.st + i;
	case GREQ_SOME:
		for (k = 0; k < *w.outcount; k++)
			if (w.indices[k] == i)
				return w.st + k;
	}
	return NULL;
}

/* greq_settle runs the callbacks of the generalized requests a Wait or Test call just
 * freed (before[i] one, after[i] MPI_REQUEST_NULL) and returns the call's result. */
static int greq_settle(const MPI_Request *before, const MPI_Request *after, int n, struct greq_where w, int rc)
{
	MPI_Status local, *st;
	struct greq *g;
	int i, err;

	for (i = 0; i < n; i++) {
		if (after[i] != MPI_REQUEST_NULL || (g = greq_find(before[i])) == NULL)
			continue;
		st = greq_status(w, i);
		if (st == NULL)
			st = &local;
		err = g->query(g->extra, st);
		if (g->free_fn(g->extra) != MPI_SUCCESS && err == MPI_SUCCESS)
			err = MPI_ERR_OTHER;
		greq_release(g);
		if (err == MPI_SUCCESS)
			continue;
		if (w.kind == GREQ_ONE) {
			rc = err;
			continue;
		}
		st->MPI_ERROR = err;
		rc = MPI_ERR_IN_STATUS;
	}
	return rc;
}

/* greq_free is MPI_Request_free of generalized request g: the free callback runs now,
 * complete or not, as with MPICH; an incomplete one's handle stays valid for
 * MPI_Grequest_complete. */
static int greq_free(struct greq *g, MPI_Request *request)
{
	unsigned long b[] = {W(request)};
	int rc = dpcl_mpi_request_free((long)b);

	if (rc != MPI_SUCCESS)
		return rc;
	g->freed = 1;
	rc = g->free_fn(g->extra);
	if (g->complete)
		greq_release(g);
	return rc;
}

MPI_FN int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
	if (status == NULL || status == MPI_STATUS_IGNORE)
		return lib_return("MPI_Status_set_cancelled", MPI_COMM_WORLD, MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
	if (flag)
		status->count |= (int)0x80000000u;
	else
		status->count &= 0x7fffffff;
	return MPI_SUCCESS;
}

/* elements_bytes is the byte count whose MPI_Get_elements in type is count: whole copies
 * of the type, then the leading blocks of one more (dt_elements' inverse). */
static long long elements_bytes(MPI_Datatype type, MPI_Count count)
{
	struct dtype *d;
	long long per = 0, bytes, k;
	int i;

	if (!is_derived(type))
		return count * MPI__TYPE_SIZE(type);
	d = dt_get("MPI_Status_set_elements", type);
	for (i = 0; i < d->nblk; i++)
		per += d->blk[i].count;
	if (per == 0)
		return 0;
	bytes = count / per * dt_size(type);
	count %= per;
	for (i = 0; i < d->nblk && count > 0; i++) {
		k = count < d->blk[i].count ? count : d->blk[i].count;
		bytes += k * MPI__TYPE_SIZE(d->blk[i].basic);
		count -= k;
	}
	return bytes;
}

MPI_FN int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
	char what[128];
	long long bytes;

	if (status == NULL || status == MPI_STATUS_IGNORE)
		return lib_return("MPI_Status_set_elements", MPI_COMM_WORLD, MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
	bytes = count < 0 ? -1 : elements_bytes(type, count);
	if (bytes < 0 || bytes > 0x7fffffff) {
		/* The count word keeps bit 31 for MPI_Test_cancelled. */
		snprintf(what, sizeof what, "count %lld: a status holds at most 2^31-1 bytes", (long long)count);
		return lib_return("MPI_Status_set_elements", MPI_COMM_WORLD, MPI_ERR_COUNT, what);
	}
	status->count = (int)((status->count & 0x80000000u) | (unsigned)bytes);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
	return MPI_Status_set_elements_x(status, type, count);
}
