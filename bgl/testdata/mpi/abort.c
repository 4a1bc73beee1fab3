/* abort (negative): after a barrier the last rank calls MPI_Abort(MPI_COMM_WORLD, 7) while
 * every other rank waits in a receive that is never matched. The job must end with status 7
 * (mpiexec's rule) and the lines printed before the barrier. */
#include "corpus.h"

int main(int argc, char **argv)
{
	int v;

	corpus_init(&argc, &argv);
	say("before the barrier");
	MPI_Barrier(MPI_COMM_WORLD);
	if (corpus_rank == corpus_size - 1)
		MPI_Abort(MPI_COMM_WORLD, 7);
	MPI_Recv(&v, 1, MPI_INT, corpus_size - 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	say("unreachable");
	MPI_Finalize();
	return 0;
}
