/* libmpi_packext.c: MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size.
 * Included by libmpi.c after libmpi_dtcons.c.
 *
 * "external32" is big-endian with IEEE floats and the sizes of the 32-bit PowerPC's C
 * types for every type but long double, so on this machine it is MPI_Pack's own
 * representation; long double (the IBM double-double, where external32 wants IEEE
 * quad precision) is refused. MPI_AINT is 8 bytes in external32 (as MPICH's): each
 * 4-byte address-sized integer is sign-extended; a derived type holding one is refused. */

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
	for (i = 0; i < dt_get(call, type)->nblk; i++) {
		if (dt_get(call, type)->blk[i].basic == MPI_AINT)
			lib_error(call, MPI_ERR_TYPE, "datatype %d holds MPI_AINT, whose external32 form is not built in a derived type",
				type);
		packext_check(call, datarep, dt_get(call, type)->blk[i].basic);
	}
}

/* aint_pack writes count MPI_AINTs at in as 8-byte big-endian integers at out. */
static void aint_pack(const MPI_Aint *in, int count, unsigned char *out)
{
	int i, k;

	for (i = 0; i < count; i++)
		for (k = 0; k < 8; k++)
			out[8 * i + k] = (unsigned char)((long long)in[i] >> (8 * (7 - k)));
}

/* aint_unpack reads them back; a value past MPI_Aint's 32 bits keeps its low bits. */
static void aint_unpack(const unsigned char *in, int count, MPI_Aint *out)
{
	int i, k;

	for (i = 0; i < count; i++) {
		unsigned long long v = 0;

		for (k = 0; k < 8; k++)
			v = v << 8 | in[8 * i + k];
		out[i] = (MPI_Aint)v;
	}
}

MPI_FN int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type, MPI_Aint *size)
{
	int n;

	packext_check("MPI_Pack_external_size", datarep, type);
	if (type == MPI_AINT) {
		*size = 8L * incount;
		return MPI_SUCCESS;
	}
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
	if (type == MPI_AINT) {
		if (incount < 0 || *position < 0 || *position + 8L * incount > outsize)
			lib_error("MPI_Pack_external", MPI_ERR_TRUNCATE, "%d MPI_AINTs (%ld bytes) at position %ld do not fit an outsize of %ld",
				incount, 8L * incount, (long)*position, (long)outsize);
		aint_pack(inbuf, incount, (unsigned char *)outbuf + *position);
		*position += 8L * incount;
		return MPI_SUCCESS;
	}
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
	if (type == MPI_AINT) {
		if (outcount < 0 || *position < 0 || *position + 8L * outcount > insize)
			lib_error("MPI_Unpack_external", MPI_ERR_TRUNCATE, "%d MPI_AINTs (%ld bytes) at position %ld are past an insize of %ld",
				outcount, 8L * outcount, (long)*position, (long)insize);
		aint_unpack((const unsigned char *)inbuf + *position, outcount, outbuf);
		*position += 8L * outcount;
		return MPI_SUCCESS;
	}
	pos = (int)*position;
	MPI_Unpack(inbuf, (int)insize, &pos, outbuf, outcount, type, MPI_COMM_WORLD);
	*position = pos;
	return MPI_SUCCESS;
}
