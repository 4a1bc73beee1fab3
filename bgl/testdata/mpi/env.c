/* env: MPI_Initialized, Comm_rank/Comm_size, Barrier and a non-decreasing MPI_Wtime. */
#include "corpus.h"

int main(int argc, char **argv)
{
	int before = -1, after = -1, rank = -1, size = -1, i, nondecreasing = 1;
	double t0, t1;

	MPI_Initialized(&before);
	corpus_init(&argc, &argv);
	MPI_Initialized(&after);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	say("initialized before %d after %d, rank %d of %d", before != 0, after != 0, rank, size);
	check(rank >= 0 && rank < size, "rank in [0, size)");
	t0 = MPI_Wtime();
	for (i = 0; i < 5; i++) {
		MPI_Barrier(MPI_COMM_WORLD);
		t1 = MPI_Wtime();
		nondecreasing &= t1 >= t0;
		t0 = t1;
	}
	check(nondecreasing, "MPI_Wtime never decreases across barriers");
	check(t0 > 0.0, "MPI_Wtime is positive");
	return corpus_finish("env");
}
