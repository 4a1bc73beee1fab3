/* ring: a token travels around the ranks, then every rank shifts a block to its right
 * neighbour at once.
 *
 * Usage: ring [ints [laps]]   (defaults 16 ints, 10 laps)
 *
 * Phase 1 (token): rank 0 starts a token of `ints` integers; each rank adds its rank + 1 to
 * every element and passes it on; after each lap rank 0 prints the token's checksum.
 * Phase 2 (shift): for `laps` steps every rank Sendrecvs its block to rank+1 and receives
 * from rank-1; rank 0 prints a checksum of where every block ended up.
 * All values are integers, so the output is exact and independent of timing. */
#include "apps.h"

/* checksum is a polynomial hash modulo a prime, small enough that the weighted sum over
 * ranks cannot overflow a long long. */
static unsigned long long checksum(const int *v, int n)
{
	unsigned long long s = 0;
	int i;

	for (i = 0; i < n; i++)
		s = (s * 31 + (unsigned)v[i]) % 1000000007u;
	return s;
}

static void token_lap(int *tok, int *in, int n, int rank, int size, int lap)
{
	int next = (rank + 1) % size, prev = (rank + size - 1) % size, i;
	MPI_Request req;

	if (rank == 0) {
		/* Isend first: with one rank, rank 0 is its own neighbour. */
		MPI_Isend(tok, n, MPI_INT, next, lap, MPI_COMM_WORLD, &req);
		MPI_Recv(in, n, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		for (i = 0; i < n; i++)
			tok[i] = in[i] + 1;
		return;
	}
	MPI_Recv(tok, n, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (i = 0; i < n; i++)
		tok[i] += rank + 1;
	MPI_Send(tok, n, MPI_INT, next, lap, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	int rank, size, n, laps, lap, i, *tok, *blk, *in;
	long long sum, all;

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	n = (int)app_arg(argc, argv, 1, 16, 1, 1 << 20);
	laps = (int)app_arg(argc, argv, 2, 10, 0, 100000);
	tok = malloc(n * sizeof *tok);
	blk = malloc(n * sizeof *blk);
	in = malloc(n * sizeof *in);
	if (rank == 0)
		printf("ring: %d ranks, %d ints, %d laps\n", size, n, laps);

	for (i = 0; i < n; i++)
		tok[i] = i;
	for (lap = 1; lap <= laps; lap++) {
		token_lap(tok, in, n, rank, size, lap);
		if (rank == 0)
			printf("lap %d: token[0] %d token[%d] %d checksum %llu\n", lap, tok[0], n - 1,
				tok[n - 1], checksum(tok, n));
	}

	for (i = 0; i < n; i++)
		blk[i] = rank * n + i;
	for (lap = 1; lap <= laps; lap++) {
		MPI_Sendrecv(blk, n, MPI_INT, (rank + 1) % size, 1000 + lap, in, n, MPI_INT,
			(rank + size - 1) % size, 1000 + lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (i = 0; i < n; i++)
			blk[i] = in[i];
	}
	/* Block of rank r started at rank r; after `laps` shifts rank r holds the block of
	 * rank (r - laps) mod size. Weight by rank so a misplaced block changes the sum. */
	sum = (long long)(rank + 1) * (long long)checksum(blk, n);
	MPI_Reduce(&sum, &all, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("shift: rank 0 holds the block of rank %d, weighted checksum %lld\n",
			blk[0] / n, all);
		printf("ring: done\n");
	}
	free(tok);
	free(blk);
	free(in);
	MPI_Finalize();
	return 0;
}
