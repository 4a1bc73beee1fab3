/* icoll_uop: the nonblocking reductions with user operations: MPI_Ireduce (roots 0 and
 * last, in place at the root), MPI_Iallreduce (in place too), MPI_Iscan, MPI_Iexscan,
 * MPI_Ireduce_scatter and MPI_Ireduce_scatter_block with a non-commutative operation,
 * completed by MPI_Wait, MPI_Test loops and MPI_Waitall, and a strided derived type with
 * a commutative operation freed before the Wait; MPI_Igather into a duplicate of MPI_INT
 * freed before the Wait and MPI_Ibcast of a contiguous type, derived types that are one
 * run of a predefined one. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;
static char outbuf[4096];

/* affine composes maps x -> a*x + b stored as (a, b) int pairs: not commutative. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *f = in, *g = inout, i;

	(void)type;
	for (i = 0; i < *len; i++) {
		int a = f[2 * i] * g[2 * i], b = f[2 * i] * g[2 * i + 1] + f[2 * i + 1];

		g[2 * i] = a % 1000;
		g[2 * i + 1] = b % 1000;
	}
}

/* strided_sum adds every other int (the derived type's elements). */
static void strided_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *a = in, *b = inout, i;

	(void)type;
	for (i = 0; i < *len; i++)
		b[2 * i] += a[2 * i];
}

static void line(const char *what, const int *v, int n)
{
	char buf[2048];
	int i, len = snprintf(buf, sizeof buf, "rank %d: %s:", rank, what);

	for (i = 0; i < n && len < (int)sizeof buf - 16; i++)
		len += snprintf(buf + len, sizeof buf - len, " %d", v[i]);
	printf("%s\n", buf);
}

static void mine(int *v, int pairs)
{
	int i;

	for (i = 0; i < pairs; i++) {
		v[2 * i] = 2 + (rank + i) % 5;
		v[2 * i + 1] = 1 + 3 * rank + i;
	}
}

static void clear(int *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = -7;
}

int main(int argc, char **argv)
{
	int sb[64], rb[64], rb2[64], counts[16], i, flag = 0;
	MPI_Datatype pair, every_other;
	MPI_Op aff, ssum;
	MPI_Request reqs[2];

	MPI_Init(&argc, &argv);
	/* A line per write, so mpiexec -l labels whole lines however it reads the pipe. */
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Type_contiguous(2, MPI_INT, &pair);
	MPI_Type_commit(&pair);
	MPI_Op_create(affine, 0, &aff);

	mine(sb, 3);
	clear(rb, 64);
	MPI_Ireduce(sb, rb, 3, pair, aff, 0, MPI_COMM_WORLD, &reqs[0]);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	line("ireduce root 0", rb, 6);

	clear(rb, 64);
	mine(rb, 3);
	if (rank == size - 1)
		MPI_Ireduce(MPI_IN_PLACE, rb, 3, pair, aff, size - 1, MPI_COMM_WORLD, &reqs[0]);
	else
		MPI_Ireduce(rb, NULL, 3, pair, aff, size - 1, MPI_COMM_WORLD, &reqs[0]);
	while (!flag)
		MPI_Test(&reqs[0], &flag, MPI_STATUS_IGNORE);
	line("ireduce in place at the last", rb, 6);

	clear(rb, 64);
	clear(rb2, 64);
	mine(rb2, 2);
	MPI_Iallreduce(sb, rb, 2, pair, aff, MPI_COMM_WORLD, &reqs[0]);
	MPI_Iallreduce(MPI_IN_PLACE, rb2, 2, pair, aff, MPI_COMM_WORLD, &reqs[1]);
	MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
	line("iallreduce", rb, 4);
	line("iallreduce in place", rb2, 4);

	clear(rb, 64);
	clear(rb2, 64);
	MPI_Iscan(sb, rb, 3, pair, aff, MPI_COMM_WORLD, &reqs[0]);
	MPI_Iexscan(sb, rb2, 3, pair, aff, MPI_COMM_WORLD, &reqs[1]);
	MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
	line("iscan", rb, 6);
	if (rank > 0)
		line("iexscan", rb2, 6);

	mine(sb, 2 * size);
	clear(rb, 64);
	for (i = 0; i < size; i++)
		counts[i] = 1 + i % 2;
	MPI_Ireduce_scatter(sb, rb, counts, pair, aff, MPI_COMM_WORLD, &reqs[0]);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	line("ireduce_scatter", rb, 2 * counts[rank] + 1);

	clear(rb, 64);
	MPI_Ireduce_scatter_block(sb, rb, 2, pair, aff, MPI_COMM_WORLD, &reqs[0]);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	line("ireduce_scatter_block", rb, 5);

	/* Every other int, a commutative operation freed before the Wait. */
	MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other);
	MPI_Type_commit(&every_other);
	MPI_Op_create(strided_sum, 1, &ssum);
	for (i = 0; i < 8; i++)
		sb[i] = 10 * rank + i;
	clear(rb, 64);
	MPI_Iallreduce(sb, rb, 4, every_other, ssum, MPI_COMM_WORLD, &reqs[0]);
	MPI_Op_free(&ssum);
	MPI_Type_free(&every_other);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	line("iallreduce strided", rb, 7);

	/* Derived types that are one run of a predefined type. */
	MPI_Type_dup(MPI_INT, &every_other);
	for (i = 0; i < 3; i++)
		sb[i] = 100 * rank + i;
	clear(rb, 64);
	MPI_Igather(sb, 3, MPI_INT, rb, 3, every_other, size - 1, MPI_COMM_WORLD, &reqs[0]);
	MPI_Type_free(&every_other);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	line("igather dup", rb, 3 * size + 1);
	clear(rb, 64);
	if (rank == 0)
		mine(rb, 3);
	MPI_Ibcast(rb, 3, pair, 0, MPI_COMM_WORLD, &reqs[0]);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	line("ibcast pairs", rb, 7);

	MPI_Op_free(&aff);
	MPI_Type_free(&pair);
	MPI_Finalize();
	return 0;
}
