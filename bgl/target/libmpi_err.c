/* libmpi_err.c: error handlers, error classes and codes, and their strings. Included by
 * libmpi.c.
 *
 * libmpi keeps each communicator's handler. The engine only learns whether errors on a
 * communicator return (dpcl_mpi_comm_errhandler): with MPI_ERRORS_RETURN or a user
 * handler a failing engine call returns its class; with MPI_ERRORS_ARE_FATAL it ends the
 * job with a line naming rank, call, pc and class. A user handler runs when the program
 * calls MPI_Comm_call_errhandler; an engine error on its communicator returns the class
 * without running it. Dynamic classes and codes (MPI_Add_error_class/code) take numbers
 * from ERR_FIRST_DYNAMIC up, one space for both, as MPICH's do. */

static struct comm_eh {
	MPI_Comm comm;
	MPI_Errhandler eh;
} comm_ehs[256];
static int ncomm_ehs;

enum { MAX_USER_EH = 64, EH_FIRST_USER = 3 };
static MPI_Comm_errhandler_function *user_ehs[MAX_USER_EH];
/* user_eh_used counts the references to a user handler: its handle until
 * MPI_Errhandler_free, and each communicator that has it. At 0 the slot is free. */
static int user_eh_used[MAX_USER_EH];

static void eh_ref(MPI_Errhandler eh, int delta)
{
	if (eh >= EH_FIRST_USER && eh < EH_FIRST_USER + MAX_USER_EH)
		user_eh_used[eh - EH_FIRST_USER] += delta;
}

static int valid_eh(MPI_Errhandler eh)
{
	int i = eh - EH_FIRST_USER;

	return eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN ||
		(i >= 0 && i < MAX_USER_EH && user_eh_used[i]);
}

static MPI_Errhandler comm_eh_of(MPI_Comm comm)
{
	int i;

	for (i = 0; i < ncomm_ehs; i++)
		if (comm_ehs[i].comm == comm)
			return comm_ehs[i].eh;
	return MPI_ERRORS_ARE_FATAL;
}

/* set_comm_eh records comm's handler and tells the engine whether its errors return. */
static int set_comm_eh(MPI_Comm comm, MPI_Errhandler eh)
{
	unsigned long b[] = {W(comm), W(eh != MPI_ERRORS_ARE_FATAL)};
	int i, rc = dpcl_mpi_comm_errhandler((long)b);

	if (rc != MPI_SUCCESS)
		return rc;
	for (i = 0; i < ncomm_ehs && comm_ehs[i].comm != comm; i++)
		;
	if (i == ncomm_ehs) {
		if (ncomm_ehs == (int)(sizeof comm_ehs / sizeof comm_ehs[0]))
			lib_error("MPI_Comm_set_errhandler", MPI_ERR_NO_MEM, "more than %d communicators with handlers", ncomm_ehs);
		ncomm_ehs++;
	} else {
		eh_ref(comm_ehs[i].eh, -1);
	}
	eh_ref(eh, +1);
	comm_ehs[i].comm = comm;
	comm_ehs[i].eh = eh;
	return MPI_SUCCESS;
}

/* inherit_eh gives a new communicator its parent's handler, as MPI_Comm_dup must. */
static void inherit_eh(MPI_Comm parent, MPI_Comm child)
{
	MPI_Errhandler eh = comm_eh_of(parent);

	if (child != MPI_COMM_NULL && eh != MPI_ERRORS_ARE_FATAL)
		set_comm_eh(child, eh);
}

/* forget_eh drops a freed communicator's handler (the handle may be issued again). */
static void forget_eh(MPI_Comm comm)
{
	int i;

	for (i = 0; i < ncomm_ehs; i++)
		if (comm_ehs[i].comm == comm) {
			eh_ref(comm_ehs[i].eh, -1);
			comm_ehs[i] = comm_ehs[--ncomm_ehs];
			return;
		}
}

/* lib_return reports an error libmpi finds in a call on comm: fatal under
 * MPI_ERRORS_ARE_FATAL, else the class is returned (after a user handler has run). */
static int lib_return(const char *call, MPI_Comm comm, int class, const char *what)
{
	MPI_Errhandler eh = comm_eh_of(comm);
	int code = class;

	if (eh == MPI_ERRORS_ARE_FATAL)
		lib_error(call, class, "%s", what);
	if (eh != MPI_ERRORS_RETURN)
		user_ehs[eh - EH_FIRST_USER](&comm, &code);
	return class;
}

MPI_FN int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
	int i;

	for (i = 0; i < MAX_USER_EH && user_eh_used[i]; i++)
		;
	if (fn == NULL)
		return lib_return("MPI_Comm_create_errhandler", MPI_COMM_WORLD, MPI_ERR_ARG, "the handler function is NULL");
	if (i == MAX_USER_EH)
		return lib_return("MPI_Comm_create_errhandler", MPI_COMM_WORLD, MPI_ERR_NO_MEM, "too many error handlers");
	user_eh_used[i] = 1;
	user_ehs[i] = fn;
	*errhandler = EH_FIRST_USER + i;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
	char what[64];

	if (!valid_eh(errhandler)) {
		snprintf(what, sizeof what, "invalid error handler %d", errhandler);
		return lib_return("MPI_Comm_set_errhandler", comm, MPI_ERR_ARG, what);
	}
	return set_comm_eh(comm, errhandler);
}

MPI_FN int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
	if (comm == MPI_COMM_NULL)
		return lib_return("MPI_Comm_get_errhandler", MPI_COMM_WORLD, MPI_ERR_COMM, "invalid communicator MPI_COMM_NULL");
	/* The handle returned is a new reference, which the program frees. */
	*errhandler = comm_eh_of(comm);
	eh_ref(*errhandler, +1);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
	/* A user handler stays usable by the communicators that have it; the handle is
	 * what is freed. */
	if (!valid_eh(*errhandler))
		return lib_return("MPI_Errhandler_free", MPI_COMM_WORLD, MPI_ERR_ARG, "invalid error handler");
	eh_ref(*errhandler, -1);
	*errhandler = MPI_ERRHANDLER_NULL;
	return MPI_SUCCESS;
}

enum { ERR_FIRST_DYNAMIC = MPI_ERR_LASTCODE + 1, MAX_DYNAMIC = 256 };
static int ndynamic;
static int dyn_class[MAX_DYNAMIC];
static char *dyn_string[MAX_DYNAMIC];

static const char *const err_strings[] = {
	[MPI_SUCCESS] = "No MPI error",
	[MPI_ERR_BUFFER] = "Invalid buffer pointer",
	[MPI_ERR_COUNT] = "Invalid count",
	[MPI_ERR_TYPE] = "Invalid datatype",
	[MPI_ERR_TAG] = "Invalid tag",
	[MPI_ERR_COMM] = "Invalid communicator",
	[MPI_ERR_RANK] = "Invalid rank",
	[MPI_ERR_ROOT] = "Invalid root",
	[MPI_ERR_GROUP] = "Invalid group",
	[MPI_ERR_OP] = "Invalid MPI_Op",
	[MPI_ERR_TOPOLOGY] = "Invalid topology",
	[MPI_ERR_DIMS] = "Invalid dimension argument",
	[MPI_ERR_ARG] = "Invalid argument",
	[MPI_ERR_UNKNOWN] = "Unknown error",
	[MPI_ERR_TRUNCATE] = "Message truncated",
	[MPI_ERR_OTHER] = "Other MPI error",
	[MPI_ERR_INTERN] = "Internal MPI error!",
	[MPI_ERR_IN_STATUS] = "See the MPI_ERROR field in MPI_Status for the error code",
	[MPI_ERR_PENDING] = "Pending request (no error)",
	[MPI_ERR_REQUEST] = "Invalid MPI_Request",
	[MPI_ERR_ACCESS] = "Permission denied",
	[MPI_ERR_AMODE] = "Invalid amode value in MPI_File_open",
	[MPI_ERR_BAD_FILE] = "Invalid file name",
	[MPI_ERR_CONVERSION] = "An error occurred in a user-defined data conversion function",
	[MPI_ERR_DUP_DATAREP] = "The requested datarep name has already been specified",
	[MPI_ERR_FILE_EXISTS] = "File exists",
	[MPI_ERR_FILE_IN_USE] = "File in use by some process",
	[MPI_ERR_FILE] = "Invalid MPI_File",
	[MPI_ERR_INFO] = "Invalid MPI_Info",
	[MPI_ERR_INFO_KEY] = "Invalid key for MPI_Info",
	[MPI_ERR_INFO_VALUE] = "Invalid MPI_Info value",
	[MPI_ERR_INFO_NOKEY] = "MPI_Info key is not defined",
	[MPI_ERR_IO] = "Other I/O error",
	[MPI_ERR_NAME] = "Invalid service name",
	[MPI_ERR_NO_MEM] = "Unable to allocate memory",
	[MPI_ERR_NOT_SAME] = "Inconsistent arguments to collective routine",
	[MPI_ERR_NO_SPACE] = "Not enough space for file",
	[MPI_ERR_NO_SUCH_FILE] = "File does not exist",
	[MPI_ERR_PORT] = "Invalid port",
	[MPI_ERR_QUOTA] = "Quota exceeded for files",
	[MPI_ERR_READ_ONLY] = "Read-only file or filesystem name",
	[MPI_ERR_SERVICE] = "Attempt to lookup an unknown service name",
	[MPI_ERR_SPAWN] = "Error in spawn call",
	[MPI_ERR_UNSUPPORTED_DATAREP] = "Unsupported datarep passed to MPI_File_set_view",
	[MPI_ERR_UNSUPPORTED_OPERATION] = "Operation not supported",
	[MPI_ERR_WIN] = "Invalid MPI_Win",
	[MPI_ERR_BASE] = "Invalid base address",
	[MPI_ERR_LOCKTYPE] = "Invalid lock type",
	[MPI_ERR_KEYVAL] = "Invalid keyval",
	[MPI_ERR_RMA_CONFLICT] = "Conflicting accesses to window",
	[MPI_ERR_RMA_SYNC] = "Wrong synchronization of RMA calls",
	[MPI_ERR_SIZE] = "Invalid size argument",
	[MPI_ERR_DISP] = "Invalid displacement argument",
	[MPI_ERR_ASSERT] = "Invalid assert argument",
	[MPI_ERR_RMA_RANGE] = "Target memory is not part of the window",
	[MPI_ERR_RMA_ATTACH] = "Memory cannot be attached",
	[MPI_ERR_RMA_SHARED] = "Memory cannot be shared",
	[MPI_ERR_RMA_FLAVOR] = "Passed window has incorrect flavor for the called function",
	[MPI_ERR_SESSION] = "Invalid session handle",
};

enum { NPREDEF_ERR = sizeof err_strings / sizeof err_strings[0] };

/* err_class is the class of code, or -1 when no class has it. */
static int err_class(int code)
{
	if (code >= 0 && code < NPREDEF_ERR && err_strings[code] != NULL)
		return code;
	if (code >= ERR_FIRST_DYNAMIC && code < ERR_FIRST_DYNAMIC + ndynamic)
		return dyn_class[code - ERR_FIRST_DYNAMIC];
	return -1;
}

/* last_used_code is the MPI_LASTUSEDCODE attribute's value. */
static int last_used_code = ERR_FIRST_DYNAMIC - 1;

MPI_FN int MPI_Error_class(int errorcode, int *errorclass)
{
	char what[64];
	int class = err_class(errorcode);

	if (class < 0) {
		snprintf(what, sizeof what, "invalid error code %d", errorcode);
		return lib_return("MPI_Error_class", MPI_COMM_WORLD, MPI_ERR_ARG, what);
	}
	*errorclass = class;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
	const char *s;
	char what[64];
	int class = err_class(errorcode);

	if (class < 0) {
		snprintf(what, sizeof what, "invalid error code %d", errorcode);
		return lib_return("MPI_Error_string", MPI_COMM_WORLD, MPI_ERR_ARG, what);
	}
	if (errorcode >= ERR_FIRST_DYNAMIC) {
		s = dyn_string[errorcode - ERR_FIRST_DYNAMIC];
		if (s == NULL)
			s = "";
	} else {
		s = err_strings[errorcode];
	}
	*resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", s);
	if (*resultlen >= MPI_MAX_ERROR_STRING)
		*resultlen = MPI_MAX_ERROR_STRING - 1;
	return MPI_SUCCESS;
}

static int add_dynamic(const char *call, int class)
{
	if (ndynamic == MAX_DYNAMIC)
		return -lib_return(call, MPI_COMM_WORLD, MPI_ERR_NO_MEM, "too many error classes and codes");
	dyn_class[ndynamic] = class < 0 ? ERR_FIRST_DYNAMIC + ndynamic : class;
	last_used_code = ERR_FIRST_DYNAMIC + ndynamic;
	return ERR_FIRST_DYNAMIC + ndynamic++;
}

MPI_FN int MPI_Add_error_class(int *errorclass)
{
	int c = add_dynamic("MPI_Add_error_class", -1);

	if (c < 0)
		return -c;
	*errorclass = c;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Add_error_code(int errorclass, int *errorcode)
{
	char what[64];
	int c;

	if (err_class(errorclass) != errorclass) {
		snprintf(what, sizeof what, "invalid error class %d", errorclass);
		return lib_return("MPI_Add_error_code", MPI_COMM_WORLD, MPI_ERR_ARG, what);
	}
	c = add_dynamic("MPI_Add_error_code", errorclass);
	if (c < 0)
		return -c;
	*errorcode = c;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Add_error_string(int errorcode, const char *string)
{
	char what[64];
	int i = errorcode - ERR_FIRST_DYNAMIC;

	if (i < 0 || i >= ndynamic) {
		snprintf(what, sizeof what, "error code %d is not one of MPI_Add_error_class/code's", errorcode);
		return lib_return("MPI_Add_error_string", MPI_COMM_WORLD, MPI_ERR_ARG, what);
	}
	free(dyn_string[i]);
	dyn_string[i] = strdup(string);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
	char what[96];
	int class = err_class(errorcode);

	snprintf(what, sizeof what, "error code %d raised by the program", errorcode);
	if (comm_eh_of(comm) == MPI_ERRORS_ARE_FATAL)
		lib_error("MPI_Comm_call_errhandler", class < 0 ? MPI_ERR_UNKNOWN : class, "%s", what);
	lib_return("MPI_Comm_call_errhandler", comm, errorcode, what);
	return MPI_SUCCESS;
}
