/* libmpi_tattr.c: attributes on datatypes and MPI_Get_elements. Attributes are kept as libmpi_attr.c keeps them on communicators:
 * a keyval keeps its copy and delete callbacks, MPI_Type_dup runs the copy callback of each
 * attribute of the old type, MPI_Type_free and MPI_Type_delete_attr the delete callback.
 * A freed keyval stays alive until the last attribute using it is deleted. Included by
 * libmpi.c after libmpi_err.c. */

enum { TKEYVAL_FIRST = 16, MAX_TKEYVALS = 256, MAX_TATTRS = 1024 };

struct tkeyval {
	int used, freed, refs;
	MPI_Type_copy_attr_function *copy;
	MPI_Type_delete_attr_function *del;
	void *extra;
};
static struct tkeyval tkeyvals[MAX_TKEYVALS];

struct tattr {
	MPI_Datatype type;
	int keyval;
	void *value;
};
static struct tattr tattrs[MAX_TATTRS];
static int ntattrs;

static struct tkeyval *tkeyval_get(const char *call, int keyval, int *rc)
{
	char what[64];
	int i = keyval - TKEYVAL_FIRST;

	if (i >= 0 && i < MAX_TKEYVALS && tkeyvals[i].used && !tkeyvals[i].freed)
		return &tkeyvals[i];
	snprintf(what, sizeof what, "invalid datatype keyval %d", keyval);
	*rc = lib_return(call, MPI_COMM_WORLD, MPI_ERR_KEYVAL, what);
	return NULL;
}

static void tkeyval_release(int keyval)
{
	struct tkeyval *k = &tkeyvals[keyval - TKEYVAL_FIRST];

	if (--k->refs == 0 && k->freed)
		memset(k, 0, sizeof *k);
}

MPI_FN int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
	MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state)
{
	int i;

	for (i = 0; i < MAX_TKEYVALS && tkeyvals[i].used; i++)
		;
	if (i == MAX_TKEYVALS)
		return lib_return("MPI_Type_create_keyval", MPI_COMM_WORLD, MPI_ERR_NO_MEM, "more than 256 datatype keyvals");
	tkeyvals[i] = (struct tkeyval){1, 0, 1, type_copy_attr_fn, type_delete_attr_fn, extra_state};
	*type_keyval = TKEYVAL_FIRST + i;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_free_keyval(int *type_keyval)
{
	int rc = MPI_SUCCESS, i = *type_keyval - TKEYVAL_FIRST;

	if (i >= 0 && i < MAX_TKEYVALS && tkeyvals[i].used && tkeyvals[i].freed) {
		*type_keyval = MPI_KEYVAL_INVALID;
		return MPI_SUCCESS;
	}
	if (tkeyval_get("MPI_Type_free_keyval", *type_keyval, &rc) == NULL)
		return rc;
	tkeyvals[i].freed = 1;
	tkeyval_release(*type_keyval);
	*type_keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

static int tattr_find(MPI_Datatype type, int keyval)
{
	int i;

	for (i = 0; i < ntattrs; i++)
		if (tattrs[i].type == type && tattrs[i].keyval == keyval)
			return i;
	return -1;
}

/* tattr_delete runs attribute i's delete callback and removes it; a callback's failure is
 * returned and the attribute kept. */
static int tattr_delete(const char *call, int i)
{
	struct tattr a = tattrs[i];
	struct tkeyval *k = &tkeyvals[a.keyval - TKEYVAL_FIRST];
	int rc = MPI_SUCCESS;

	if (k->del != MPI_TYPE_NULL_DELETE_FN)
		rc = k->del(a.type, a.keyval, a.value, k->extra);
	if (rc != MPI_SUCCESS)
		return lib_return(call, MPI_COMM_WORLD, rc, "the attribute's delete callback failed");
	tattrs[i] = tattrs[--ntattrs];
	tkeyval_release(a.keyval);
	return MPI_SUCCESS;
}

static int tattr_add(const char *call, MPI_Datatype type, int keyval, void *value)
{
	if (ntattrs == MAX_TATTRS)
		return lib_return(call, MPI_COMM_WORLD, MPI_ERR_NO_MEM, "more than 1024 datatype attributes");
	tattrs[ntattrs++] = (struct tattr){type, keyval, value};
	tkeyvals[keyval - TKEYVAL_FIRST].refs++;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_set_attr(MPI_Datatype type, int type_keyval, void *attribute_val)
{
	int rc = MPI_SUCCESS, i;

	if (tkeyval_get("MPI_Type_set_attr", type_keyval, &rc) == NULL)
		return rc;
	if ((i = tattr_find(type, type_keyval)) >= 0 && (rc = tattr_delete("MPI_Type_set_attr", i)) != MPI_SUCCESS)
		return rc;
	return tattr_add("MPI_Type_set_attr", type, type_keyval, attribute_val);
}

MPI_FN int MPI_Type_get_attr(MPI_Datatype type, int type_keyval, void *attribute_val, int *flag)
{
	int rc = MPI_SUCCESS, i;

	if (tkeyval_get("MPI_Type_get_attr", type_keyval, &rc) == NULL)
		return rc;
	i = tattr_find(type, type_keyval);
	*flag = i >= 0;
	if (i >= 0)
		*(void **)attribute_val = tattrs[i].value;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Type_delete_attr(MPI_Datatype type, int type_keyval)
{
	int rc = MPI_SUCCESS, i;

	/* An attribute keeps its keyval alive after MPI_Type_free_keyval. */
	if ((i = tattr_find(type, type_keyval)) >= 0)
		return tattr_delete("MPI_Type_delete_attr", i);
	if (tkeyval_get("MPI_Type_delete_attr", type_keyval, &rc) == NULL)
		return rc;
	return lib_return("MPI_Type_delete_attr", MPI_COMM_WORLD, MPI_ERR_KEYVAL, "the datatype has no attribute with this keyval");
}

/* tattrs_copy gives newtype (made by MPI_Type_dup) what the copy callbacks of oldtype's
 * attributes say. */
static int tattrs_copy(MPI_Datatype oldtype, MPI_Datatype newtype)
{
	int i, n = ntattrs, rc, flag;
	void *out;

	for (i = 0; i < n; i++) {
		struct tattr a = tattrs[i];
		struct tkeyval *k = &tkeyvals[a.keyval - TKEYVAL_FIRST];

		if (a.type != oldtype || k->copy == MPI_TYPE_NULL_COPY_FN)
			continue;
		flag = 0;
		out = NULL;
		if (k->copy == MPI_TYPE_DUP_FN) {
			out = a.value;
			flag = 1;
		} else if ((rc = k->copy(oldtype, a.keyval, k->extra, a.value, &out, &flag)) != MPI_SUCCESS) {
			return lib_return("MPI_Type_dup", MPI_COMM_WORLD, rc, "an attribute's copy callback failed");
		}
		if (flag && (rc = tattr_add("MPI_Type_dup", newtype, a.keyval, out)) != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

/* tattrs_delete_all deletes type's attributes (MPI_Type_free). */
static int tattrs_delete_all(MPI_Datatype type)
{
	int i, rc;

	for (;;) {
		for (i = 0; i < ntattrs && tattrs[i].type != type; i++)
			;
		if (i == ntattrs)
			return MPI_SUCCESS;
		if ((rc = tattr_delete("MPI_Type_free", i)) != MPI_SUCCESS)
			return rc;
	}
}

/* MPI_Get_elements counts the basic elements a receive's bytes hold: whole copies of the
 * type, then the leading blocks of a partial one; MPI_UNDEFINED when the bytes end inside
 * a basic element. */
static long dt_elements(MPI_Datatype type, long bytes)
{
	struct dtype *d;
	long size = dt_size(type), per = 0, n, k, take, b;
	int i;

	if (!is_derived(type)) {
		b = MPI__TYPE_SIZE(type);
		return b > 0 && bytes % b == 0 ? bytes / b : MPI_UNDEFINED;
	}
	d = dt_get("MPI_Get_elements", type);
	for (i = 0; i < d->nblk; i++)
		per += d->blk[i].count;
	if (size == 0)
		return 0;
	n = bytes / size * per;
	bytes %= size;
	for (i = 0; i < d->nblk && bytes > 0; i++) {
		b = MPI__TYPE_SIZE(d->blk[i].basic);
		k = d->blk[i].count;
		take = bytes / b < k ? bytes / b : k;
		n += take;
		bytes -= take * b;
		if (take < k)
			break;
	}
	return bytes == 0 ? n : MPI_UNDEFINED;
}

MPI_FN int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
	*count = dt_elements(datatype, status->count & 0x7fffffff); /* without MPI_Cancel's mark */
	return MPI_SUCCESS;
}

MPI_FN int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
	*count = (int)dt_elements(datatype, status->count & 0x7fffffff);
	return MPI_SUCCESS;
}
