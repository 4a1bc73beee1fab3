/* libmpi_after.c: work the library owes a nonblocking collective when it completes. The
 * engine moves bytes; what only the library can do — unpack derived types into the
 * caller's buffers, fold the contributions with a user operation (the function lives in
 * this process) — is registered here with the request and runs in the Wait or Test that
 * frees it (WITH_PENDING in libmpi.c), never at the call. Included by libmpi.c before
 * the nonblocking collectives. */

struct after {
	MPI_Request req;
	void (*run)(void *ctx);
	void *ctx;
};

enum { MAX_AFTER = 256 };
static struct after afters[MAX_AFTER];
static int after_count;

/* after_add registers run(ctx) for when request req completes. */
static void after_add(const char *call, MPI_Request req, void (*run)(void *), void *ctx)
{
	int i;

	for (i = 0; i < MAX_AFTER; i++)
		if (afters[i].run == NULL) {
			afters[i].req = req;
			afters[i].run = run;
			afters[i].ctx = ctx;
			after_count++;
			return;
		}
	lib_error(call, MPI_ERR_OTHER, "more than %d nonblocking collectives pending completion work", MAX_AFTER);
}

/* after_settle runs the work of the requests a Wait or Test just freed: before[i] was
 * active and after[i] is MPI_REQUEST_NULL. Work runs in the order it was registered for
 * one request (there is one per request). */
static void after_settle(const MPI_Request *before, const MPI_Request *after, int n)
{
	int i, k;

	for (i = 0; i < n && after_count > 0; i++) {
		if (before[i] == MPI_REQUEST_NULL || after[i] != MPI_REQUEST_NULL)
			continue;
		for (k = 0; k < MAX_AFTER; k++)
			if (afters[k].run != NULL && afters[k].req == before[i]) {
				void (*run)(void *) = afters[k].run;

				afters[k].run = NULL;
				after_count--;
				run(afters[k].ctx);
			}
	}
}

static int after_any(void)
{
	return after_count > 0;
}
