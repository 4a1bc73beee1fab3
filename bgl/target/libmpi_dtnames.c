/* libmpi_dtnames.c: datatype names (MPI_Type_set_name, MPI_Type_get_name) and
 * MPI_Type_match_size. Included by libmpi.c after libmpi_err.c.
 *
 * A predefined type's name is its mpi.h name; a derived type's is empty until set. */

static const struct {
	MPI_Datatype type;
	const char *name;
} dt_predefined[] = {
	{MPI_CHAR, "MPI_CHAR"}, {MPI_INT, "MPI_INT"}, {MPI_LONG, "MPI_LONG"},
	{MPI_LONG_LONG, "MPI_LONG_LONG"}, {MPI_UNSIGNED, "MPI_UNSIGNED"}, {MPI_FLOAT, "MPI_FLOAT"},
	{MPI_DOUBLE, "MPI_DOUBLE"}, {MPI_BYTE, "MPI_BYTE"}, {MPI_SHORT, "MPI_SHORT"},
	{MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT"}, {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR"},
	{MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"}, {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG"},
	{MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"}, {MPI_FLOAT_INT, "MPI_FLOAT_INT"},
	{MPI_DOUBLE_INT, "MPI_DOUBLE_INT"}, {MPI_LONG_INT, "MPI_LONG_INT"}, {MPI_2INT, "MPI_2INT"},
	{MPI_SHORT_INT, "MPI_SHORT_INT"}, {MPI_PACKED, "MPI_PACKED"}, {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE"},
	{MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"}, {MPI_WCHAR, "MPI_WCHAR"}, {MPI_C_BOOL, "MPI_C_BOOL"},
	{MPI_CXX_BOOL, "MPI_CXX_BOOL"}, {MPI_INT8_T, "MPI_INT8_T"}, {MPI_INT16_T, "MPI_INT16_T"},
	{MPI_INT32_T, "MPI_INT32_T"}, {MPI_INT64_T, "MPI_INT64_T"}, {MPI_UINT8_T, "MPI_UINT8_T"},
	{MPI_UINT16_T, "MPI_UINT16_T"}, {MPI_UINT32_T, "MPI_UINT32_T"}, {MPI_UINT64_T, "MPI_UINT64_T"},
	{MPI_AINT, "MPI_AINT"}, {MPI_OFFSET, "MPI_OFFSET"}, {MPI_COUNT, "MPI_COUNT"},
	{MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX"}, {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"},
	{MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"}, {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX"},
	{MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"},
	{MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"}, {MPI_CHARACTER, "MPI_CHARACTER"},
	{MPI_INTEGER, "MPI_INTEGER"}, {MPI_REAL, "MPI_REAL"}, {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"},
	{MPI_COMPLEX, "MPI_COMPLEX"}, {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX"}, {MPI_LOGICAL, "MPI_LOGICAL"},
	{MPI_2INTEGER, "MPI_2INTEGER"}, {MPI_2REAL, "MPI_2REAL"}, {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"},
	{MPI_INTEGER1, "MPI_INTEGER1"}, {MPI_INTEGER2, "MPI_INTEGER2"}, {MPI_INTEGER4, "MPI_INTEGER4"},
	{MPI_INTEGER8, "MPI_INTEGER8"}, {MPI_REAL4, "MPI_REAL4"}, {MPI_REAL8, "MPI_REAL8"},
	{MPI_COMPLEX8, "MPI_COMPLEX8"}, {MPI_COMPLEX16, "MPI_COMPLEX16"},
};

MPI_FN int MPI_Type_set_name(MPI_Datatype type, const char *name)
{
	struct dtype *d;

	if (name == NULL)
		return lib_return("MPI_Type_set_name", MPI_COMM_WORLD, MPI_ERR_ARG, "name is NULL");
	if (!is_derived(type))
		return lib_return("MPI_Type_set_name", MPI_COMM_WORLD, MPI_ERR_TYPE, "a predefined datatype keeps its name");
	d = dt_get("MPI_Type_set_name", type);
	free(d->name);
	d->name = dt_alloc("MPI_Type_set_name", MPI_MAX_OBJECT_NAME);
	snprintf(d->name, MPI_MAX_OBJECT_NAME, "%s", name);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
	const char *n = "";
	unsigned k;

	if (name == NULL || resultlen == NULL)
		return lib_return("MPI_Type_get_name", MPI_COMM_WORLD, MPI_ERR_ARG, "name or resultlen is NULL");
	if (is_derived(type)) {
		struct dtype *d = dt_get("MPI_Type_get_name", type);

		if (d->name != NULL)
			n = d->name;
	} else {
		for (k = 0; k < sizeof dt_predefined / sizeof dt_predefined[0]; k++)
			if (dt_predefined[k].type == type)
				n = dt_predefined[k].name;
		if (*n == '\0')
			return lib_return("MPI_Type_get_name", MPI_COMM_WORLD, MPI_ERR_TYPE, "not a datatype");
	}
	*resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", n);
	return MPI_SUCCESS;
}

/* MPI_Type_match_size: the Fortran sized types, as MPICH answers, and long double. */
MPI_FN int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
	MPI_Datatype t = MPI_DATATYPE_NULL;

	switch (typeclass) {
	case MPI_TYPECLASS_REAL:
		t = size == 4 ? MPI_REAL4 : size == 8 ? MPI_REAL8 : size == 16 ? MPI_LONG_DOUBLE : t;
		break;
	case MPI_TYPECLASS_INTEGER:
		t = size == 1 ? MPI_INTEGER1 : size == 2 ? MPI_INTEGER2 : size == 4 ? MPI_INTEGER4 : size == 8 ? MPI_INTEGER8 : t;
		break;
	case MPI_TYPECLASS_COMPLEX:
		t = size == 8 ? MPI_COMPLEX8 : size == 16 ? MPI_COMPLEX16 : size == 32 ? MPI_C_LONG_DOUBLE_COMPLEX : t;
		break;
	default:
		return lib_return("MPI_Type_match_size", MPI_COMM_WORLD, MPI_ERR_ARG, "invalid type class");
	}
	if (t == MPI_DATATYPE_NULL)
		return lib_return("MPI_Type_match_size", MPI_COMM_WORLD, MPI_ERR_ARG, "no type of that class has that size");
	*datatype = t;
	return MPI_SUCCESS;
}
