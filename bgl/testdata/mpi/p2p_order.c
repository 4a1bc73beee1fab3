/* p2p_order: the non-overtaking rule. Every rank sends rank 0 twenty messages with tag 5
 * and then twenty with tag 6, numbered in send order (Isend, then Waitall). Rank 0 first
 * takes every tag-6 message with MPI_ANY_SOURCE, then the rest with MPI_ANY_SOURCE and
 * MPI_ANY_TAG; from each (source, tag) the numbers must arrive in send order. Which source
 * comes first is timing, so only per-source results are printed. */
#include "corpus.h"

enum { PER_TAG = 20 };

static void take(int tag, int n, int *next)
{
	MPI_Status st;
	int k, v[2];

	for (k = 0; k < n; k++) {
		MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
		check(v[0] == st.MPI_SOURCE, "payload names its source");
		check(st.MPI_TAG == 5 || st.MPI_TAG == 6, "tag is 5 or 6");
		check(v[1] == next[2 * st.MPI_SOURCE + st.MPI_TAG - 5], "message in send order");
		next[2 * st.MPI_SOURCE + st.MPI_TAG - 5] = v[1] + 1;
	}
}

int main(int argc, char **argv)
{
	MPI_Request req[2 * PER_TAG];
	int out[2 * PER_TAG][2], k, *next;

	corpus_init(&argc, &argv);
	for (k = 0; k < 2 * PER_TAG; k++) {
		out[k][0] = corpus_rank;
		out[k][1] = k % PER_TAG;
		MPI_Isend(out[k], 2, MPI_INT, 0, k < PER_TAG ? 5 : 6, MPI_COMM_WORLD, &req[k]);
	}
	if (corpus_rank == 0) {
		next = calloc(2 * corpus_size, sizeof(int));
		take(6, PER_TAG * corpus_size, next);
		take(MPI_ANY_TAG, PER_TAG * corpus_size, next);
		for (k = 0; k < corpus_size; k++)
			say("from %d: tag 5 got %d, tag 6 got %d", k, next[2 * k], next[2 * k + 1]);
		free(next);
	}
	MPI_Waitall(2 * PER_TAG, req, MPI_STATUSES_IGNORE);
	return corpus_finish("p2p_order");
}
