/* p2p_probe: MPI_Probe with MPI_ANY_SOURCE/MPI_ANY_TAG, MPI_Get_count, receives sized by
 * the probe, a receive into a larger buffer, and a count that is not a whole number of
 * elements (MPI_UNDEFINED). Every rank (rank 0 too) sends rank 0 (r mod 5) + 1 doubles with
 * tag 100 + r and 5 bytes with tag 7; rank 0 takes all 2N by probing. Then each rank sends
 * one int with tag 9, which rank 0 probes by source, last rank first. */
#include "corpus.h"

static void take_any(double *sums, int *counts)
{
	unsigned char got[16];
	MPI_Status st;
	double in[5];
	int m, k, count, src;

	for (m = 0; m < 2 * corpus_size; m++) {
		MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		src = st.MPI_SOURCE;
		if (st.MPI_TAG == 7) {
			MPI_Get_count(&st, MPI_INT, &count);
			check(count == MPI_UNDEFINED, "5 bytes as MPI_INT is MPI_UNDEFINED");
			MPI_Recv(got, 16, MPI_BYTE, src, 7, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_BYTE, &count);
			check(count == 5 && got[4] == 5, "5 bytes received into 16");
			continue;
		}
		MPI_Get_count(&st, MPI_DOUBLE, &count);
		check(st.MPI_TAG == 100 + src, "probed tag is 100 + source");
		check(count == src % 5 + 1, "probed count");
		MPI_Recv(in, count, MPI_DOUBLE, src, st.MPI_TAG, MPI_COMM_WORLD, &st);
		check(st.MPI_SOURCE == src && st.MPI_TAG == 100 + src, "status of sized receive");
		for (k = 0; k < count; k++)
			sums[src] += in[k];
		counts[src] = count;
	}
}

int main(int argc, char **argv)
{
	MPI_Request req[3];
	MPI_Status st;
	double out[5];
	unsigned char bytes[5] = {1, 2, 3, 4, 5};
	int n, k, src, v, count;

	corpus_init(&argc, &argv);
	n = corpus_rank % 5 + 1;
	for (k = 0; k < n; k++)
		out[k] = corpus_rank + k * 0.5;
	MPI_Isend(out, n, MPI_DOUBLE, 0, 100 + corpus_rank, MPI_COMM_WORLD, &req[0]);
	MPI_Isend(bytes, 5, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &req[1]);
	if (corpus_rank == 0) {
		double *sums = calloc(corpus_size, sizeof(double));
		int *counts = calloc(corpus_size, sizeof(int));
		take_any(sums, counts);
		for (k = 0; k < corpus_size; k++)
			say("from %d: %d doubles, sum %.2f", k, counts[k], sums[k]);
		free(sums);
		free(counts);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Isend(&corpus_rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &req[2]);
	if (corpus_rank == 0) {
		for (src = corpus_size - 1; src >= 0; src--) {
			MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			check(st.MPI_SOURCE == src && st.MPI_TAG == 9, "probe by source");
			MPI_Get_count(&st, MPI_INT, &count);
			MPI_Recv(&v, 1, MPI_INT, src, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			check(count == 1 && v == src, "int from the probed source");
		}
		say("probed %d sources by rank, last rank first", corpus_size);
	}
	MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
	return corpus_finish("p2p_probe");
}
