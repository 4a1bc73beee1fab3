/* collcost.c: the virtual cost of MPI_Allreduce and MPI_Alltoall on this job's ranks.
 *   collcost [BYTES [REPS]]   BYTES per rank (Allreduce, as doubles) and per pair (Alltoall)
 * Rank 0 prints one line: ranks, bytes, then the mean time of one call of each in ns, timed
 * with MPI_Wtime between barriers (virtual time on the simulated machine). */
#include <stdio.h>
#include <stdlib.h>
#include "mpi.h"

static double timed(int alltoall, char *in, char *out, int bytes, int reps)
{
	double t0;
	int i;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (i = 0; i < reps; i++) {
		if (alltoall)
			MPI_Alltoall(in, bytes, MPI_BYTE, out, bytes, MPI_BYTE, MPI_COMM_WORLD);
		else
			MPI_Allreduce(in, out, bytes / 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	return (MPI_Wtime() - t0) / reps * 1e9;
}

int main(int argc, char **argv)
{
	int rank, size, bytes, reps;
	char *in, *out;
	double ar, a2a;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	bytes = argc > 1 ? atoi(argv[1]) : 8;
	reps = argc > 2 ? atoi(argv[2]) : 4;
	if (bytes < 8 || bytes % 8 != 0 || reps < 1) {
		if (rank == 0)
			fprintf(stderr, "collcost: BYTES must be a positive multiple of 8 and REPS positive\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	in = calloc((size_t)bytes, (size_t)size);
	out = calloc((size_t)bytes, (size_t)size);
	ar = timed(0, in, out, bytes, reps);
	a2a = timed(1, in, out, bytes, reps);
	if (rank == 0)
		printf("%d,%d,%.0f,%.0f\n", size, bytes, ar, a2a);
	free(in);
	free(out);
	MPI_Finalize();
	return 0;
}
