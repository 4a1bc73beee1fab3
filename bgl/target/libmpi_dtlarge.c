/* libmpi_dtlarge.c: MPI 4.0's large-count (_c) datatype calls: the constructors, the
 * size and extent queries and MPI_Pack/Unpack(_external)/Pack_size with MPI_Count
 * arguments. Included by libmpi.c after libmpi_packext.c.
 *
 * On the 32-bit PowerPC a type's size and extent are MPI_Aints, so every count, length
 * and displacement must fit 32 bits: each call checks its MPI_Counts, ends the job naming
 * the one that does not fit (MPI_ERR_COUNT), and calls its int form. */
#include <limits.h>

/* lc_int is v as an int, or the end of the job naming call and what v is. */
static int lc_int(const char *call, const char *what, MPI_Count v)
{
	if (v < INT_MIN || v > INT_MAX)
		lib_error(call, MPI_ERR_COUNT, "%s %lld does not fit this machine's 32 bits", what, (long long)v);
	return (int)v;
}

/* lc_ints copies n MPI_Counts into a new array of ints (freed by the caller); a negative
 * n gives an empty one, for the int form to refuse. */
static int *lc_ints(const char *call, const char *what, MPI_Count n, const MPI_Count *v)
{
	int i, *out = (int *)dt_alloc(call, sizeof(int) * (n > 0 ? (long)lc_int(call, "count", n) : 0));

	for (i = 0; i < n; i++)
		out[i] = lc_int(call, what, v[i]);
	return out;
}

/* lc_aints is lc_ints for MPI_Aint displacements. */
static MPI_Aint *lc_aints(const char *call, MPI_Count n, const MPI_Count *v)
{
	MPI_Aint *out = (MPI_Aint *)dt_alloc(call, sizeof(MPI_Aint) * (n > 0 ? (long)lc_int(call, "count", n) : 0));
	int i;

	for (i = 0; i < n; i++)
		out[i] = lc_int(call, "displacement", v[i]);
	return out;
}

MPI_FN int MPI_Type_size_c(MPI_Datatype type, MPI_Count *size)
{
	dt_check_query("MPI_Type_size_c", type);
	*size = dt_data_size(type);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_extent_c(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
	MPI_Aint l, e;

	dt_check_query("MPI_Type_get_extent_c", type);
	MPI_Type_get_extent(type, &l, &e);
	*lb = l;
	*extent = e;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_true_extent_c(MPI_Datatype type, MPI_Count *true_lb, MPI_Count *true_extent)
{
	MPI_Aint l, e;

	dt_check_query("MPI_Type_get_true_extent_c", type);
	MPI_Type_get_true_extent(type, &l, &e);
	*true_lb = l;
	*true_extent = e;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	return MPI_Type_contiguous(lc_int("MPI_Type_contiguous_c", "count", count), oldtype, newtype);
}

MPI_FN int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_vector_c";

	return MPI_Type_vector(lc_int(call, "count", count), lc_int(call, "blocklength", blocklength),
		lc_int(call, "stride", stride), oldtype, newtype);
}

MPI_FN int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_hvector_c";

	return MPI_Type_create_hvector(lc_int(call, "count", count), lc_int(call, "blocklength", blocklength),
		lc_int(call, "stride", stride), oldtype, newtype);
}

MPI_FN int MPI_Type_indexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_indexed_c";
	int *bl = lc_ints(call, "blocklength", count, blocklengths), *d = lc_ints(call, "displacement", count, displs);
	int rc = MPI_Type_indexed((int)count, bl, d, oldtype, newtype);

	free(bl);
	free(d);
	return rc;
}

MPI_FN int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_hindexed_c";
	int *bl = lc_ints(call, "blocklength", count, blocklengths);
	MPI_Aint *d = lc_aints(call, count, displs);
	int rc = MPI_Type_create_hindexed((int)count, bl, d, oldtype, newtype);

	free(bl);
	free(d);
	return rc;
}

MPI_FN int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_indexed_block_c";
	int *d = lc_ints(call, "displacement", count, displs);
	int rc = MPI_Type_create_indexed_block((int)count, lc_int(call, "blocklength", blocklength), d, oldtype, newtype);

	free(d);
	return rc;
}

MPI_FN int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_hindexed_block_c";
	MPI_Aint *d = lc_aints(call, count, displs);
	int rc = MPI_Type_create_hindexed_block((int)count, lc_int(call, "blocklength", blocklength), d, oldtype,
		newtype);

	free(d);
	return rc;
}

MPI_FN int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displs[],
	const MPI_Datatype types[], MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_struct_c";
	int *bl = lc_ints(call, "blocklength", count, blocklengths);
	MPI_Aint *d = lc_aints(call, count, displs);
	int rc = MPI_Type_create_struct((int)count, bl, d, types, newtype);

	free(bl);
	free(d);
	return rc;
}

MPI_FN int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
	static const char call[] = "MPI_Type_create_resized_c";

	return MPI_Type_create_resized(oldtype, lc_int(call, "lb", lb), lc_int(call, "extent", extent), newtype);
}

MPI_FN int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype type, MPI_Comm comm, MPI_Count *size)
{
	int n, rc = MPI_Pack_size(lc_int("MPI_Pack_size_c", "incount", incount), type, comm, &n);

	*size = n;
	return rc;
}

MPI_FN int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype type, void *outbuf, MPI_Count outsize,
	MPI_Count *position, MPI_Comm comm)
{
	static const char call[] = "MPI_Pack_c";
	int pos, rc;

	if (position == NULL)
		lib_error(call, MPI_ERR_ARG, "position is NULL");
	pos = lc_int(call, "position", *position);
	rc = MPI_Pack(inbuf, lc_int(call, "incount", incount), type, outbuf, lc_int(call, "outsize", outsize), &pos, comm);
	*position = pos;
	return rc;
}

MPI_FN int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
	MPI_Datatype type, MPI_Comm comm)
{
	static const char call[] = "MPI_Unpack_c";
	int pos, rc;

	if (position == NULL)
		lib_error(call, MPI_ERR_ARG, "position is NULL");
	pos = lc_int(call, "position", *position);
	rc = MPI_Unpack(inbuf, lc_int(call, "insize", insize), &pos, outbuf, lc_int(call, "outcount", outcount), type,
		comm);
	*position = pos;
	return rc;
}

MPI_FN int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype type, MPI_Count *size)
{
	MPI_Aint n;
	int rc = MPI_Pack_external_size(datarep, lc_int("MPI_Pack_external_size_c", "incount", incount), type, &n);

	*size = n;
	return rc;
}

MPI_FN int MPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype type,
	void *outbuf, MPI_Count outsize, MPI_Count *position)
{
	static const char call[] = "MPI_Pack_external_c";
	MPI_Aint pos;
	int rc;

	if (position == NULL)
		lib_error(call, MPI_ERR_ARG, "position is NULL");
	pos = lc_int(call, "position", *position);
	rc = MPI_Pack_external(datarep, inbuf, lc_int(call, "incount", incount), type, outbuf,
		lc_int(call, "outsize", outsize), &pos);
	*position = pos;
	return rc;
}

MPI_FN int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
	void *outbuf, MPI_Count outcount, MPI_Datatype type)
{
	static const char call[] = "MPI_Unpack_external_c";
	MPI_Aint pos;
	int rc;

	if (position == NULL)
		lib_error(call, MPI_ERR_ARG, "position is NULL");
	pos = lc_int(call, "position", *position);
	rc = MPI_Unpack_external(datarep, inbuf, lc_int(call, "insize", insize), &pos, outbuf,
		lc_int(call, "outcount", outcount), type);
	*position = pos;
	return rc;
}
