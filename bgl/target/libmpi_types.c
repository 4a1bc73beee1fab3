/* libmpi_types.c: derived datatypes, user operations and library-detected errors.
 * Included by libmpi.c (one object, so every program links every MPI function).
 *
 * A derived datatype is a list of blocks (offset, predefined type, count) with an extent;
 * the library packs a buffer of it into contiguous bytes before a send or a broadcast and
 * unpacks after a receive, so the engine only ever sees MPI_BYTE. A nonblocking receive
 * of a derived type lands in a packed buffer, unpacked when a Wait or Test frees it.
 *
 * A user operation (MPI_Op_create) runs in the program: the contributions are gathered
 * with MPI_Allgather and folded in rank order, right to left as the standard's
 * (v0 op v1 op ... op vn-1) requires for a non-commutative function. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lib_error ends the job for an error the library detects, as MPI_ERRORS_ARE_FATAL does:
 * one line naming rank, call and argument, then MPI_Abort with the error class. */
static void lib_error(const char *call, int class, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	unsigned long b[] = {W(MPI_COMM_WORLD), W(class)};

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "dpclsh: rank %d: %s: %s (error class %d)\n", dpcl_rank(), call, msg, class);
	fflush(stderr);
	dpcl_mpi_abort((long)b);
}

struct dt_block {
	long off;
	MPI_Datatype basic;
	int count;
};

struct dtype {
	int used, committed, nblk;
	/* handles: the program's handles to the type (one from its constructor, one more for
	 * each MPI_Type_get_contents that returns it), each given back by an MPI_Type_free.
	 * refs: the library's uses (persistent requests, receives of derived types not yet
	 * unpacked, the envelopes of types built on it). The type lives while either
	 * remains, as the standard lets a program free a type an operation still uses. */
	int handles, refs;
	struct dt_block *blk;
	long lb, extent, size;
	/* The constructor's call, for MPI_Type_get_envelope and get_contents. */
	int combiner, ni, na, nd;
	int *ints;
	MPI_Aint *aints;
	MPI_Datatype *types;
	char *name; /* MPI_Type_set_name's, or NULL */
};

/* The table of derived types grows as a program needs (a handle is MPI__DERIVED plus its
 * index), so a struct dtype pointer is good only until the next dt_new. */
static struct dtype *dtypes;
static int ndtypes;

static int is_derived(MPI_Datatype t)
{
	return t >= MPI__DERIVED;
}

static struct dtype *dt_get(const char *call, MPI_Datatype t)
{
	int i = t - MPI__DERIVED;

	if (i < 0 || i >= ndtypes || !dtypes[i].used)
		lib_error(call, MPI_ERR_TYPE, "invalid datatype %d", t);
	return &dtypes[i];
}

static long dt_extent(MPI_Datatype t)
{
	return is_derived(t) ? dt_get("MPI_Type_get_extent", t)->extent : MPI__TYPE_SIZE(t);
}

static long dt_size(MPI_Datatype t)
{
	return is_derived(t) ? dt_get("MPI_Type_size", t)->size : MPI__TYPE_SIZE(t);
}

static long dt_lb(MPI_Datatype t)
{
	return is_derived(t) ? dt_get("MPI_Type_get_extent", t)->lb : 0;
}

/* dt_span gives the bounds [*lo, *hi) of n elements of old from byte disp on, one extent
 * apart; a negative extent lays them downwards (MPICH's MPII_DATATYPE_BLOCK_LB_UB). */
static void dt_span(long disp, long n, MPI_Datatype old, long *lo, long *hi)
{
	long lb = dt_lb(old) + disp, ext = dt_extent(old), ub = lb + ext;

	*lo = lb;
	*hi = ub;
	if (n > 0 && ub >= lb)
		*hi += ext * (n - 1);
	else if (n > 0)
		*lo += ext * (n - 1);
}

/* dt_widen makes [lo, hi) part of d's bounds; *first says d has none yet. */
static void dt_widen(struct dtype *d, int *first, long lo, long hi)
{
	long ub = d->lb + d->extent;

	if (*first || lo < d->lb)
		d->lb = lo;
	if (*first || hi > ub)
		ub = hi;
	*first = 0;
	d->extent = ub - d->lb;
}

/* dt_push adds block b to d's n blocks, merged into the last when it continues it (the
 * same basic type right after it), so a contiguous run stays one block however long. */
static void dt_push(struct dtype *d, struct dt_block b)
{
	struct dt_block *last = d->nblk > 0 ? &d->blk[d->nblk - 1] : NULL;

	if (last != NULL && last->basic == b.basic && last->off + (long)last->count * MPI__TYPE_SIZE(b.basic) == b.off &&
		(long long)last->count + b.count <= 0x7fffffff) {
		last->count += b.count;
		return;
	}
	d->blk[d->nblk++] = b;
}

/* dt_run is t as one run of its basic type when it is one (a predefined type, or a derived
 * type of one block filling its extent): its first block in *b, and 1; else 0. */
static int dt_run(MPI_Datatype t, struct dt_block *b)
{
	struct dtype *o;

	if (!is_derived(t)) {
		struct dt_block one = {0, t, 1};

		*b = one;
		return 1;
	}
	o = dt_get("MPI_Type", t);
	if (o->nblk != 1 || (long)o->blk[0].count * MPI__TYPE_SIZE(o->blk[0].basic) != o->extent)
		return 0;
	*b = o->blk[0];
	return 1;
}

/* dt_append adds reps copies of type t's blocks, copy k at base + k*stride; reps copies
 * of one run laid end to end are one block of reps times its count. */
static int dt_append(struct dtype *d, MPI_Datatype t, long base, int reps, long stride)
{
	int k, i, n = is_derived(t) ? dt_get("MPI_Type", t)->nblk : 1, merged = 0;
	struct dt_block *nb, run = {0, MPI_BYTE, 0};
	long long blocks = (long long)n * reps;

	/* Nothing to add: realloc to zero bytes would free the blocks kept so far. */
	if (blocks == 0)
		return MPI_SUCCESS;
	if (dt_run(t, &run) && stride == (long)run.count * MPI__TYPE_SIZE(run.basic) &&
		(long long)run.count * reps <= 0x7fffffff) {
		blocks = 1;
		run.off += base;
		run.count *= reps;
		merged = 1;
	}
	if ((d->nblk + blocks) * (long long)sizeof *nb > 0x7fffffffLL)
		return MPI_ERR_OTHER;
	nb = realloc(d->blk, sizeof *nb * (d->nblk + (long)blocks));
	if (nb == NULL)
		return MPI_ERR_OTHER;
	d->blk = nb;
	d->size += dt_size(t) * reps;
	if (merged) {
		dt_push(d, run);
		return MPI_SUCCESS;
	}
	for (k = 0; k < reps; k++)
		for (i = 0; i < n; i++) {
			struct dt_block b = {0, t, 1};

			if (is_derived(t))
				b = dtypes[t - MPI__DERIVED].blk[i];
			b.off += base + k * stride;
			dt_push(d, b);
		}
	return MPI_SUCCESS;
}

static struct dtype *dt_new(const char *call, MPI_Datatype *out)
{
	int i;

	if (out == NULL)
		lib_error(call, MPI_ERR_ARG, "newtype is NULL");
	for (i = 0; i < ndtypes && dtypes[i].used; i++)
		;
	if (i == ndtypes) {
		int n = ndtypes == 0 ? 256 : 2 * ndtypes;
		struct dtype *t = realloc(dtypes, sizeof *t * n);

		if (t == NULL)
			lib_error(call, MPI_ERR_OTHER, "no memory for more than %d derived datatypes", ndtypes);
		memset(t + ndtypes, 0, sizeof *t * (n - ndtypes));
		dtypes = t;
		ndtypes = n;
	}
	memset(&dtypes[i], 0, sizeof dtypes[i]);
	dtypes[i].used = 1;
	dtypes[i].handles = 1;
	*out = MPI__DERIVED + i;
	return &dtypes[i];
}

static void dt_check_old(const char *call, MPI_Datatype t, int count)
{
	if (count < 0)
		lib_error(call, MPI_ERR_COUNT, "invalid count %d", count);
	if (t == MPI_DATATYPE_NULL || (!is_derived(t) && MPI__TYPE_SIZE(t) == 0))
		lib_error(call, MPI_ERR_TYPE, "invalid datatype %d", t);
	if (is_derived(t))
		dt_get(call, t);
}

static void dt_ref(MPI_Datatype t);

/* dt_record keeps a constructor's arguments: the integers as up to three runs (n, array),
 * then the addresses and the datatypes. */
static void dt_record_v(struct dtype *d, int combiner, const int *iv[3], const int in[3], int na,
	const MPI_Aint *aints, int nd, const MPI_Datatype *types)
{
	int k, ni = in[0] + in[1] + in[2];

	d->combiner = combiner;
	for (k = 0; k < nd; k++)
		dt_ref(types[k]); /* the envelope names them while d lives */
	d->ni = ni;
	d->na = na;
	d->nd = nd;
	d->ints = malloc(sizeof(int) * ni + 1);
	d->aints = malloc(sizeof(MPI_Aint) * na + 1);
	d->types = malloc(sizeof(MPI_Datatype) * nd + 1);
	if (d->ints == NULL || d->aints == NULL || d->types == NULL)
		lib_error("MPI_Type", MPI_ERR_OTHER, "no memory for a datatype's envelope");
	for (ni = 0, k = 0; k < 3; k++) {
		if (in[k] > 0)
			memcpy(d->ints + ni, iv[k], sizeof(int) * in[k]);
		ni += in[k];
	}
	if (na > 0)
		memcpy(d->aints, aints, sizeof(MPI_Aint) * na);
	if (nd > 0)
		memcpy(d->types, types, sizeof(MPI_Datatype) * nd);
}

static void dt_record(struct dtype *d, int combiner, int n0, const int *i0, int n1, const int *i1,
	int n2, const int *i2, int na, const MPI_Aint *aints, int nd, const MPI_Datatype *types)
{
	const int *iv[3] = {i0, i1, i2};
	const int in[3] = {n0, n1, n2};

	dt_record_v(d, combiner, iv, in, na, aints, nd, types);
}

MPI_FN int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct dtype *d;

	dt_check_old("MPI_Type_contiguous", oldtype, count);
	d = dt_new("MPI_Type_contiguous", newtype);
	dt_record(d, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 0, NULL, 0, NULL, 1, &oldtype);
	if (count > 0) {
		int first = 1;
		long lo, hi;

		dt_span(0, count, oldtype, &lo, &hi);
		dt_widen(d, &first, lo, hi);
	}
	return dt_append(d, oldtype, 0, count, dt_extent(oldtype));
}

MPI_FN int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype)
{
	struct dtype *d;
	long ext = dt_extent(oldtype);
	int i, rc = MPI_SUCCESS, first = 1;

	dt_check_old("MPI_Type_vector", oldtype, count);
	if (blocklength < 0)
		lib_error("MPI_Type_vector", MPI_ERR_ARG, "invalid blocklength %d", blocklength);
	d = dt_new("MPI_Type_vector", newtype);
	dt_record(d, MPI_COMBINER_VECTOR, 1, &count, 1, &blocklength, 1, &stride, 0, NULL, 1, &oldtype);
	for (i = 0; i < count && rc == MPI_SUCCESS; i++) {
		long lo, hi;

		rc = dt_append(d, oldtype, (long)i * stride * ext, blocklength, ext);
		if (blocklength > 0) {
			dt_span((long)i * stride * ext, blocklength, oldtype, &lo, &hi);
			dt_widen(d, &first, lo, hi);
		}
	}
	return rc;
}

MPI_FN int MPI_Type_indexed(int count, const int blocklengths[], const int displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct dtype *d;
	long ext = dt_extent(oldtype), lo, hi;
	int i, rc = MPI_SUCCESS, first = 1;

	dt_check_old("MPI_Type_indexed", oldtype, count);
	d = dt_new("MPI_Type_indexed", newtype);
	dt_record(d, MPI_COMBINER_INDEXED, 1, &count, count, blocklengths, count, displs, 0, NULL, 1, &oldtype);
	for (i = 0; i < count && rc == MPI_SUCCESS; i++) {
		if (blocklengths[i] < 0)
			lib_error("MPI_Type_indexed", MPI_ERR_ARG, "invalid blocklengths[%d] = %d", i, blocklengths[i]);
		rc = dt_append(d, oldtype, (long)displs[i] * ext, blocklengths[i], ext);
		/* Empty blocks do not bound the type (as MPICH). */
		if (blocklengths[i] == 0)
			continue;
		dt_span((long)displs[i] * ext, blocklengths[i], oldtype, &lo, &hi);
		dt_widen(d, &first, lo, hi);
	}
	return rc;
}

/* align is the C alignment of a predefined type on the 32-bit PowerPC ABI. */
static long align_of(MPI_Datatype t)
{
	switch (t) {
	case MPI_DOUBLE_INT:
		return 8;
	/* A complex number aligns as its parts; long double (and what holds it) on 16. */
	case MPI_C_FLOAT_COMPLEX: case MPI_CXX_FLOAT_COMPLEX: case MPI_COMPLEX: case MPI_COMPLEX8:
		return 4;
	case MPI_LONG_DOUBLE: case MPI_LONG_DOUBLE_INT: case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX:
		return 16;
	}
	return MPI__TYPE_SIZE(t) > 8 ? 8 : MPI__TYPE_SIZE(t);
}

MPI_FN int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displs[],
	const MPI_Datatype types[], MPI_Datatype *newtype)
{
	struct dtype *d;
	long lo, hi, al = 1;
	int i, k, rc = MPI_SUCCESS, first = 1;

	if (count < 0)
		lib_error("MPI_Type_create_struct", MPI_ERR_COUNT, "invalid count %d", count);
	for (i = 0; i < count; i++)
		dt_check_old("MPI_Type_create_struct", types[i], blocklengths[i]);
	d = dt_new("MPI_Type_create_struct", newtype);
	dt_record(d, MPI_COMBINER_STRUCT, 1, &count, count, blocklengths, 0, NULL, count, displs, count, types);
	for (i = 0; i < count && rc == MPI_SUCCESS; i++) {
		long ext = dt_extent(types[i]);

		rc = dt_append(d, types[i], displs[i], blocklengths[i], ext);
		if (blocklengths[i] == 0)
			continue;
		dt_span(displs[i], blocklengths[i], types[i], &lo, &hi);
		dt_widen(d, &first, lo, hi);
		if (is_derived(types[i])) {
			for (k = 0; k < dtypes[types[i] - MPI__DERIVED].nblk; k++)
				if (align_of(dtypes[types[i] - MPI__DERIVED].blk[k].basic) > al)
					al = align_of(dtypes[types[i] - MPI__DERIVED].blk[k].basic);
		} else if (align_of(types[i]) > al) {
			al = align_of(types[i]);
		}
	}
	/* The extent is padded to the strictest member alignment, as a C struct's size is. */
	d->extent = (d->extent + al - 1) / al * al;
	return rc;
}

/* Committing a predefined type is allowed and does nothing (MPI 4.0, 5.1.9). */
MPI_FN int MPI_Type_commit(MPI_Datatype *type)
{
	if (type == NULL || *type == MPI_DATATYPE_NULL || (!is_derived(*type) && MPI__TYPE_SIZE(*type) == 0))
		lib_error("MPI_Type_commit", MPI_ERR_TYPE, "invalid datatype");
	if (is_derived(*type))
		dt_get("MPI_Type_commit", *type)->committed = 1;
	return MPI_SUCCESS;
}

static void dt_unref(MPI_Datatype t);

/* dt_unrecord drops a type's envelope and with it the uses of the types it names. */
static void dt_unrecord(struct dtype *d)
{
	MPI_Datatype *types = d->types;
	int k, nd = d->nd;

	free(d->ints);
	free(d->aints);
	d->ints = NULL;
	d->aints = NULL;
	d->types = NULL;
	d->ni = d->na = d->nd = 0;
	for (k = 0; k < nd; k++)
		dt_unref(types[k]);
	free(types);
}

/* dt_release gives back a derived type's memory and its handle. */
static void dt_release(struct dtype *d)
{
	free(d->blk);
	free(d->name);
	dt_unrecord(d);
	memset(d, 0, sizeof *d);
}

/* dt_ref and dt_unref count the library's uses of type t (predefined types need none). */
static void dt_ref(MPI_Datatype t)
{
	if (is_derived(t))
		dt_get("MPI_Type", t)->refs++;
}

static void dt_unref(MPI_Datatype t)
{
	struct dtype *d;

	if (!is_derived(t))
		return;
	d = dt_get("MPI_Type", t);
	if (--d->refs == 0 && d->handles == 0)
		dt_release(d);
}

/* MPI_Type_free gives back one of the program's handles; the last takes the attributes. */
MPI_FN int MPI_Type_free(MPI_Datatype *type)
{
	struct dtype *d;
	int rc;

	if (type == NULL || !is_derived(*type))
		lib_error("MPI_Type_free", MPI_ERR_TYPE, "not a derived datatype");
	d = dt_get("MPI_Type_free", *type);
	if (d->handles == 0)
		lib_error("MPI_Type_free", MPI_ERR_TYPE, "datatype %d was already freed", *type);
	if (d->handles == 1 && (rc = tattrs_delete_all(*type)) != MPI_SUCCESS)
		return rc;
	d = dt_get("MPI_Type_free", *type); /* a delete callback may have made types */
	if (--d->handles == 0 && d->refs == 0)
		dt_release(d);
	*type = MPI_DATATYPE_NULL;
	return MPI_SUCCESS;
}

/* dt_data_size is what MPI_Type_size answers: the bytes of data, which for a
 * MINLOC/MAXLOC pair type leave out the padding its extent (which the library strides
 * and moves by) has. */
static long dt_data_size(MPI_Datatype t)
{
	switch (t) {
	case MPI_DOUBLE_INT:
		return 12;
	case MPI_SHORT_INT:
		return 6;
	case MPI_LONG_DOUBLE_INT:
		return 20;
	}
	return dt_size(t);
}

MPI_FN int MPI_Type_size(MPI_Datatype type, int *size)
{
	if (!is_derived(type) && MPI__TYPE_SIZE(type) == 0)
		lib_error("MPI_Type_size", MPI_ERR_TYPE, "invalid datatype %d", type);
	*size = (int)dt_data_size(type);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
	if (!is_derived(type) && MPI__TYPE_SIZE(type) == 0)
		lib_error("MPI_Type_get_extent", MPI_ERR_TYPE, "invalid datatype %d", type);
	*lb = is_derived(type) ? dt_get("MPI_Type_get_extent", type)->lb : 0;
	*extent = dt_extent(type);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Get_address(const void *location, MPI_Aint *address)
{
	*address = (MPI_Aint)location;
	return MPI_SUCCESS;
}

/* dt_use checks a derived type may carry data (committed) and returns it. */
static struct dtype *dt_use(const char *call, MPI_Datatype t)
{
	struct dtype *d = dt_get(call, t);

	if (!d->committed)
		lib_error(call, MPI_ERR_TYPE, "datatype %d is not committed", t);
	return d;
}

/* dt_pack_into copies count elements of type t at buf to out, contiguous; it returns the
 * bytes written. A predefined type is copied as it is. */
static long dt_pack_into(const char *call, const void *buf, int count, MPI_Datatype t, char *out)
{
	struct dtype *d;
	char *p = out;
	int k, i;

	if (!is_derived(t)) {
		memcpy(out, buf, (long)count * MPI__TYPE_SIZE(t));
		return (long)count * MPI__TYPE_SIZE(t);
	}
	d = dt_use(call, t);
	for (k = 0; k < count; k++)
		for (i = 0; i < d->nblk; i++) {
			long n = (long)d->blk[i].count * MPI__TYPE_SIZE(d->blk[i].basic);

			memcpy(p, (const char *)buf + k * d->extent + d->blk[i].off, n);
			p += n;
		}
	return p - out;
}

/* dt_alloc is malloc that ends the job, naming the call, when memory runs out. */
static char *dt_alloc(const char *call, long bytes)
{
	char *p = malloc(bytes + 1);

	if (p == NULL)
		lib_error(call, MPI_ERR_OTHER, "no memory for %ld bytes", bytes);
	return p;
}

/* dt_pack copies count elements of type t at buf into a new contiguous buffer. */
static char *dt_pack(const char *call, const void *buf, int count, MPI_Datatype t, int *bytes)
{
	char *out = dt_alloc(call, dt_use(call, t)->size * count);

	*bytes = (int)dt_pack_into(call, buf, count, t, out);
	return out;
}

/* dt_unpack copies up to bytes of packed data into count elements of type t at buf. */
static void dt_unpack(const char *in, int bytes, void *buf, int count, MPI_Datatype t)
{
	struct dtype *d = &dtypes[t - MPI__DERIVED];
	const char *p = in;
	int k, i;

	if (!is_derived(t)) {
		long n = (long)count * MPI__TYPE_SIZE(t);

		memcpy(buf, in, n < bytes ? n : bytes);
		return;
	}

	for (k = 0; k < count; k++)
		for (i = 0; i < d->nblk; i++) {
			long n = (long)d->blk[i].count * MPI__TYPE_SIZE(d->blk[i].basic);

			/* A short message ends inside a block: its leading bytes arrived. */
			if (p + n > in + bytes)
				n = in + bytes - p;
			if (n <= 0)
				return;
			memcpy((char *)buf + k * d->extent + d->blk[i].off, p, n);
			p += n;
		}
}

/* Pending nonblocking receives of derived types: unpacked when the request is freed. */
struct pending {
	MPI_Request req;
	char *packed;
	int bytes, count;
	void *buf;
	MPI_Datatype type;
};

enum { MAX_PENDING = 256 };
static struct pending pendings[MAX_PENDING];

static void pending_add(MPI_Request req, char *packed, int bytes, void *buf, int count, MPI_Datatype t)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (pendings[i].packed == NULL) {
			struct pending p = {req, packed, bytes, count, buf, t};

			pendings[i] = p;
			dt_ref(t);
			return;
		}
	lib_error("MPI_Irecv", MPI_ERR_OTHER, "more than %d pending receives of derived datatypes", MAX_PENDING);
}

/* How a Wait or Test call reports its statuses (in block b): one for its one request
 * (Wait, Test), one per request (Waitall, Testall), one for the request at *b[2] (Waitany,
 * Testany), or one per index of b[3] up to *b[2] (Waitsome, Testsome). */
enum { ST_ONE, ST_ALL, ST_ANY, ST_SOME };

/* pending_status is the status the call wrote for request i of its array, or NULL. */
static const MPI_Status *pending_status(const MPI_Status *sts, int kind, const unsigned long *b, int i)
{
	int k;

	switch (kind) {
	case ST_ONE:
		return sts;
	case ST_ALL:
		return sts + i;
	case ST_ANY:
		return *(const int *)b[2] == i ? sts : NULL;
	}
	for (k = 0; k < *(const int *)b[2]; k++)
		if (((const int *)b[3])[k] == i)
			return sts + k;
	return NULL;
}

/* pending_settle unpacks the pending receives whose handles a Wait or Test just freed:
 * before[i] was active and after[i] is MPI_REQUEST_NULL. Only the bytes that arrived
 * (the status's count) are unpacked: a short message leaves the rest of the buffer as
 * it was, and the type may span more memory than the program's buffer has. */
static void pending_settle(const MPI_Request *before, const MPI_Request *after, int n, const MPI_Status *sts,
	int kind, const unsigned long *b)
{
	int i, k;

	for (i = 0; i < n; i++) {
		const MPI_Status *st;

		if (before[i] == MPI_REQUEST_NULL || after[i] != MPI_REQUEST_NULL)
			continue;
		st = pending_status(sts, kind, b, i);
		for (k = 0; k < MAX_PENDING; k++)
			if (pendings[k].packed != NULL && pendings[k].req == before[i]) {
				int got = st != NULL ? st->count & 0x7fffffff : pendings[k].bytes; /* without MPI_Cancel's mark */

				dt_unpack(pendings[k].packed, got < pendings[k].bytes ? got : pendings[k].bytes, pendings[k].buf,
					pendings[k].count, pendings[k].type);
				free(pendings[k].packed);
				pendings[k].packed = NULL;
				dt_unref(pendings[k].type);
			}
	}
}

static int pending_any(void)
{
	int k;

	for (k = 0; k < MAX_PENDING; k++)
		if (pendings[k].packed != NULL)
			return 1;
	return 0;
}

/* User operations: handles from MPI__USER_OP. */
#define MPI__USER_OP 0x100
enum { MAX_OPS = 64 };
static struct {
	MPI_User_function *fn;
	int commute;
} user_ops[MAX_OPS];

static int is_user_op(MPI_Op op)
{
	return op >= MPI__USER_OP;
}

MPI_FN int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
	int i;

	if (fn == NULL)
		lib_error("MPI_Op_create", MPI_ERR_ARG, "function is NULL");
	for (i = 0; i < MAX_OPS; i++)
		if (user_ops[i].fn == NULL) {
			user_ops[i].fn = fn;
			user_ops[i].commute = commute;
			*op = MPI__USER_OP + i;
			return MPI_SUCCESS;
		}
	lib_error("MPI_Op_create", MPI_ERR_OTHER, "more than %d user operations", MAX_OPS);
	return MPI_ERR_OTHER;
}

MPI_FN int MPI_Op_free(MPI_Op *op)
{
	if (op == NULL || !is_user_op(*op) || *op - MPI__USER_OP >= MAX_OPS || user_ops[*op - MPI__USER_OP].fn == NULL)
		lib_error("MPI_Op_free", MPI_ERR_OP, "not a user operation");
	user_ops[*op - MPI__USER_OP].fn = NULL;
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}

/* user_reduce reduces with a user operation: every rank's count elements of type t
 * (their whole extent) are gathered, then folded right to left over ranks [0, upto]
 * (upto: the last rank for a reduction, the caller's rank for a scan). */
static int user_reduce(const char *call, const void *sendbuf, void *recvbuf, int count,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, int upto_self, int exclusive)
{
	MPI_User_function *fn;
	int rank, size, i, len = count, bytes;
	char *all;

	if (op - MPI__USER_OP >= MAX_OPS || user_ops[op - MPI__USER_OP].fn == NULL)
		lib_error(call, MPI_ERR_OP, "invalid operation %d", op);
	fn = user_ops[op - MPI__USER_OP].fn;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	bytes = (int)(count * dt_extent(type));
	all = malloc((long)bytes * size + 1);
	if (all == NULL)
		lib_error(call, MPI_ERR_OTHER, "no memory for %d bytes", bytes * size);
	MPI_Allgather(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, bytes, MPI_BYTE, all, bytes, MPI_BYTE, comm);
	i = upto_self ? rank - exclusive : size - 1;
	if (i >= 0) {
		memcpy(recvbuf, all + (long)i * bytes, bytes);
		for (i--; i >= 0; i--)
			fn(all + (long)i * bytes, recvbuf, &len, &type);
	}
	free(all);
	return MPI_SUCCESS;
}
