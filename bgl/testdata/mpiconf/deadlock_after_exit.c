/* deadlock_after_exit: ranks 0 and 1 each receive from the other before sending, the
 * others compute a while and return from main without MPI_Finalize; once they are gone
 * every live rank is blocked, and the last exit is what finds the deadlock, so the
 * engine ends ranks 0 and 1 alike. Simulated only (under mpiexec it hangs):
 * TestShardedDeadlockExitsInOneProcesssOrder runs it over shards against one process. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	volatile int x = 0;
	int rank, v = 0, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank < 2) {
		MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
	} else {
		for (i = 0; i < rank * 20000; i++)
			x += i;
		printf("rank %d: leaving without MPI_Finalize\n", rank);
	}
	return 0;
}
