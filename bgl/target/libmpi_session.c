/* libmpi_session.c: MPI 4 sessions (MPI_Session_init/finalize, the process sets,
 * MPI_Group_from_session_pset and MPI_Comm_create_from_group). Included by libmpi.c.
 *
 * A session is a library-kept handle with its info and error handler. The machine has two
 * process sets, "mpi://WORLD" (every rank of the job) and "mpi://SELF" (the calling rank),
 * named case-insensitively as MPICH does. The engine's MPI is started by the first session
 * of a program that has not called MPI_Init, and ended (MPI_Finalize's collective) when
 * that program's last session is finalized; the machine's MPI runs once per job, so a
 * session opened after that is refused. MPI_Comm_create_from_group is
 * MPI_Comm_create_group over MPI_COMM_WORLD, its string tag hashed to the integer tag. */

#include <strings.h>

#define SESSION_FIRST 1
enum { MAX_SESSIONS = 64 };
static struct session {
	int used;
	MPI_Info info;      /* what MPI_Session_get_info answers */
	MPI_Errhandler eh;  /* MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN or a user handler */
} sessions[MAX_SESSIONS];
static int nsessions_open;
static int sessions_ended_mpi; /* the last session finalized the engine's MPI */

static const char *const pset_names[] = {"mpi://WORLD", "mpi://SELF"};
enum { NPSETS = sizeof pset_names / sizeof pset_names[0] };

/* session_return reports an error found in a session call: fatal unless the session's
 * handler (the handler given to MPI_Session_init for errors before there is a session)
 * returns, as MPI 4's session error handlers do. */
static int session_return(const char *call, MPI_Errhandler eh, int class, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (eh == MPI_ERRORS_RETURN)
		return class;
	lib_error(call, class, "%s", what);
	return class;
}

/* session_get checks handle s; NULL (with *rc set) for one that names no open session. */
static struct session *session_get(const char *call, MPI_Session s, int *rc)
{
	if (s < SESSION_FIRST || s >= SESSION_FIRST + MAX_SESSIONS || !sessions[s - SESSION_FIRST].used) {
		*rc = session_return(call, MPI_ERRORS_ARE_FATAL, MPI_ERR_SESSION, "invalid session %d", s);
		return NULL;
	}
	return &sessions[s - SESSION_FIRST];
}

/* pset_index is the process set a name means, or -1. */
static int pset_index(const char *name)
{
	int i;

	for (i = 0; name != NULL && i < NPSETS; i++)
		if (strcasecmp(name, pset_names[i]) == 0)
			return i;
	return -1;
}

MPI_FN int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
	char level[MPI_MAX_INFO_VAL + 1];
	struct session *s;
	int i, flag = 0, rc;

	if (session == NULL)
		return session_return("MPI_Session_init", errhandler, MPI_ERR_ARG, "session is NULL");
	if (!valid_eh(errhandler) || errhandler == MPI_ERRHANDLER_NULL)
		return session_return("MPI_Session_init", MPI_ERRORS_ARE_FATAL, MPI_ERR_ARG,
			"invalid error handler %d", errhandler);
	if (sessions_ended_mpi || mpi_finalized)
		return session_return("MPI_Session_init", errhandler, MPI_ERR_OTHER,
			"the job's MPI has been finalized (it runs once per job)");
	for (i = 0; i < MAX_SESSIONS && sessions[i].used; i++)
		;
	if (i == MAX_SESSIONS)
		return session_return("MPI_Session_init", errhandler, MPI_ERR_NO_MEM, "more than %d open sessions",
			MAX_SESSIONS);
	if (info != MPI_INFO_NULL && (rc = MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, level, &flag)) != MPI_SUCCESS)
		return rc;
	if (!mpi_initialized && nsessions_open == 0 && (rc = dpcl_mpi_init()) != MPI_SUCCESS)
		return rc;
	s = &sessions[i];
	s->used = 1;
	s->eh = errhandler;
	eh_ref(errhandler, +1);
	/* The level asked for is the level given: the CNK runs one thread per process, so no
	 * two MPI calls of a process can overlap and every level's promise holds. */
	MPI_Info_create(&s->info);
	MPI_Info_set(s->info, "thread_level", flag ? level : "MPI_THREAD_SINGLE");
	nsessions_open++;
	*session = SESSION_FIRST + i;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Session_finalize(MPI_Session *session)
{
	struct session *s;
	int rc = MPI_SUCCESS;

	if (session == NULL)
		return session_return("MPI_Session_finalize", MPI_ERRORS_ARE_FATAL, MPI_ERR_ARG, "session is NULL");
	if ((s = session_get("MPI_Session_finalize", *session, &rc)) == NULL)
		return rc;
	MPI_Info_free(&s->info);
	eh_ref(s->eh, -1);
	s->used = 0;
	*session = MPI_SESSION_NULL;
	if (--nsessions_open == 0 && !mpi_initialized) {
		sessions_ended_mpi = 1;
		rc = dpcl_mpi_finalize();
	}
	return rc;
}

MPI_FN int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
	int rc = MPI_SUCCESS;
	struct session *s = session_get("MPI_Session_get_info", session, &rc);

	if (s == NULL)
		return rc;
	return MPI_Info_dup(s->info, info_used);
}

MPI_FN int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
	int rc = MPI_SUCCESS;

	(void)info;
	if (session_get("MPI_Session_get_num_psets", session, &rc) == NULL)
		return rc;
	*npset_names = NPSETS;
	return MPI_SUCCESS;
}

/* MPI_Session_get_nth_pset: a *pset_len of 0 asks for the length (with the NUL); else up
 * to *pset_len bytes of the name are written, NUL-terminated. */
MPI_FN int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
	int rc = MPI_SUCCESS, len;
	struct session *s = session_get("MPI_Session_get_nth_pset", session, &rc);

	(void)info;
	if (s == NULL)
		return rc;
	if (n < 0 || n >= NPSETS)
		return session_return("MPI_Session_get_nth_pset", s->eh, MPI_ERR_ARG,
			"process set %d does not exist (there are %d)", n, NPSETS);
	len = (int)strlen(pset_names[n]) + 1;
	if (*pset_len == 0) {
		*pset_len = len;
		return MPI_SUCCESS;
	}
	snprintf(pset_name, *pset_len, "%s", pset_names[n]);
	return MPI_SUCCESS;
}

/* pset_size is the number of processes in process set i. */
static int pset_size(int i)
{
	return i == 0 ? dpcl_size() : 1;
}

MPI_FN int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
	int rc = MPI_SUCCESS, i;
	struct session *s = session_get("MPI_Session_get_pset_info", session, &rc);
	char size[16];

	if (s == NULL)
		return rc;
	if ((i = pset_index(pset_name)) < 0)
		return session_return("MPI_Session_get_pset_info", s->eh, MPI_ERR_ARG, "no process set \"%s\"",
			pset_name == NULL ? "(null)" : pset_name);
	if ((rc = MPI_Info_create(info)) != MPI_SUCCESS)
		return rc;
	snprintf(size, sizeof size, "%d", pset_size(i));
	return MPI_Info_set(*info, "mpi_size", size);
}

MPI_FN int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
	int rc = MPI_SUCCESS, i, r, n, *world;
	struct session *s = session_get("MPI_Group_from_session_pset", session, &rc);

	if (s == NULL)
		return rc;
	if ((i = pset_index(pset_name)) < 0)
		return session_return("MPI_Group_from_session_pset", s->eh, MPI_ERR_ARG, "no process set \"%s\"",
			pset_name == NULL ? "(null)" : pset_name);
	n = pset_size(i);
	world = malloc(sizeof *world * n);
	if (world == NULL)
		return session_return("MPI_Group_from_session_pset", s->eh, MPI_ERR_NO_MEM, "no memory for a group of %d", n);
	for (r = 0; r < n; r++)
		world[r] = i == 0 ? r : dpcl_rank();
	return group_new("MPI_Group_from_session_pset", n, world, newgroup);
}

/* string_tag hashes MPI_Comm_create_from_group's tag (FNV-1a) to a valid integer tag:
 * the members of one group pass the same string, so they meet on the same tag. */
static int string_tag(const char *tag)
{
	unsigned h = 2166136261u;

	for (; *tag != '\0'; tag++)
		h = (h ^ (unsigned char)*tag) * 16777619u;
	return (int)(h % 32768u);
}

MPI_FN int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
	MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
	int rc;

	(void)info;
	if (stringtag == NULL)
		return session_return("MPI_Comm_create_from_group", errhandler, MPI_ERR_ARG, "the string tag is NULL");
	if (group == MPI_GROUP_NULL)
		return session_return("MPI_Comm_create_from_group", errhandler, MPI_ERR_GROUP, "group is MPI_GROUP_NULL");
	if ((rc = MPI_Comm_create_group(MPI_COMM_WORLD, group, string_tag(stringtag), newcomm)) != MPI_SUCCESS)
		return rc;
	if (*newcomm != MPI_COMM_NULL && errhandler != MPI_ERRHANDLER_NULL)
		return MPI_Comm_set_errhandler(*newcomm, errhandler);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
	int rc = MPI_SUCCESS;
	struct session *s = session_get("MPI_Session_get_errhandler", session, &rc);

	if (s == NULL)
		return rc;
	eh_ref(s->eh, +1);
	*errhandler = s->eh;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
	int rc = MPI_SUCCESS;
	struct session *s = session_get("MPI_Session_set_errhandler", session, &rc);

	if (s == NULL)
		return rc;
	if (!valid_eh(errhandler) || errhandler == MPI_ERRHANDLER_NULL)
		return session_return("MPI_Session_set_errhandler", s->eh, MPI_ERR_ARG, "invalid error handler %d",
			errhandler);
	eh_ref(errhandler, +1);
	eh_ref(s->eh, -1);
	s->eh = errhandler;
	return MPI_SUCCESS;
}
