/* libmpi_dtcons.c: the other datatype constructors (hvector, hindexed, indexed_block,
 * hindexed_block, resized, dup), true extents, the _x queries, envelopes and contents,
 * and MPI_Pack/Unpack/Pack_size. Included by libmpi.c after libmpi_types.c.
 *
 * Every constructor lays out blocks of the old type at byte displacements; lower and upper
 * bounds follow MPI's definition: the lowest and highest of each nonempty block's
 * [disp + old lb, disp + old lb + blocklength * old extent). */

/* dt_bounds widens d's bounds by a block of bl elements of old at disp; first says d has
 * no bounds yet. An empty block does not count (as MPICH). */
static void dt_bounds(struct dtype *d, int *first, long disp, int bl, MPI_Datatype old)
{
	long lo, hi;

	if (bl <= 0)
		return;
	dt_span(disp, bl, old, &lo, &hi);
	dt_widen(d, first, lo, hi);
}

/* dt_blocks builds a type of count blocks of old: block i has bls[i] (or bl when bls is
 * NULL) elements at byte displacement disps[i]. */
static int dt_blocks(const char *call, MPI_Datatype *newtype, struct dtype **out, int count,
	int bl, const int *bls, const long *disps, MPI_Datatype old)
{
	struct dtype *d;
	int i, first = 1, rc = MPI_SUCCESS;

	dt_check_old(call, old, count);
	for (i = 0; i < count; i++)
		if ((bls ? bls[i] : bl) < 0)
			lib_error(call, MPI_ERR_ARG, "invalid blocklength %d of block %d", bls ? bls[i] : bl, i);
	d = dt_new(call, newtype);
	for (i = 0; i < count && rc == MPI_SUCCESS; i++) {
		int n = bls ? bls[i] : bl;

		rc = dt_append(d, old, disps[i], n, dt_extent(old));
		dt_bounds(d, &first, disps[i], n, old);
	}
	*out = d;
	return rc;
}

/* dt_disps is count byte displacements: ints[i] * scale, or aints[i]. */
static long *dt_disps(const char *call, int count, const int *ints, const MPI_Aint *aints, long scale)
{
	long *d = (long *)dt_alloc(call, sizeof(long) * (long)count);
	int i;

	for (i = 0; i < count; i++)
		d[i] = ints ? ints[i] * scale : aints[i];
	return d;
}

MPI_FN int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype)
{
	long *disps;
	struct dtype *d;
	int i, rc;

	if (count < 0)
		lib_error("MPI_Type_create_hvector", MPI_ERR_COUNT, "invalid count %d", count);
	disps = (long *)dt_alloc("MPI_Type_create_hvector", sizeof(long) * (long)count);
	for (i = 0; i < count; i++)
		disps[i] = i * stride;
	rc = dt_blocks("MPI_Type_create_hvector", newtype, &d, count, blocklength, NULL, disps, oldtype);
	dt_record(d, MPI_COMBINER_HVECTOR, 1, &count, 1, &blocklength, 0, NULL, 1, &stride, 1, &oldtype);
	free(disps);
	return rc;
}

MPI_FN int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	long *disps;
	struct dtype *d;
	int rc;

	if (count < 0)
		lib_error("MPI_Type_create_hindexed", MPI_ERR_COUNT, "invalid count %d", count);
	disps = dt_disps("MPI_Type_create_hindexed", count, NULL, displs, 1);
	rc = dt_blocks("MPI_Type_create_hindexed", newtype, &d, count, 0, blocklengths, disps, oldtype);
	dt_record(d, MPI_COMBINER_HINDEXED, 1, &count, count, blocklengths, 0, NULL, count, displs, 1, &oldtype);
	free(disps);
	return rc;
}

MPI_FN int MPI_Type_create_indexed_block(int count, int blocklength, const int displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	long *disps;
	struct dtype *d;
	int rc;

	if (count < 0)
		lib_error("MPI_Type_create_indexed_block", MPI_ERR_COUNT, "invalid count %d", count);
	disps = dt_disps("MPI_Type_create_indexed_block", count, displs, NULL, dt_extent(oldtype));
	rc = dt_blocks("MPI_Type_create_indexed_block", newtype, &d, count, blocklength, NULL, disps, oldtype);
	dt_record(d, MPI_COMBINER_INDEXED_BLOCK, 1, &count, 1, &blocklength, count, displs, 0, NULL, 1, &oldtype);
	free(disps);
	return rc;
}

MPI_FN int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	long *disps;
	struct dtype *d;
	int rc;

	if (count < 0)
		lib_error("MPI_Type_create_hindexed_block", MPI_ERR_COUNT, "invalid count %d", count);
	disps = dt_disps("MPI_Type_create_hindexed_block", count, NULL, displs, 1);
	rc = dt_blocks("MPI_Type_create_hindexed_block", newtype, &d, count, blocklength, NULL, disps, oldtype);
	dt_record(d, MPI_COMBINER_HINDEXED_BLOCK, 1, &count, 1, &blocklength, 0, NULL, count, displs, 1, &oldtype);
	free(disps);
	return rc;
}

/* dt_copy makes a new type with old's blocks, bounds and size. */
static struct dtype *dt_copy(const char *call, MPI_Datatype old, MPI_Datatype *newtype)
{
	struct dtype *d;
	long lb = 0, ext = dt_extent(old);
	int rc;

	dt_check_old(call, old, 1);
	if (is_derived(old))
		lb = dt_get(call, old)->lb;
	d = dt_new(call, newtype);
	rc = dt_append(d, old, 0, 1, ext);
	if (rc != MPI_SUCCESS)
		lib_error(call, rc, "no memory for datatype %d's copy", old);
	d->lb = lb;
	d->extent = ext;
	return d;
}

MPI_FN int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
	MPI_Datatype *newtype)
{
	struct dtype *d = dt_copy("MPI_Type_create_resized", oldtype, newtype);
	MPI_Aint a[2] = {lb, extent};

	d->lb = lb;
	d->extent = extent;
	dt_record(d, MPI_COMBINER_RESIZED, 0, NULL, 0, NULL, 0, NULL, 2, a, 1, &oldtype);
	return MPI_SUCCESS;
}

/* MPI_Type_dup: a copy, committed if the original was. */
MPI_FN int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	struct dtype *d = dt_copy("MPI_Type_dup", oldtype, newtype);

	d->committed = !is_derived(oldtype) || dt_get("MPI_Type_dup", oldtype)->committed;
	dt_record(d, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 1, &oldtype);
	return tattrs_copy(oldtype, *newtype);
}

/* dt_check_query ends the job for a datatype handle a query cannot describe. */
static void dt_check_query(const char *call, MPI_Datatype t)
{
	if (is_derived(t))
		dt_get(call, t);
	else if (t == MPI_DATATYPE_NULL || MPI__TYPE_SIZE(t) == 0)
		lib_error(call, MPI_ERR_TYPE, "invalid datatype %d", t);
}

/* The true extent spans the bytes the type's data occupies, whatever its bounds say. */
MPI_FN int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
	struct dtype *d;
	long lo = 0, hi = 0;
	int i;

	dt_check_query("MPI_Type_get_true_extent", type);
	if (!is_derived(type)) {
		*true_lb = 0;
		*true_extent = MPI__TYPE_SIZE(type);
		return MPI_SUCCESS;
	}
	d = dt_get("MPI_Type_get_true_extent", type);
	for (i = 0; i < d->nblk; i++) {
		long a = d->blk[i].off, b = a + (long)d->blk[i].count * MPI__TYPE_SIZE(d->blk[i].basic);

		if (i == 0 || a < lo)
			lo = a;
		if (i == 0 || b > hi)
			hi = b;
	}
	*true_lb = lo;
	*true_extent = hi - lo;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
	dt_check_query("MPI_Type_size_x", type);
	*size = dt_data_size(type);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
	MPI_Aint l, e;

	dt_check_query("MPI_Type_get_extent_x", type);
	MPI_Type_get_extent(type, &l, &e);
	*lb = l;
	*extent = e;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *true_lb, MPI_Count *true_extent)
{
	MPI_Aint l, e;

	MPI_Type_get_true_extent(type, &l, &e);
	*true_lb = l;
	*true_extent = e;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses,
	int *num_datatypes, int *combiner)
{
	struct dtype *d;

	dt_check_query("MPI_Type_get_envelope", type);
	if (!is_derived(type)) {
		*num_integers = *num_addresses = *num_datatypes = 0;
		*combiner = MPI_COMBINER_NAMED;
		return MPI_SUCCESS;
	}
	d = dt_get("MPI_Type_get_envelope", type);
	*num_integers = d->ni;
	*num_addresses = d->na;
	*num_datatypes = d->nd;
	*combiner = d->combiner;
	return MPI_SUCCESS;
}

/* MPI_Type_get_contents returns the constructor's arguments; a derived datatype among them
 * comes back as the handle the constructor was given, one more the caller frees, as
 * MPICH does it (so its envelope is that constructor's, not MPI_COMBINER_DUP). */
MPI_FN int MPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
	int max_datatypes, int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[])
{
	struct dtype *d;
	int i;

	dt_check_query("MPI_Type_get_contents", type);
	if (!is_derived(type))
		lib_error("MPI_Type_get_contents", MPI_ERR_TYPE, "datatype %d is predefined (MPI_COMBINER_NAMED)", type);
	d = dt_get("MPI_Type_get_contents", type);
	if (max_integers < d->ni || max_addresses < d->na || max_datatypes < d->nd)
		lib_error("MPI_Type_get_contents", MPI_ERR_ARG, "arrays of %d, %d, %d entries; the envelope needs %d, %d, %d",
			max_integers, max_addresses, max_datatypes, d->ni, d->na, d->nd);
	for (i = 0; i < d->ni; i++)
		integers[i] = d->ints[i];
	for (i = 0; i < d->na; i++)
		addresses[i] = d->aints[i];
	for (i = 0; i < d->nd; i++) {
		datatypes[i] = d->types[i];
		if (is_derived(d->types[i]))
			dt_get("MPI_Type_get_contents", d->types[i])->handles++;
	}
	return MPI_SUCCESS;
}

MPI_FN int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
	(void)comm;
	dt_check_old("MPI_Pack_size", type, incount);
	*size = (int)(dt_size(type) * incount);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
	int *position, MPI_Comm comm)
{
	long need;

	(void)comm;
	dt_check_old("MPI_Pack", type, incount);
	need = dt_size(type) * incount;
	if (position == NULL || *position < 0 || *position + need > outsize)
		lib_error("MPI_Pack", MPI_ERR_TRUNCATE, "%ld bytes at position %d do not fit an outsize of %d",
			need, position ? *position : -1, outsize);
	*position += (int)dt_pack_into("MPI_Pack", inbuf, incount, type, (char *)outbuf + *position);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
	MPI_Datatype type, MPI_Comm comm)
{
	long need;

	(void)comm;
	dt_check_old("MPI_Unpack", type, outcount);
	need = dt_size(type) * outcount;
	if (position == NULL || *position < 0 || *position + need > insize)
		lib_error("MPI_Unpack", MPI_ERR_TRUNCATE, "%ld bytes at position %d are past an insize of %d",
			need, position ? *position : -1, insize);
	if (is_derived(type))
		dt_use("MPI_Unpack", type);
	dt_unpack((const char *)inbuf + *position, (int)need, outbuf, outcount, type);
	*position += (int)need;
	return MPI_SUCCESS;
}
