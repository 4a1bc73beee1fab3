/* mpicrash: rank 3 dereferences a bad pointer two calls deep after some MPI calls, while
 * the other ranks wait in MPI_Barrier. Built with -O0 so fault reports name exact lines. */
#include <mpi.h>
#include <stdio.h>

static int deref(int *p)
{
	return *p + 1;
}

static int step(int rank, int round)
{
	int *p = &round;
	if (rank == 3 && round == 2)
		p = (int *)0x10;
	return deref(p);
}

int main(int argc, char **argv)
{
	int rank, round, v, sum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (round = 0; round < 3; round++) {
		v = step(rank, round);
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("sum %d\n", sum);
	MPI_Finalize();
	return 0;
}
