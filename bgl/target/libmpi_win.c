/* libmpi_win.c: one-sided communication (MPI_Win). Included by libmpi.c after
 * libmpi_attr.c.
 *
 * The engine (bgl/mpi_win*.go) keeps the windows, the operations and the
 * synchronisation; this file flattens datatypes into layouts for it and keeps what is
 * local to the rank. A window's handle is that of a private duplicate of its
 * communicator, so MPI_Win_get_group, names, attributes, keyvals and error handlers are
 * the communicator calls on it (a window's handler starts as MPI_ERRORS_ARE_FATAL, not
 * its communicator's). MPI_Win_allocate takes its memory from malloc, as MPI_Alloc_mem
 * does. Request-based operations (Rput, Rget...) are only allowed in a passive-target
 * epoch: each is flushed when issued and returns a request already complete. */

struct win {
	MPI_Win h;
	void *base;
	MPI_Aint size;
	int disp_unit, flavor, model, owns;
};
/* The live windows, in a table that grows as a program creates more. */
static struct win *wins;
static int nwins;

static struct win *win_find(MPI_Win h)
{
	int i;

	for (i = 0; i < nwins; i++)
		if (wins[i].h == h)
			return &wins[i];
	return NULL;
}

/* win_get returns the window, or NULL after reporting an invalid handle in *rc. */
static struct win *win_get(const char *call, MPI_Win h, int *rc)
{
	struct win *w = h == MPI_WIN_NULL ? NULL : win_find(h);
	char what[64];

	if (w != NULL)
		return w;
	snprintf(what, sizeof what, "invalid window %d", h);
	*rc = lib_return(call, MPI_COMM_WORLD, MPI_ERR_WIN, what);
	return NULL;
}

static int win_new(const char *call, void *base, MPI_Aint size, int disp_unit, int flavor, int owns,
	MPI_Comm comm, MPI_Win *win)
{
	struct win *w = win_find(MPI_WIN_NULL);
	MPI_Comm dup;
	int rc;
	unsigned long b[5];

	if (w == NULL) {
		struct win *more = realloc(wins, (nwins * 2 + 16) * sizeof *wins);

		if (more == NULL)
			return lib_return(call, comm, MPI_ERR_NO_MEM, "no memory for another window");
		memset(more + nwins, 0, (nwins + 16) * sizeof *wins);
		wins = more;
		w = &wins[nwins];
		nwins = nwins * 2 + 16;
	}
	if ((rc = MPI_Comm_dup(comm, &dup)) != MPI_SUCCESS)
		return rc;
	b[0] = W(dup), b[1] = W(base), b[2] = W(size), b[3] = W(disp_unit), b[4] = W(flavor);
	if ((rc = dpcl_mpi_win_create((long)b)) != MPI_SUCCESS) {
		MPI_Comm_free(&dup);
		return rc;
	}
	/* The creation's errors are the communicator's; the window's own start fatal. */
	if (comm_eh_of(dup) != MPI_ERRORS_ARE_FATAL)
		MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL);
	*w = (struct win){dup, base, size, disp_unit, flavor, MPI_WIN_UNIFIED, owns};
	*win = dup;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	(void)info;
	return win_new("MPI_Win_create", base, size, disp_unit, MPI_WIN_FLAVOR_CREATE, 0, comm, win);
}

static int win_allocate(const char *call, MPI_Aint size, int disp_unit, int flavor, MPI_Comm comm,
	void *baseptr, MPI_Win *win)
{
	void *base = NULL;
	int rc;

	if (size < 0)
		return lib_return(call, comm, MPI_ERR_SIZE, "negative size");
	if (size > 0 && (base = malloc(size)) == NULL)
		return lib_return(call, comm, MPI_ERR_NO_MEM, "no memory for the window");
	rc = win_new(call, base, size, disp_unit, flavor, 1, comm, win);
	if (rc != MPI_SUCCESS)
		free(base);
	else
		*(void **)baseptr = base;
	return rc;
}

MPI_FN int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	(void)info;
	return win_allocate("MPI_Win_allocate", size, disp_unit, MPI_WIN_FLAVOR_ALLOCATE, comm, baseptr, win);
}

/* A node's shared-memory domain is its one rank: the engine refuses a larger
 * communicator with MPI_ERR_RMA_FLAVOR. */
MPI_FN int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
	MPI_Win *win)
{
	(void)info;
	return win_allocate("MPI_Win_allocate_shared", size, disp_unit, MPI_WIN_FLAVOR_SHARED, comm, baseptr, win);
}

MPI_FN int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
	int rc = MPI_SUCCESS, me;
	struct win *w = win_get("MPI_Win_shared_query", win, &rc);

	if (w == NULL)
		return rc;
	MPI_Comm_rank(win, &me);
	if (w->flavor != MPI_WIN_FLAVOR_SHARED)
		return lib_return("MPI_Win_shared_query", win, MPI_ERR_RMA_FLAVOR, "not a shared-memory window");
	if (rank != me && rank != MPI_PROC_NULL)
		return lib_return("MPI_Win_shared_query", win, MPI_ERR_RANK, "rank not in the shared-memory domain");
	*size = w->size;
	*disp_unit = w->disp_unit;
	*(void **)baseptr = w->base;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	(void)info;
	return win_new("MPI_Win_create_dynamic", MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, 0, comm, win);
}

MPI_FN int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
	unsigned long b[] = {W(win), W(base), W(size), 0};

	return dpcl_mpi_win_attach((long)b);
}

MPI_FN int MPI_Win_detach(MPI_Win win, const void *base)
{
	unsigned long b[] = {W(win), W(base), 0, 1};

	return dpcl_mpi_win_attach((long)b);
}

MPI_FN int MPI_Win_free(MPI_Win *win)
{
	int rc = MPI_SUCCESS;
	struct win *w = win_get("MPI_Win_free", *win, &rc);
	unsigned long b[] = {W(*win)};
	MPI_Comm c = *win;

	if (w == NULL)
		return rc;
	if ((rc = attrs_delete_all("MPI_Win_free", c)) != MPI_SUCCESS)
		return rc;
	if ((rc = dpcl_mpi_win_free((long)b)) != MPI_SUCCESS)
		return rc;
	if (w->owns)
		free(w->base);
	memset(w, 0, sizeof *w);
	*win = MPI_WIN_NULL;
	return MPI_Comm_free(&c);
}

MPI_FN int MPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
	int rc = MPI_SUCCESS;

	if (win_get("MPI_Win_get_group", win, &rc) == NULL)
		return rc;
	return MPI_Comm_group(win, group);
}

/* The machine takes no window hints: what is set is accepted, what is used is empty. */
MPI_FN int MPI_Win_set_info(MPI_Win win, MPI_Info info)
{
	int rc = MPI_SUCCESS;

	(void)info;
	win_get("MPI_Win_set_info", win, &rc);
	return rc;
}

MPI_FN int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
	int rc = MPI_SUCCESS;

	if (win_get("MPI_Win_get_info", win, &rc) == NULL)
		return rc;
	return MPI_Info_create(info_used);
}

MPI_FN int MPI_Win_set_name(MPI_Win win, const char *name)
{
	return MPI_Comm_set_name(win, name);
}

MPI_FN int MPI_Win_get_name(MPI_Win win, char *name, int *resultlen)
{
	return MPI_Comm_get_name(win, name, resultlen);
}

MPI_FN int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn, MPI_Win_delete_attr_function *delete_fn,
	int *keyval, void *extra_state)
{
	return MPI_Comm_create_keyval((MPI_Comm_copy_attr_function *)copy_fn,
		(MPI_Comm_delete_attr_function *)delete_fn, keyval, extra_state);
}

MPI_FN int MPI_Win_free_keyval(int *keyval)
{
	return MPI_Comm_free_keyval(keyval);
}

MPI_FN int MPI_Win_set_attr(MPI_Win win, int keyval, void *attribute_val)
{
	return MPI_Comm_set_attr(win, keyval, attribute_val);
}

/* MPI_WIN_BASE's value is the base address; the others' a pointer to the value. */
MPI_FN int MPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
	int rc = MPI_SUCCESS;
	struct win *w = win_get("MPI_Win_get_attr", win, &rc);
	void *v;

	if (w == NULL)
		return rc;
	switch (keyval) {
	case MPI_WIN_BASE:
		v = w->base;
		break;
	case MPI_WIN_SIZE:
		v = &w->size;
		break;
	case MPI_WIN_DISP_UNIT:
		v = &w->disp_unit;
		break;
	case MPI_WIN_CREATE_FLAVOR:
		v = &w->flavor;
		break;
	case MPI_WIN_MODEL:
		v = &w->model;
		break;
	default:
		return MPI_Comm_get_attr(win, keyval, attribute_val, flag);
	}
	*(void **)attribute_val = v;
	*flag = 1;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Win_delete_attr(MPI_Win win, int keyval)
{
	return MPI_Comm_delete_attr(win, keyval);
}

MPI_FN int MPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
	return MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)fn, errhandler);
}

MPI_FN int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
	return MPI_Comm_set_errhandler(win, errhandler);
}

MPI_FN int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
	return MPI_Comm_get_errhandler(win, errhandler);
}

MPI_FN int MPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
	return MPI_Comm_call_errhandler(win, errorcode);
}

#include "libmpi_rma.c"
