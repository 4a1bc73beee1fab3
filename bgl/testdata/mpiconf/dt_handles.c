/* dt_handles: MPI_Type_get_contents gives back the very handles a type was built from
 * (their envelopes are their own constructors', and each is one more handle to free),
 * a type lives on while a type built on it does, and a program may keep thousands of
 * derived types at once (more than 1,024), each carrying data around the ring. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { NTYPES = 3000 };

static int rank, size;

/* say prints one whole line with one write: MPICH leaves a rank's stdout unbuffered, and
 * mpiexec -l labels each write, so a line printed in pieces would come out split. */
static void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fputs(line, stdout);
}

static void contents_of_vector_of_vectors(void)
{
	MPI_Datatype inner, outer, got[1], again[1];
	int ints[3], ni, na, nd, comb;
	MPI_Aint addrs[1];

	MPI_Type_vector(2, 1, 2, MPI_INT, &inner);
	MPI_Type_vector(2, 1, 2, inner, &outer);
	MPI_Type_get_contents(outer, 3, 0, 1, ints, addrs, got);
	MPI_Type_get_envelope(got[0], &ni, &na, &nd, &comb);
	say("rank %d: outer ints %d %d %d; inner back %s, combiner %s (%d %d %d)\n", rank, ints[0], ints[1],
		ints[2], got[0] == inner ? "the same handle" : "another handle",
		comb == MPI_COMBINER_VECTOR ? "vector" : comb == MPI_COMBINER_DUP ? "dup" : "other", ni, na, nd);
	MPI_Type_free(&got[0]);
	/* The program's own handle to inner still works after the returned one is freed. */
	MPI_Type_get_envelope(inner, &ni, &na, &nd, &comb);
	say("rank %d: inner after freeing the returned handle: combiner %s\n", rank,
		comb == MPI_COMBINER_VECTOR ? "vector" : "other");
	/* With inner freed, outer still names it. */
	MPI_Type_free(&inner);
	MPI_Type_get_contents(outer, 3, 0, 1, ints, addrs, again);
	MPI_Type_get_envelope(again[0], &ni, &na, &nd, &comb);
	MPI_Type_get_contents(again[0], 3, 0, 1, ints, addrs, got);
	say("rank %d: inner through outer after its free: combiner %s, ints %d %d %d, oldtype %s\n", rank,
		comb == MPI_COMBINER_VECTOR ? "vector" : "other", ints[0], ints[1], ints[2],
		got[0] == MPI_INT ? "MPI_INT" : "other");
	MPI_Type_free(&again[0]);
	MPI_Type_free(&outer);
}

static void thousands_of_types(void)
{
	MPI_Datatype *t = malloc(sizeof *t * NTYPES);
	int i, k, sum = 0, sent[8], got[8];

	for (i = 0; i < NTYPES; i++) {
		MPI_Type_contiguous(i % 7 + 1, MPI_INT, &t[i]);
		MPI_Type_commit(&t[i]);
	}
	for (i = 0; i < NTYPES; i += 211) {
		int n = i % 7 + 1, tsize;

		for (k = 0; k < 8; k++) {
			sent[k] = rank * 1000 + i + k;
			got[k] = -1;
		}
		MPI_Sendrecv(sent, 1, t[i], (rank + 1) % size, i, got, 1, t[i], (rank + size - 1) % size, i,
			MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Type_size(t[i], &tsize);
		for (k = 0; k < 8; k++)
			sum += got[k];
		say("rank %d: type %d of %d ints (size %d): got %d .. %d, then %d\n", rank, i, n, tsize, got[0],
			got[n - 1], got[n]);
	}
	for (i = 0; i < NTYPES; i++)
		MPI_Type_free(&t[i]);
	/* Freed handles are reused: as many again fit. */
	for (i = 0; i < NTYPES; i++)
		MPI_Type_vector(2, 1, 3, MPI_INT, &t[i]);
	for (i = 0; i < NTYPES; i++)
		MPI_Type_free(&t[i]);
	say("rank %d: %d types twice, checksum %d\n", rank, NTYPES, sum);
	free(t);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	contents_of_vector_of_vectors();
	thousands_of_types();
	MPI_Finalize();
	return 0;
}
