/* ssend_deadlock: ranks 0 and 1 MPI_Ssend to each other before either receives; MPICH
 * hangs, the simulated machine ends the job as a deadlock naming both sends. The others
 * wait in a barrier. Simulated only (TestMPISsendDeadlock). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, v = 1, w;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank < 2 && size > 1) {
		MPI_Ssend(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
		MPI_Recv(&w, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d: unreachable\n", rank);
	MPI_Finalize();
	return 0;
}
