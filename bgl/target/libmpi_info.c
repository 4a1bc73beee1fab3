/* libmpi_info.c: MPI_Info objects and MPI_Alloc_mem. Included by libmpi.c.
 *
 * An info is an ordered list of (key, value) strings: MPI_Info_get_nthkey numbers keys
 * in the order they were first set, and setting a key again replaces its value in place.
 * Handles index a table that grows as needed; MPI_INFO_NULL (0) and MPI_INFO_ENV (1, always empty) are never
 * issued. */

struct info_pair {
	char *key, *value;
};

struct info {
	int used, n, cap;
	struct info_pair *pairs;
};

enum { INFO_FIRST = 2 };
static struct info *infos; /* grown as needed */
static int ninfos;
static struct info info_env = {1, 0, 0, NULL};

/* info_get finds handle h, or reports MPI_ERR_INFO (NULL). env: MPI_INFO_ENV is allowed. */
static struct info *info_get(const char *call, MPI_Info h, int env, int *rc)
{
	char what[64];
	int i = h - INFO_FIRST;

	if (env && h == MPI_INFO_ENV)
		return &info_env;
	if (i >= 0 && i < ninfos && infos[i].used)
		return &infos[i];
	snprintf(what, sizeof what, "invalid info %d%s", h, h == MPI_INFO_NULL ? " (MPI_INFO_NULL)" : "");
	*rc = lib_return(call, MPI_COMM_WORLD, MPI_ERR_INFO, what);
	return NULL;
}

/* info_key checks a key's length, as MPI_ERR_INFO_KEY requires. */
static int info_key(const char *call, const char *key)
{
	char what[64];
	size_t n = key ? strlen(key) : 0;

	if (n == 0 || n > MPI_MAX_INFO_KEY) {
		snprintf(what, sizeof what, "key of %u characters (1..%d allowed)", (unsigned)n, MPI_MAX_INFO_KEY);
		return lib_return(call, MPI_COMM_WORLD, MPI_ERR_INFO_KEY, what);
	}
	return MPI_SUCCESS;
}

static int info_find(struct info *in, const char *key)
{
	int i;

	for (i = 0; i < in->n; i++)
		if (strcmp(in->pairs[i].key, key) == 0)
			return i;
	return -1;
}

MPI_FN int MPI_Info_create(MPI_Info *info)
{
	int i;

	for (i = 0; i < ninfos && infos[i].used; i++)
		;
	if (i == ninfos) {
		struct info *grown = realloc(infos, (2 * ninfos + 16) * sizeof infos[0]);

		if (grown == NULL)
			return lib_return("MPI_Info_create", MPI_COMM_WORLD, MPI_ERR_NO_MEM, "no memory for another info");
		memset(grown + ninfos, 0, (ninfos + 16) * sizeof infos[0]);
		infos = grown;
		ninfos = 2 * ninfos + 16;
	}
	infos[i].used = 1;
	infos[i].n = 0;
	*info = INFO_FIRST + i;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_set", info, 0, &rc);

	if (in == NULL)
		return rc;
	if ((rc = info_key("MPI_Info_set", key)) != MPI_SUCCESS)
		return rc;
	if (value == NULL || strlen(value) == 0 || strlen(value) > MPI_MAX_INFO_VAL)
		return lib_return("MPI_Info_set", MPI_COMM_WORLD, MPI_ERR_INFO_VALUE, "empty or overlong value");
	i = info_find(in, key);
	if (i >= 0) {
		free(in->pairs[i].value);
		in->pairs[i].value = strdup(value);
		return MPI_SUCCESS;
	}
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 8;
		in->pairs = realloc(in->pairs, in->cap * sizeof in->pairs[0]);
	}
	in->pairs[in->n].key = strdup(key);
	in->pairs[in->n].value = strdup(value);
	in->n++;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_get", info, 1, &rc);

	if (in == NULL)
		return rc;
	if ((rc = info_key("MPI_Info_get", key)) != MPI_SUCCESS)
		return rc;
	if (valuelen < 0)
		return lib_return("MPI_Info_get", MPI_COMM_WORLD, MPI_ERR_ARG, "negative valuelen");
	i = info_find(in, key);
	*flag = i >= 0;
	if (i >= 0) {
		/* At most valuelen characters and a null; a shorter value writes nothing past
		 * its own null (programs pass the buffer's full size, as MPICH allows). */
		size_t n = strlen(in->pairs[i].value);

		if (n > (size_t)valuelen)
			n = valuelen;
		memcpy(value, in->pairs[i].value, n);
		value[n] = 0;
	}
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_get_valuelen", info, 1, &rc);

	if (in == NULL)
		return rc;
	if ((rc = info_key("MPI_Info_get_valuelen", key)) != MPI_SUCCESS)
		return rc;
	i = info_find(in, key);
	*flag = i >= 0;
	if (i >= 0)
		*valuelen = strlen(in->pairs[i].value);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
	int rc = MPI_SUCCESS;
	struct info *in = info_get("MPI_Info_get_nkeys", info, 1, &rc);

	if (in == NULL)
		return rc;
	*nkeys = in->n;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
	char what[64];
	int rc = MPI_SUCCESS;
	struct info *in = info_get("MPI_Info_get_nthkey", info, 1, &rc);

	if (in == NULL)
		return rc;
	if (n < 0 || n >= in->n) {
		snprintf(what, sizeof what, "key number %d of an info with %d keys", n, in->n);
		return lib_return("MPI_Info_get_nthkey", MPI_COMM_WORLD, MPI_ERR_ARG, what);
	}
	strcpy(key, in->pairs[n].key);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_delete(MPI_Info info, const char *key)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_delete", info, 0, &rc);

	if (in == NULL)
		return rc;
	if ((rc = info_key("MPI_Info_delete", key)) != MPI_SUCCESS)
		return rc;
	i = info_find(in, key);
	if (i < 0)
		return lib_return("MPI_Info_delete", MPI_COMM_WORLD, MPI_ERR_INFO_NOKEY, "no such key");
	free(in->pairs[i].key);
	free(in->pairs[i].value);
	memmove(&in->pairs[i], &in->pairs[i + 1], (in->n - i - 1) * sizeof in->pairs[0]);
	in->n--;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_dup", info, 1, &rc);

	if (in == NULL)
		return rc;
	if ((rc = MPI_Info_create(newinfo)) != MPI_SUCCESS)
		return rc;
	for (i = 0; i < in->n; i++)
		MPI_Info_set(*newinfo, in->pairs[i].key, in->pairs[i].value);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Info_free(MPI_Info *info)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_free", *info, 0, &rc);

	if (in == NULL)
		return rc;
	for (i = 0; i < in->n; i++) {
		free(in->pairs[i].key);
		free(in->pairs[i].value);
	}
	free(in->pairs);
	memset(in, 0, sizeof *in);
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}

/* MPI_Alloc_mem is malloc: the torus needs no registered memory. */
MPI_FN int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
	int rc = MPI_SUCCESS;
	void *p;

	if (info != MPI_INFO_NULL && info_get("MPI_Alloc_mem", info, 1, &rc) == NULL)
		return rc;
	if (size < 0)
		return lib_return("MPI_Alloc_mem", MPI_COMM_WORLD, MPI_ERR_ARG, "negative size");
	p = malloc(size ? size : 1);
	if (p == NULL)
		return lib_return("MPI_Alloc_mem", MPI_COMM_WORLD, MPI_ERR_NO_MEM, "out of memory");
	*(void **)baseptr = p;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Free_mem(void *base)
{
	free(base);
	return MPI_SUCCESS;
}

/* MPI_Info_get_string (MPI 4.0): *buflen is the buffer's size in, the value's length
 * with its null out; the value is cut to fit. */
MPI_FN int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
	int rc = MPI_SUCCESS, i;
	struct info *in = info_get("MPI_Info_get_string", info, 1, &rc);

	if (in == NULL)
		return rc;
	if ((rc = info_key("MPI_Info_get_string", key)) != MPI_SUCCESS)
		return rc;
	i = info_find(in, key);
	*flag = i >= 0;
	if (i < 0)
		return MPI_SUCCESS;
	if (*buflen > 0)
		snprintf(value, *buflen, "%s", in->pairs[i].value);
	*buflen = strlen(in->pairs[i].value) + 1;
	return MPI_SUCCESS;
}

/* MPI_Info_create_env (MPI 4.0): the launcher's hints, none on this machine. */
MPI_FN int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
	(void)argc;
	(void)argv;
	return MPI_Info_create(info);
}
