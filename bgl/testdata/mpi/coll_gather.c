/* coll_gather: MPI_Gather, MPI_Allgather, MPI_Scatter and MPI_Gatherv with uneven counts
 * (rank r sends r mod 3 elements, so some send none) into a buffer with gaps between the
 * blocks, at the first and at the last rank as root. */
#include "corpus.h"

static void gather(void)
{
	int mine[2] = {corpus_rank * 10, -corpus_rank}, *all = NULL, r, ok = 1;
	double d = corpus_rank * 0.25, *alld = NULL, sum = 0;

	if (corpus_rank == 0) {
		all = malloc(2 * corpus_size * sizeof(int));
		alld = malloc(corpus_size * sizeof(double));
	}
	MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Gather(&d, 1, MPI_DOUBLE, alld, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (corpus_rank != 0)
		return;
	for (r = 0; r < corpus_size; r++) {
		ok &= all[2 * r] == r * 10 && all[2 * r + 1] == -r && alld[r] == r * 0.25;
		sum += alld[r];
	}
	check(ok, "Gather");
	say("gather: last block %d %d, double sum %.2f", all[2 * corpus_size - 2],
		all[2 * corpus_size - 1], sum);
	free(all);
	free(alld);
}

static void allgather(void)
{
	long long mine = 1000000007LL * corpus_rank, *all = malloc(corpus_size * sizeof(long long));
	char tag[2] = {(char)('A' + corpus_rank % 26), (char)('a' + corpus_rank % 26)};
	char *letters = malloc(2 * corpus_size + 1);
	int r, ok = 1;

	MPI_Allgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
	MPI_Allgather(tag, 2, MPI_CHAR, letters, 2, MPI_CHAR, MPI_COMM_WORLD);
	letters[2 * corpus_size] = '\0';
	for (r = 0; r < corpus_size; r++)
		ok &= all[r] == 1000000007LL * r && letters[2 * r] == 'A' + r % 26;
	check(ok, "Allgather");
	if (corpus_rank == corpus_size - 1)
		say("allgather: %lld ... %lld, letters %.16s", all[0], all[corpus_size - 1], letters);
	free(all);
	free(letters);
}

static void scatter(void)
{
	int *parts = NULL, got[3], r, root = corpus_size - 1;
	float *fparts = NULL, f;

	if (corpus_rank == root) {
		parts = malloc(3 * corpus_size * sizeof(int));
		fparts = malloc(corpus_size * sizeof(float));
		for (r = 0; r < 3 * corpus_size; r++)
			parts[r] = r * r;
		for (r = 0; r < corpus_size; r++)
			fparts[r] = -0.5f * r;
	}
	MPI_Scatter(parts, 3, MPI_INT, got, 3, MPI_INT, root, MPI_COMM_WORLD);
	MPI_Scatter(fparts, 1, MPI_FLOAT, &f, 1, MPI_FLOAT, root, MPI_COMM_WORLD);
	r = 3 * corpus_rank;
	check(got[0] == r * r && got[1] == (r + 1) * (r + 1) && got[2] == (r + 2) * (r + 2),
		"Scatter of ints");
	check(f == -0.5f * corpus_rank, "Scatter of floats");
	say("scatter: %d %d %d and %g", got[0], got[1], got[2], f);
	free(parts);
	free(fparts);
}

/* gatherv sends rank r's r mod 3 ints to root, one unused slot between blocks. */
static void gatherv(int root)
{
	int n = corpus_rank % 3, mine[2] = {corpus_rank * 100, corpus_rank * 100 + 1};
	int *counts = NULL, *displs = NULL, *all = NULL, total = 0, r, k, ok = 1;
	char line[200];
	int len = 0;

	if (corpus_rank == root) {
		counts = malloc(corpus_size * sizeof(int));
		displs = malloc(corpus_size * sizeof(int));
		for (r = 0; r < corpus_size; r++) {
			counts[r] = r % 3;
			displs[r] = total;
			total += counts[r] + 1;
		}
		all = malloc(total * sizeof(int));
		for (k = 0; k < total; k++)
			all[k] = -1;
	}
	MPI_Gatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
	if (corpus_rank != root)
		return;
	for (r = 0; r < corpus_size; r++) {
		for (k = 0; k < counts[r]; k++)
			ok &= all[displs[r] + k] == r * 100 + k;
		ok &= all[displs[r] + counts[r]] == -1;
	}
	check(ok, "Gatherv");
	for (k = 0; k < total && k < 12; k++)
		len += snprintf(line + len, sizeof line - len, " %d", all[k]);
	say("gatherv at %d: %d slots:%s%s", root, total, line, total > 12 ? " ..." : "");
	free(counts);
	free(displs);
	free(all);
}

int main(int argc, char **argv)
{
	corpus_init(&argc, &argv);
	gather();
	allgather();
	scatter();
	gatherv(0);
	gatherv(corpus_size - 1);
	return corpus_finish("coll_gather");
}
