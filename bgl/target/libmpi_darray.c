/* libmpi_darray.c: MPI_Type_create_subarray and MPI_Type_create_darray, the array
 * datatypes file views are made of. Included by libmpi_io.c.
 *
 * Both are built from the other constructors as MPICH builds them: one dimension at a time
 * (the fastest-varying first: the last in C order, the first in Fortran order), each a
 * contiguous run or an hvector over the previous dimensions' type, then placed at the
 * block's start in an array whose extent is the whole global array's. The result records
 * its own constructor's arguments for MPI_Type_get_envelope and get_contents. */

/* arr_dims lists the dimensions from the fastest varying to the slowest. */
static void arr_dims(int ndims, int order, int *dim)
{
	int i;

	for (i = 0; i < ndims; i++)
		dim[i] = order == MPI_ORDER_FORTRAN ? i : ndims - 1 - i;
}

/* arr_place puts type t at byte disp in an array of extent bytes, freeing t, and records
 * the constructor's integers ints[0..ni) and oldtype as its envelope. */
static int arr_place(const char *call, MPI_Datatype t, MPI_Aint disp, MPI_Aint extent, int combiner, const int *ints,
	int ni, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	int one = 1, rc;
	MPI_Datatype placed;
	struct dtype *d;
	const int *iv[3] = {ints, NULL, NULL};
	const int in[3] = {ni, 0, 0};

	if ((rc = MPI_Type_create_hindexed(1, &one, &disp, t, &placed)) != MPI_SUCCESS)
		return rc;
	MPI_Type_free(&t);
	rc = MPI_Type_create_resized(placed, 0, extent, newtype);
	MPI_Type_free(&placed);
	if (rc != MPI_SUCCESS)
		return rc;
	d = dt_get(call, *newtype);
	dt_unrecord(d);
	dt_record_v(d, combiner, iv, in, 0, NULL, 1, &oldtype);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
	int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_subarray";
	long ext = dt_extent(oldtype);
	MPI_Aint stride = ext, disp = 0;
	MPI_Datatype t = oldtype, next;
	int i, k, rc, dim[32], ints[1 + 3 * 32];

	if (ndims <= 0 || ndims > 32)
		lib_error(call, MPI_ERR_DIMS, "invalid ndims %d (1 to 32)", ndims);
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		lib_error(call, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
	dt_check_old(call, oldtype, 1);
	for (i = 0; i < ndims; i++)
		if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
			starts[i] > sizes[i] - subsizes[i])
			lib_error(call, MPI_ERR_ARG, "dimension %d: size %d, subsize %d, start %d", i, sizes[i], subsizes[i],
				starts[i]);
	arr_dims(ndims, order, dim);
	for (k = 0; k < ndims; k++) {
		i = dim[k];
		if (k == 0)
			rc = MPI_Type_contiguous(subsizes[i], t, &next);
		else
			rc = MPI_Type_create_hvector(subsizes[i], 1, stride, t, &next);
		if (rc != MPI_SUCCESS)
			return rc;
		if (k > 0)
			MPI_Type_free(&t);
		t = next;
		disp += starts[i] * stride;
		stride *= sizes[i];
	}
	ints[0] = ndims;
	for (i = 0; i < ndims; i++) {
		ints[1 + i] = sizes[i];
		ints[1 + ndims + i] = subsizes[i];
		ints[1 + 2 * ndims + i] = starts[i];
	}
	ints[1 + 3 * ndims] = order;
	return arr_place(call, t, disp, stride, MPI_COMBINER_SUBARRAY, ints, 2 + 3 * ndims, oldtype, newtype);
}

/* darray_block is dimension i of a block distribution over np processes, this one at
 * coordinate p: its type over t (the faster dimensions' type) and its first index. */
static int darray_block(const char *call, const int *gsizes, int i, int fastest, MPI_Aint stride, int np, int p,
	int darg, MPI_Datatype t, MPI_Datatype *out, int *start)
{
	int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsizes[i] + np - 1) / np : darg, mine;

	if (blk <= 0 || (long)blk * np < gsizes[i])
		lib_error(call, MPI_ERR_ARG, "dimension %d: block size %d does not cover %d elements on %d processes", i,
			blk, gsizes[i], np);
	mine = gsizes[i] - blk * p < blk ? gsizes[i] - blk * p : blk;
	if (mine < 0)
		mine = 0;
	*start = mine == 0 ? 0 : blk * p;
	if (fastest)
		return MPI_Type_contiguous(mine, t, out);
	return MPI_Type_create_hvector(mine, 1, stride, t, out);
}

/* darray_cyclic is dimension i of a cyclic distribution (blocks of darg elements dealt
 * round np processes); the fastest dimension is placed in its extent at once. */
static int darray_cyclic(const char *call, const int *gsizes, int i, int fastest, MPI_Aint stride, MPI_Aint ext,
	int np, int p, int darg, MPI_Datatype t, MPI_Datatype *out, int *start)
{
	int blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg, first, local = 0, count, rem, rc;
	MPI_Datatype v;

	if (blk <= 0)
		lib_error(call, MPI_ERR_ARG, "dimension %d: invalid cyclic block size %d", i, blk);
	first = p * blk;
	if (first <= gsizes[i] - 1) {
		int n = gsizes[i] - first;

		local = n / (np * blk) * blk + (n % (np * blk) < blk ? n % (np * blk) : blk);
	}
	count = local / blk;
	rem = local % blk;
	if ((rc = MPI_Type_create_hvector(count, blk, stride * np * blk, t, &v)) != MPI_SUCCESS)
		return rc;
	if (rem > 0) {
		int lens[2] = {1, rem};
		MPI_Aint disps[2] = {0, count * stride * np * blk};
		MPI_Datatype types[2] = {v, t};
		MPI_Datatype both;

		rc = MPI_Type_create_struct(2, lens, disps, types, &both);
		MPI_Type_free(&v);
		if (rc != MPI_SUCCESS)
			return rc;
		v = both;
	}
	*start = local == 0 ? 0 : first;
	if (!fastest) {
		*out = v;
		return MPI_SUCCESS;
	}
	/* The fastest dimension: at its first element, in an extent of the whole row. */
	{
		int one = 1;
		MPI_Aint at = (MPI_Aint)first * ext;
		MPI_Datatype placed;

		rc = MPI_Type_create_hindexed(1, &one, &at, v, &placed);
		MPI_Type_free(&v);
		if (rc != MPI_SUCCESS)
			return rc;
		rc = MPI_Type_create_resized(placed, 0, ext * gsizes[i], out);
		MPI_Type_free(&placed);
		*start = 0;
		return rc;
	}
}

MPI_FN int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
	const int dargs[], const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_darray";
	long ext = dt_extent(oldtype);
	MPI_Aint stride = ext, disp = 0;
	MPI_Datatype t = oldtype, next;
	int i, k, rc, procs = size, r = rank, dim[32], coords[32], start[32], ints[4 + 5 * 32];

	if (ndims <= 0 || ndims > 32)
		lib_error(call, MPI_ERR_DIMS, "invalid ndims %d (1 to 32)", ndims);
	if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
		lib_error(call, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
	if (size <= 0 || rank < 0 || rank >= size)
		lib_error(call, MPI_ERR_ARG, "rank %d of size %d", rank, size);
	dt_check_old(call, oldtype, 1);
	for (i = 0, k = 1; i < ndims; i++) {
		if (gsizes[i] <= 0 || psizes[i] <= 0)
			lib_error(call, MPI_ERR_ARG, "dimension %d: gsize %d, psize %d", i, gsizes[i], psizes[i]);
		if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
			lib_error(call, MPI_ERR_ARG, "dimension %d: MPI_DISTRIBUTE_NONE over %d processes", i, psizes[i]);
		k *= psizes[i];
	}
	if (k != size)
		lib_error(call, MPI_ERR_ARG, "the process grid has %d processes, not size %d", k, size);
	/* The process grid is row-major whatever the array's order. */
	for (i = 0; i < ndims; i++) {
		procs /= psizes[i];
		coords[i] = r / procs;
		r %= procs;
	}
	arr_dims(ndims, order, dim);
	for (k = 0; k < ndims; k++) {
		i = dim[k];
		switch (distribs[i]) {
		case MPI_DISTRIBUTE_BLOCK:
		case MPI_DISTRIBUTE_NONE:
			rc = darray_block(call, gsizes, i, k == 0, stride, psizes[i], coords[i],
				distribs[i] == MPI_DISTRIBUTE_NONE ? MPI_DISTRIBUTE_DFLT_DARG : dargs[i], t, &next, &start[i]);
			break;
		case MPI_DISTRIBUTE_CYCLIC:
			rc = darray_cyclic(call, gsizes, i, k == 0, stride, ext, psizes[i], coords[i], dargs[i], t, &next,
				&start[i]);
			break;
		default:
			lib_error(call, MPI_ERR_ARG, "dimension %d: distribution %d is not MPI_DISTRIBUTE_BLOCK, CYCLIC or NONE",
				i, distribs[i]);
			return MPI_ERR_ARG;
		}
		if (rc != MPI_SUCCESS)
			return rc;
		if (k > 0)
			MPI_Type_free(&t);
		t = next;
		disp += start[i] * stride;
		stride *= gsizes[i];
	}
	ints[0] = size;
	ints[1] = rank;
	ints[2] = ndims;
	for (i = 0; i < ndims; i++) {
		ints[3 + i] = gsizes[i];
		ints[3 + ndims + i] = distribs[i];
		ints[3 + 2 * ndims + i] = dargs[i];
		ints[3 + 3 * ndims + i] = psizes[i];
	}
	ints[3 + 4 * ndims] = order;
	return arr_place(call, t, disp, stride, MPI_COMBINER_DARRAY, ints, 4 + 4 * ndims, oldtype, newtype);
}
