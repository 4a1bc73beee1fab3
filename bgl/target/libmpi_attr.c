/* libmpi_attr.c: attributes and keyvals on communicators, communicator names, thread
 * levels and the library's version. Included by libmpi.c.
 *
 * The predefined keys (MPI_TAG_UB .. MPI_APPNUM) answer on every communicator from the
 * machine's values. A user keyval keeps its copy and delete callbacks: MPI_Comm_dup runs
 * the copy callback of each attribute of the old communicator, MPI_Comm_free and
 * MPI_Comm_delete_attr the delete callback, and MPI_Finalize deletes MPI_COMM_SELF's
 * attributes first, in the reverse order of their setting, as MPI requires. A freed keyval
 * stays alive until the last attribute using it is deleted. */

enum { KEYVAL_FIRST = 16, MAX_KEYVALS = 256, MAX_ATTRS = 1024 };

struct keyval {
	int used, freed, refs;
	MPI_Comm_copy_attr_function *copy;
	MPI_Comm_delete_attr_function *del;
	void *extra;
};
static struct keyval keyvals[MAX_KEYVALS];

struct attr {
	MPI_Comm comm;
	int keyval;
	void *value;
	unsigned long seq; /* setting order */
};
static struct attr attrs[MAX_ATTRS];
static int nattrs;
static unsigned long attr_seq;

/* The predefined attributes' values. MPI_WTIME_IS_GLOBAL is 0: each node's clock is its
 * own timebase. Every rank can do I/O (the CIOD ships its calls), so MPI_IO is
 * MPI_ANY_SOURCE; there is no host process (MPI_HOST is MPI_PROC_NULL). */
static int attr_tag_ub = 0x7fffffff, attr_host = MPI_PROC_NULL, attr_io = MPI_ANY_SOURCE;
static int attr_wtime_global = 0, attr_universe, attr_appnum = 0;

static struct keyval *keyval_get(const char *call, MPI_Comm comm, int keyval, int *rc)
{
	char what[64];
	int i = keyval - KEYVAL_FIRST;

	if (i >= 0 && i < MAX_KEYVALS && keyvals[i].used && !keyvals[i].freed)
		return &keyvals[i];
	snprintf(what, sizeof what, "invalid keyval %d", keyval);
	*rc = lib_return(call, comm, MPI_ERR_KEYVAL, what);
	return NULL;
}

static void keyval_release(int keyval)
{
	struct keyval *k = &keyvals[keyval - KEYVAL_FIRST];

	if (--k->refs == 0 && k->freed)
		memset(k, 0, sizeof *k);
}

MPI_FN int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
	MPI_Comm_delete_attr_function *delete_fn, int *keyval, void *extra_state)
{
	int i;

	for (i = 0; i < MAX_KEYVALS && keyvals[i].used; i++)
		;
	if (i == MAX_KEYVALS)
		return lib_return("MPI_Comm_create_keyval", MPI_COMM_WORLD, MPI_ERR_NO_MEM, "more than 256 keyvals");
	keyvals[i] = (struct keyval){1, 0, 1, copy_fn, delete_fn, extra_state};
	*keyval = KEYVAL_FIRST + i;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_free_keyval(int *keyval)
{
	int rc = MPI_SUCCESS, i = *keyval - KEYVAL_FIRST;

	/* A copy of a freed handle whose keyval attributes still use may be freed again,
	 * to no effect, as in MPICH. */
	if (i >= 0 && i < MAX_KEYVALS && keyvals[i].used && keyvals[i].freed) {
		*keyval = MPI_KEYVAL_INVALID;
		return MPI_SUCCESS;
	}
	if (keyval_get("MPI_Comm_free_keyval", MPI_COMM_WORLD, *keyval, &rc) == NULL)
		return rc;
	keyvals[i].freed = 1;
	keyval_release(*keyval);
	*keyval = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

static int attr_find(MPI_Comm comm, int keyval)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (attrs[i].comm == comm && attrs[i].keyval == keyval)
			return i;
	return -1;
}

/* attr_delete runs attribute i's delete callback and removes it; a callback's failure is
 * returned and the attribute kept, as MPI says. */
static int attr_delete(const char *call, int i)
{
	struct attr a = attrs[i];
	struct keyval *k = &keyvals[a.keyval - KEYVAL_FIRST];
	int rc = MPI_SUCCESS;

	if (k->del != MPI_COMM_NULL_DELETE_FN)
		rc = k->del(a.comm, a.keyval, a.value, k->extra);
	if (rc != MPI_SUCCESS)
		return lib_return(call, a.comm, rc, "the attribute's delete callback failed");
	attrs[i] = attrs[--nattrs];
	keyval_release(a.keyval);
	return MPI_SUCCESS;
}

static int attr_add(MPI_Comm comm, int keyval, void *value)
{
	if (nattrs == MAX_ATTRS)
		return lib_return("MPI_Comm_set_attr", comm, MPI_ERR_NO_MEM, "more than 1024 attributes");
	attrs[nattrs++] = (struct attr){comm, keyval, value, ++attr_seq};
	keyvals[keyval - KEYVAL_FIRST].refs++;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val)
{
	int rc = MPI_SUCCESS, i;

	if (comm == MPI_COMM_NULL)
		return lib_return("MPI_Comm_set_attr", MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator MPI_COMM_NULL");
	if (keyval_get("MPI_Comm_set_attr", comm, keyval, &rc) == NULL)
		return rc;
	if ((i = attr_find(comm, keyval)) >= 0 && (rc = attr_delete("MPI_Comm_set_attr", i)) != MPI_SUCCESS)
		return rc;
	return attr_add(comm, keyval, attribute_val);
}

static int *predefined_attr(int keyval)
{
	switch (keyval) {
	case MPI_TAG_UB:
		return &attr_tag_ub;
	case MPI_HOST:
		return &attr_host;
	case MPI_IO:
		return &attr_io;
	case MPI_WTIME_IS_GLOBAL:
		return &attr_wtime_global;
	case MPI_UNIVERSE_SIZE:
		attr_universe = dpcl_size();
		return &attr_universe;
	case MPI_LASTUSEDCODE:
		return &last_used_code;
	case MPI_APPNUM:
		return &attr_appnum;
	}
	return NULL;
}

MPI_FN int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	int rc = MPI_SUCCESS, i, *pre = predefined_attr(keyval);

	if (comm == MPI_COMM_NULL)
		return lib_return("MPI_Comm_get_attr", MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator MPI_COMM_NULL");
	if (pre != NULL) {
		*(int **)attribute_val = pre;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (keyval_get("MPI_Comm_get_attr", comm, keyval, &rc) == NULL)
		return rc;
	i = attr_find(comm, keyval);
	*flag = i >= 0;
	if (i >= 0)
		*(void **)attribute_val = attrs[i].value;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
	int rc = MPI_SUCCESS, i;

	/* An attribute keeps its keyval alive after MPI_Comm_free_keyval (MPI 3.1, 6.7.2), so
	 * it can still be deleted through the keyval's old value. */
	if ((i = attr_find(comm, keyval)) >= 0)
		return attr_delete("MPI_Comm_delete_attr", i);
	if (keyval_get("MPI_Comm_delete_attr", comm, keyval, &rc) == NULL)
		return rc;
	return lib_return("MPI_Comm_delete_attr", comm, MPI_ERR_KEYVAL, "no attribute with this keyval");
}

/* attrs_copy runs the copy callbacks of old's attributes for its duplicate dup. */
static int attrs_copy(MPI_Comm old, MPI_Comm dup)
{
	int i, n = nattrs, flag, rc;
	void *out;

	for (i = 0; i < n; i++) {
		struct attr a = attrs[i];
		struct keyval *k = &keyvals[a.keyval - KEYVAL_FIRST];

		if (a.comm != old || k->copy == MPI_COMM_NULL_COPY_FN)
			continue;
		flag = 0;
		out = NULL;
		if (k->copy == MPI_COMM_DUP_FN) {
			out = a.value;
			flag = 1;
		} else if ((rc = k->copy(old, a.keyval, k->extra, a.value, &out, &flag)) != MPI_SUCCESS) {
			return lib_return("MPI_Comm_dup", old, rc, "an attribute's copy callback failed");
		}
		if (flag && (rc = attr_add(dup, a.keyval, out)) != MPI_SUCCESS)
			return rc;
	}
	return MPI_SUCCESS;
}

/* attrs_delete_all deletes comm's attributes, the latest set first. */
static int attrs_delete_all(const char *call, MPI_Comm comm)
{
	int i, last, rc;

	for (;;) {
		last = -1;
		for (i = 0; i < nattrs; i++)
			if (attrs[i].comm == comm && (last < 0 || attrs[i].seq > attrs[last].seq))
				last = i;
		if (last < 0)
			return MPI_SUCCESS;
		if ((rc = attr_delete(call, last)) != MPI_SUCCESS)
			return rc;
	}
}

static struct comm_name {
	MPI_Comm comm;
	char name[MPI_MAX_OBJECT_NAME];
} comm_names[256];
static int ncomm_names;

MPI_FN int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
	int i;

	if (comm == MPI_COMM_NULL)
		return lib_return("MPI_Comm_set_name", MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator MPI_COMM_NULL");
	for (i = 0; i < ncomm_names && comm_names[i].comm != comm; i++)
		;
	if (i == ncomm_names) {
		if (i == (int)(sizeof comm_names / sizeof comm_names[0]))
			return lib_return("MPI_Comm_set_name", comm, MPI_ERR_NO_MEM, "more than 256 named communicators");
		ncomm_names++;
	}
	comm_names[i].comm = comm;
	snprintf(comm_names[i].name, MPI_MAX_OBJECT_NAME, "%s", name);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
	const char *s = comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "";
	int i;

	if (comm == MPI_COMM_NULL)
		return lib_return("MPI_Comm_get_name", MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator MPI_COMM_NULL");
	for (i = 0; i < ncomm_names; i++)
		if (comm_names[i].comm == comm)
			s = comm_names[i].name;
	*resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", s);
	return MPI_SUCCESS;
}

/* forget_name drops a freed communicator's name (the handle may be issued again). */
static void forget_name(MPI_Comm comm)
{
	int i;

	for (i = 0; i < ncomm_names; i++)
		if (comm_names[i].comm == comm) {
			comm_names[i] = comm_names[--ncomm_names];
			return;
		}
}

MPI_FN int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	(void)required;
	*provided = MPI_THREAD_SINGLE;
	return MPI_Init(argc, argv);
}

MPI_FN int MPI_Query_thread(int *provided)
{
	*provided = MPI_THREAD_SINGLE;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Is_thread_main(int *flag)
{
	*flag = 1;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Get_library_version(char *version, int *resultlen)
{
	*resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
		"dpclsh Blue Gene/L MPI %d.%d (libmpi.a over the simulated machine's MPI engine)",
		MPI_VERSION, MPI_SUBVERSION);
	return MPI_SUCCESS;
}

/* MPI-1's attribute calls are the MPI-2 ones under other names. */
MPI_FN int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
	void *extra_state)
{
	return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

MPI_FN int MPI_Keyval_free(int *keyval)
{
	return MPI_Comm_free_keyval(keyval);
}

MPI_FN int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
	return MPI_Comm_set_attr(comm, keyval, attribute_val);
}

MPI_FN int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
	return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

MPI_FN int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
	return MPI_Comm_delete_attr(comm, keyval);
}
