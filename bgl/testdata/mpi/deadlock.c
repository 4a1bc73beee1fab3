/* deadlock (negative): ranks 0 and 1 each receive from the other before sending, so neither
 * ever sends; every other rank waits in MPI_Barrier. Every rank ends up blocked: the engine
 * must end the job and report who waits for whom (0 for 1, 1 for 0, the rest in the
 * barrier). Never run natively: under mpiexec it hangs. With one rank, rank 0 receives
 * from itself. */
#include "corpus.h"

int main(int argc, char **argv)
{
	int v = 0, partner;

	corpus_init(&argc, &argv);
	if (corpus_rank < 2) {
		partner = corpus_size > 1 ? 1 - corpus_rank : 0;
		say("receiving from rank %d first", partner);
		MPI_Recv(&v, 1, MPI_INT, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, partner, 0, MPI_COMM_WORLD);
	} else {
		say("waiting in the barrier");
	}
	MPI_Barrier(MPI_COMM_WORLD);
	say("unreachable");
	MPI_Finalize();
	return 0;
}
