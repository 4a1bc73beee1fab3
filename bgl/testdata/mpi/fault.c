/* fault (negative): five rounds of MPI_Allreduce, each followed by rank 0 printing the sum
 * and a barrier; in round 3 the middle rank (size / 2) writes through a null pointer
 * instead of joining, while the others are already in the Allreduce. The job must end as
 * for a rank killed by SIGSEGV (mpiexec: status 11), after rank 0 printed the sums of rounds
 * 1 and 2 (the barrier makes sure those lines were written before the fault). */
#include "corpus.h"

int main(int argc, char **argv)
{
	volatile int *nowhere = NULL;
	int round, v, sum;

	corpus_init(&argc, &argv);
	for (round = 1; round <= 5; round++) {
		if (round == 3 && corpus_rank == corpus_size / 2)
			*nowhere = round;
		v = corpus_rank * round;
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (corpus_rank == 0)
			say("round %d: sum %d", round, sum);
		MPI_Barrier(MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
