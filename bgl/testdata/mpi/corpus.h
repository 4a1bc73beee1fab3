/* corpus.h: helpers shared by the MPI test corpus.
 *
 * Every program prints only values that do not depend on timing, one line at a time
 * (stdout is line-buffered so lines from different ranks never split). Output is compared
 * grouped by rank, in each rank's own order. */
#ifndef CORPUS_H
#define CORPUS_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int corpus_rank, corpus_size, corpus_failures;

/* corpus_init starts MPI and records the rank and size. */
static inline void corpus_init(int *argc, char ***argv)
{
	static char buf[4096];

	MPI_Init(argc, argv);
	/* A buffer of our own: with a NULL one glibc may write a line in pieces. */
	setvbuf(stdout, buf, _IOLBF, sizeof buf);
	MPI_Comm_rank(MPI_COMM_WORLD, &corpus_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &corpus_size);
}

/* say prints one line prefixed with the caller's rank. */
static inline void say(const char *fmt, ...)
{
	char line[512];
	int n;
	va_list ap;

	n = snprintf(line, sizeof line, "rank %d: ", corpus_rank);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	fputs(line, stdout);
}

/* check records a failed expectation and says what it was. */
static inline void check(int ok, const char *what)
{
	if (!ok) {
		corpus_failures++;
		say("FAIL %s", what);
	}
}

/* corpus_finish agrees on the failure count, lets rank 0 report it, and ends MPI. It
 * returns the exit status: 0 when every rank passed, 1 otherwise. */
static inline int corpus_finish(const char *name)
{
	int all;

	MPI_Allreduce(&corpus_failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (corpus_rank == 0)
		say("%s: %s (%d failures)", name, all == 0 ? "ok" : "FAILED", all);
	MPI_Finalize();
	return all == 0 ? 0 : 1;
}

#endif /* CORPUS_H */
