/* dt_coll: derived datatypes in every collective. Each rank owns a strided array (a vector
 * type of every other int) and the collectives send it, receive into it, or both, with the
 * other side a plain MPI_INT count of the same size, in place too. Every rank prints what
 * it received. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K = 3, MAXR = 8 };

static int rank, size;

static void show(const char *what, const int *v, int n)
{
	char line[1024];
	int i, len = snprintf(line, sizeof line, "rank %d: %s:", rank, what);

	for (i = 0; i < n && len < (int)sizeof line - 16; i++)
		len += snprintf(line + len, sizeof line - len, " %d", v[i]);
	printf("%s\n", line);
}

static void fill(int *v, int n, int base)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = base + i;
}

int main(int argc, char **argv)
{
	/* strided: K ints, every other one; its extent is 2K-1 ints. */
	MPI_Datatype strided, three;
	int sbuf[2 * K * MAXR], rbuf[2 * K * MAXR], flat[K * MAXR], counts[MAXR], displs[MAXR], i;
	int scounts[MAXR], sdispls[MAXR];
	const int ext = 2 * K - 1;

	static char outbuf[4096];

	MPI_Init(&argc, &argv);
	/* A buffer of our own: with a NULL one glibc may write a line in pieces. */
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > MAXR) {
		if (rank == 0)
			printf("at most %d ranks\n", MAXR);
		MPI_Finalize();
		return 0;
	}
	MPI_Type_vector(K, 1, 2, MPI_INT, &strided);
	MPI_Type_commit(&strided);
	MPI_Type_contiguous(K, MPI_INT, &three);
	MPI_Type_commit(&three);

	/* Gather: a strided send, flat at the root; then flat sends into strided slots. */
	fill(sbuf, 2 * K, 100 * rank);
	memset(flat, 0, sizeof flat);
	MPI_Gather(sbuf, 1, strided, flat, K, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0)
		show("gather strided->flat", flat, K * size);
	fill(flat, K, 10 * rank);
	memset(rbuf, 0, sizeof rbuf);
	MPI_Gather(flat, K, MPI_INT, rbuf, 1, strided, size - 1, MPI_COMM_WORLD);
	if (rank == size - 1)
		show("gather flat->strided", rbuf, ext * size);

	/* Gather in place at the root, strided. */
	memset(rbuf, 0, sizeof rbuf);
	fill(rbuf + rank * ext, ext, 1000 + rank);
	if (rank == 0)
		MPI_Gather(MPI_IN_PLACE, 0, MPI_INT, rbuf, 1, strided, 0, MPI_COMM_WORLD);
	else
		MPI_Gather(rbuf + rank * ext, 1, strided, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0)
		show("gather in place", rbuf, ext * size);

	/* Scatter: strided at the root, flat received; flat at the root, strided received. */
	fill(sbuf, 2 * K * MAXR, 7);
	memset(flat, 0, sizeof flat);
	MPI_Scatter(sbuf, 1, strided, flat, K, MPI_INT, 0, MPI_COMM_WORLD);
	show("scatter strided->flat", flat, K);
	memset(rbuf, 0, sizeof rbuf);
	MPI_Scatter(sbuf, K, MPI_INT, rbuf, 1, strided, 0, MPI_COMM_WORLD);
	show("scatter flat->strided", rbuf, ext);

	/* Allgather with both sides strided, and in place. */
	fill(sbuf, ext, 50 * rank);
	memset(rbuf, 0, sizeof rbuf);
	MPI_Allgather(sbuf, 1, strided, rbuf, 1, strided, MPI_COMM_WORLD);
	show("allgather", rbuf, ext * size);
	memset(rbuf, 0, sizeof rbuf);
	fill(rbuf + rank * ext, ext, 300 + rank);
	MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, rbuf, 1, strided, MPI_COMM_WORLD);
	show("allgather in place", rbuf, ext * size);

	/* Gatherv and Allgatherv: rank i sends i+1 ints flat; slots are counted in threes. */
	for (i = 0; i < size; i++) {
		counts[i] = 1;
		displs[i] = size - 1 - i;
	}
	fill(flat, K, 20 * rank);
	memset(rbuf, 0, sizeof rbuf);
	MPI_Gatherv(flat, K, MPI_INT, rbuf, counts, displs, strided, 0, MPI_COMM_WORLD);
	if (rank == 0)
		show("gatherv reversed", rbuf, ext * size);
	memset(rbuf, 0, sizeof rbuf);
	MPI_Allgatherv(sbuf, 1, strided, rbuf, counts, displs, three, MPI_COMM_WORLD);
	show("allgatherv", rbuf, K * size);

	/* Scatterv: strided pieces in reverse order. */
	fill(sbuf, 2 * K * MAXR, 500);
	memset(flat, 0, sizeof flat);
	MPI_Scatterv(sbuf, counts, displs, strided, flat, K, MPI_INT, 0, MPI_COMM_WORLD);
	show("scatterv", flat, K);

	/* Alltoall: a strided block to each rank, flat received; and in place. */
	fill(sbuf, 2 * K * MAXR, 1000 * rank);
	memset(flat, 0, sizeof flat);
	MPI_Alltoall(sbuf, 1, strided, flat, K, MPI_INT, MPI_COMM_WORLD);
	show("alltoall", flat, K * size);
	fill(rbuf, 2 * K * MAXR, 2000 * rank);
	MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, rbuf, 1, strided, MPI_COMM_WORLD);
	show("alltoall in place", rbuf, ext * size);

	/* Alltoallv: one strided block to each rank, received in threes, reversed. */
	for (i = 0; i < size; i++) {
		scounts[i] = 1;
		sdispls[i] = i;
	}
	memset(flat, 0, sizeof flat);
	MPI_Alltoallv(sbuf, scounts, sdispls, strided, flat, counts, displs, three, MPI_COMM_WORLD);
	show("alltoallv", flat, K * size);

	/* Sendrecv of strided data around a ring. */
	fill(sbuf, ext, 40 * rank);
	memset(rbuf, 0, sizeof rbuf);
	MPI_Sendrecv(sbuf, 1, strided, (rank + 1) % size, 0, rbuf, 1, strided, (rank + size - 1) % size, 0,
		MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	show("sendrecv", rbuf, ext);

	MPI_Type_free(&strided);
	MPI_Type_free(&three);
	MPI_Finalize();
	return 0;
}
