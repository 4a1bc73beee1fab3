/* vcoll: the collectives whose send side is an array of counts, on MPI_COMM_WORLD and on a
 * split communicator, each rank sending a different amount to each peer.
 *
 * Usage: vcoll [unit [rounds]]   (defaults 2 ints, 3 rounds)
 *
 * Each round, on MPI_COMM_WORLD and then on the halves MPI_Comm_split makes (color
 * rank % 2, ranks in reverse order, so a rank's place differs from its world rank):
 * MPI_Alltoallv (rank i sends unit x ((i + j) % 3 + 1) ints to rank j), its I-form, MPI_Alltoallw
 * (to an even rank j ints, to an odd one a derived type of 3 ints, (i + j) % 2 + 1 of
 * either), MPI_Gatherv and MPI_Scatterv rooted at the last rank (unit x (j % 3 + 1) and
 * unit x (j % 4 + 1) ints) and MPI_Reduce_scatter (rank j gets unit x (j % 3 + 1) sums).
 * Rank 0 prints, per round and communicator, a checksum of everything it received: all
 * integers, so the native and the simulated runs print the same lines. */
#include "apps.h"

/* peer_val is the value element k of what rank i sends rank j holds. */
static int peer_val(int i, int j, int k) { return 1000 * i + 10 * j + k; }

/* exchange runs one round of every collective on comm and returns rank 0's checksum. */
static long exchange(MPI_Comm comm, int unit, MPI_Datatype tri)
{
	int rank, size, i, k, n, root, total;
	int *sc, *sd, *rc, *rd, *sbuf, *rbuf;
	MPI_Datatype *st, *rt;
	MPI_Request req;
	long sum = 0;

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	root = size - 1;
	sc = malloc(4 * size * sizeof *sc);
	sd = sc + size, rc = sd + size, rd = rc + size;
	st = malloc(2 * size * sizeof *st);
	rt = st + size;
	sbuf = malloc(size * 3 * unit * 6 * sizeof *sbuf);
	rbuf = malloc(size * 3 * unit * 6 * sizeof *rbuf);

	/* Alltoallv and Ialltoallv: (rank + j) % 3 + 1 units each way. */
	for (i = 0, n = 0; i < size; i++) {
		sc[i] = unit * ((rank + i) % 3 + 1), sd[i] = n, rc[i] = sc[i], rd[i] = n;
		for (k = 0; k < sc[i]; k++)
			sbuf[n + k] = peer_val(rank, i, k);
		n += sc[i];
	}
	MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm);
	for (k = 0; k < n; k++)
		sum += rbuf[k];
	MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (k = 0; k < n; k++)
		sum += 3 * rbuf[k];

	/* Alltoallw: the type follows the receiver's parity, the count the pair's. */
	for (i = 0; i < size; i++) {
		int per = i % 2 ? 3 : 1;

		sc[i] = (rank + i) % 2 + 1, st[i] = i % 2 ? tri : MPI_INT, sd[i] = i * 6 * (int)sizeof(int);
		rc[i] = sc[i], rt[i] = rank % 2 ? tri : MPI_INT, rd[i] = sd[i];
		for (k = 0; k < sc[i] * per; k++)
			sbuf[i * 6 + k] = peer_val(rank, i, k);
	}
	MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm);
	for (i = 0; i < size; i++)
		for (k = 0; k < rc[i] * (rank % 2 ? 3 : 1); k++)
			sum += 5 * rbuf[i * 6 + k];

	/* Gatherv to the last rank: j % 3 + 1 units from rank j. */
	n = unit * (rank % 3 + 1);
	for (k = 0; k < n; k++)
		sbuf[k] = peer_val(rank, root, k);
	for (i = 0, total = 0; i < size; i++)
		rc[i] = unit * (i % 3 + 1), rd[i] = total, total += rc[i];
	MPI_Gatherv(sbuf, n, MPI_INT, rbuf, rc, rd, MPI_INT, root, comm);
	if (rank == root)
		for (k = 0; k < total; k++)
			sum += 7 * rbuf[k];

	/* Scatterv from the last rank: j % 4 + 1 units to rank j. */
	for (i = 0, total = 0; i < size; i++) {
		sc[i] = unit * (i % 4 + 1), sd[i] = total;
		for (k = 0; k < sc[i]; k++)
			sbuf[total + k] = peer_val(rank, i, k);
		total += sc[i];
	}
	n = unit * (rank % 4 + 1);
	MPI_Scatterv(sbuf, sc, sd, MPI_INT, rbuf, n, MPI_INT, root, comm);
	for (k = 0; k < n; k++)
		sum += 11 * rbuf[k];

	/* Reduce_scatter: rank j gets unit x (j % 3 + 1) sums. */
	for (i = 0, total = 0; i < size; i++)
		rc[i] = unit * (i % 3 + 1), total += rc[i];
	for (k = 0; k < total; k++)
		sbuf[k] = peer_val(rank, 0, k);
	MPI_Reduce_scatter(sbuf, rbuf, rc, MPI_INT, MPI_SUM, comm);
	for (k = 0; k < rc[rank]; k++)
		sum += 13 * rbuf[k];

	free(sc), free(st), free(sbuf), free(rbuf);
	return sum;
}

int main(int argc, char **argv)
{
	int rank, size, round, unit, rounds;
	MPI_Datatype tri;
	MPI_Comm half;

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	unit = (int)app_arg(argc, argv, 1, 2, 1, 1000);
	rounds = (int)app_arg(argc, argv, 2, 3, 1, 1000);
	MPI_Type_contiguous(3, MPI_INT, &tri);
	MPI_Type_commit(&tri);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
	for (round = 0; round < rounds; round++) {
		long world = exchange(MPI_COMM_WORLD, unit, tri);
		long part = exchange(half, unit, tri);

		if (rank == 0)
			printf("round %d: world %ld, half %ld\n", round, world, part);
	}
	MPI_Comm_free(&half);
	MPI_Type_free(&tri);
	MPI_Finalize();
	return 0;
}
