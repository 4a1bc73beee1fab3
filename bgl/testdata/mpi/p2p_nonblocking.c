/* p2p_nonblocking: Irecv/Isend/Test/Wait/Waitall. Each rank receives a large block from
 * its left neighbour (tag 1) and a small one from its right (tag 2), polling the first with
 * MPI_Test and waiting for the second with MPI_Wait; its sends complete in MPI_Waitall.
 * Completed requests must read MPI_REQUEST_NULL, and testing or waiting on a null request
 * returns at once. With one or two ranks the neighbours coincide; the tags keep the
 * messages apart. */
#include "corpus.h"

enum { BIG = 4096 };

int main(int argc, char **argv)
{
	MPI_Request rl, rr, sends[2], none = MPI_REQUEST_NULL;
	MPI_Status st, sts[2];
	int *big_in, *big_out, small_in[3], small_out[3], left, right, flag = 0, k, polls = 0;
	long long sum = 0;

	corpus_init(&argc, &argv);
	left = (corpus_rank + corpus_size - 1) % corpus_size;
	right = (corpus_rank + 1) % corpus_size;
	big_in = calloc(BIG, sizeof(int));
	big_out = malloc(BIG * sizeof(int));
	for (k = 0; k < BIG; k++)
		big_out[k] = corpus_rank * BIG + k;
	for (k = 0; k < 3; k++)
		small_out[k] = -(corpus_rank * 10 + k);
	MPI_Irecv(big_in, BIG, MPI_INT, left, 1, MPI_COMM_WORLD, &rl);
	MPI_Irecv(small_in, 3, MPI_INT, right, 2, MPI_COMM_WORLD, &rr);
	MPI_Isend(big_out, BIG, MPI_INT, right, 1, MPI_COMM_WORLD, &sends[0]);
	MPI_Isend(small_out, 3, MPI_INT, left, 2, MPI_COMM_WORLD, &sends[1]);
	while (!flag) {
		MPI_Test(&rl, &flag, &st);
		polls++;
	}
	check(rl == MPI_REQUEST_NULL, "a completed Test leaves MPI_REQUEST_NULL");
	check(st.MPI_SOURCE == left && st.MPI_TAG == 1, "Test status");
	MPI_Wait(&rr, &st);
	check(rr == MPI_REQUEST_NULL, "Wait leaves MPI_REQUEST_NULL");
	check(st.MPI_SOURCE == right && st.MPI_TAG == 2, "Wait status");
	MPI_Waitall(2, sends, sts);
	check(sends[0] == MPI_REQUEST_NULL && sends[1] == MPI_REQUEST_NULL,
		"Waitall leaves MPI_REQUEST_NULL");
	flag = 0;
	MPI_Test(&none, &flag, MPI_STATUS_IGNORE);
	check(flag != 0, "Test on MPI_REQUEST_NULL completes");
	MPI_Wait(&none, MPI_STATUS_IGNORE);
	for (k = 0; k < BIG; k++)
		sum += big_in[k];
	check(polls >= 1, "polled at least once");
	say("big from %d: first %d last %d sum %lld; small from %d: %d %d %d", left, big_in[0],
		big_in[BIG - 1], sum, right, small_in[0], small_in[1], small_in[2]);
	free(big_in);
	free(big_out);
	return corpus_finish("p2p_nonblocking");
}
