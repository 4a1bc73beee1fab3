/* libmpi_packext.c: MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size.
 * Included by libmpi.c after libmpi_dtcons.c.
 *
 * "external32" is big-endian with IEEE floats and the sizes of the 32-bit PowerPC's C
 * types for every type but long double, so on this machine it is MPI_Pack's own
 * representation; long double (the IBM double-double, where external32 wants IEEE
 * quad precision) is refused. */

static void packext_check(const char *call, const char *datarep, MPI_Datatype type)
{
	int i;

	if (datarep == NULL || strcmp(datarep, "external32") != 0)
		lib_error(call, MPI_ERR_ARG, "data representation \"%s\" is not \"external32\"", datarep ? datarep : "(null)");
	if (!is_derived(type)) {
		if (type == MPI_LONG_DOUBLE || type == MPI_LONG_DOUBLE_INT || type == MPI_C_LONG_DOUBLE_COMPLEX ||
			type == MPI_CXX_LONG_DOUBLE_COMPLEX)
			lib_error(call, MPI_ERR_TYPE, "long double has no external32 form here");
		return;
	}
	for (i = 0; i < dt_get(call, type)->nblk; i++)
		packext_check(call, datarep, dt_get(call, type)->blk[i].basic);
}

MPI_FN int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type, MPI_Aint *size)
{
	int n;

	packext_check("MPI_Pack_external_size", datarep, type);
	MPI_Pack_size(incount, type, MPI_COMM_WORLD, &n);
	*size = n;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype type,
	void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
	int pos;

	packext_check("MPI_Pack_external", datarep, type);
	if (position == NULL)
		lib_error("MPI_Pack_external", MPI_ERR_ARG, "position is NULL");
	pos = (int)*position;
	MPI_Pack(inbuf, incount, type, outbuf, (int)outsize, &pos, MPI_COMM_WORLD);
	*position = pos;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
	void *outbuf, int outcount, MPI_Datatype type)
{
	int pos;

	packext_check("MPI_Unpack_external", datarep, type);
	if (position == NULL)
		lib_error("MPI_Unpack_external", MPI_ERR_ARG, "position is NULL");
	pos = (int)*position;
	MPI_Unpack(inbuf, (int)insize, &pos, outbuf, outcount, type, MPI_COMM_WORLD);
	*position = pos;
	return MPI_SUCCESS;
}
