/* coll_alltoall: MPI_Alltoall, MPI_Alltoallv with uneven counts (rank r sends (r+d) mod 3
 * ints to rank d, some none) and gaps in both buffers, MPI_Allgatherv, MPI_Scatterv from
 * the last rank, MPI_Reduce_scatter, MPI_Scan and MPI_Exscan, and MPI_IN_PLACE in
 * Allreduce, Allgather, Alltoall, Reduce (at the root), Gather and Scatter (at the root). */
#include "corpus.h"

static unsigned sum_ints(const int *v, int n)
{
	unsigned s = 0;
	int i;

	for (i = 0; i < n; i++)
		s = s * 31 + (unsigned)v[i];
	return s;
}

static void alltoall(void)
{
	int n = corpus_size, *out = malloc(sizeof(int) * 2 * n), *in = malloc(sizeof(int) * 2 * n), d, ok = 1;

	for (d = 0; d < n; d++) {
		out[2 * d] = corpus_rank * 1000 + d;
		out[2 * d + 1] = -corpus_rank;
	}
	MPI_Alltoall(out, 2, MPI_INT, in, 2, MPI_INT, MPI_COMM_WORLD);
	for (d = 0; d < n; d++)
		ok &= in[2 * d] == d * 1000 + corpus_rank && in[2 * d + 1] == -d;
	check(ok, "Alltoall");
	say("alltoall: hash %u", sum_ints(in, 2 * n));
	/* In place: the receive buffer is the send buffer. */
	MPI_Alltoall(MPI_IN_PLACE, 2, MPI_INT, out, 2, MPI_INT, MPI_COMM_WORLD);
	check(memcmp(in, out, sizeof(int) * 2 * n) == 0, "Alltoall in place");
	free(out);
	free(in);
}

static void alltoallv(void)
{
	int n = corpus_size, d, k, so = 0, ro = 0, ok = 1;
	int *sc = malloc(sizeof(int) * n), *sd = malloc(sizeof(int) * n);
	int *rc = malloc(sizeof(int) * n), *rd = malloc(sizeof(int) * n);
	int *out = malloc(sizeof(int) * 4 * n), *in = malloc(sizeof(int) * 4 * n);

	for (d = 0; d < n; d++) {
		sc[d] = (corpus_rank + d) % 3;
		sd[d] = so;
		so += sc[d] + 1; /* a gap after each block */
		rc[d] = (d + corpus_rank) % 3;
		rd[d] = ro;
		ro += rc[d] + 1;
		for (k = 0; k < sc[d]; k++)
			out[sd[d] + k] = corpus_rank * 100 + d * 10 + k;
	}
	for (k = 0; k < 4 * n; k++)
		in[k] = -7;
	MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, MPI_COMM_WORLD);
	for (d = 0; d < n; d++) {
		for (k = 0; k < rc[d]; k++)
			ok &= in[rd[d] + k] == d * 100 + corpus_rank * 10 + k;
		ok &= in[rd[d] + rc[d]] == -7;
	}
	check(ok, "Alltoallv");
	say("alltoallv: received %d ints, hash %u", ro - n, sum_ints(in, ro));
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	free(out);
	free(in);
}

static void vcolls(void)
{
	int n = corpus_size, r, total = 0, ok = 1, last = n - 1;
	int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
	double *all, mine[3], *src = NULL, got[3] = {0, 0, 0};

	for (r = 0; r < n; r++) {
		counts[r] = r % 3 + 1;
		displs[r] = total + r; /* gaps */
		total += counts[r];
	}
	all = calloc(4 * (size_t)n, sizeof(double)); /* total + n <= 4n */
	for (r = 0; r < counts[corpus_rank]; r++)
		mine[r] = corpus_rank + r * 0.5;
	MPI_Allgatherv(mine, counts[corpus_rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
	for (r = 0; r < n; r++)
		ok &= all[displs[r]] == r && all[displs[r] + counts[r] - 1] == r + (counts[r] - 1) * 0.5;
	check(ok, "Allgatherv");
	if (corpus_rank == last) {
		src = calloc(4 * (size_t)n, sizeof(double));
		for (r = 0; r < n; r++)
			src[displs[r]] = 1000 + r, src[displs[r] + counts[r] - 1] = 2000 + r;
	}
	MPI_Scatterv(src, counts, displs, MPI_DOUBLE, got, 3, MPI_DOUBLE, last, MPI_COMM_WORLD);
	say("vcolls: allgatherv slot %d = %.1f, scatterv got %.0f .. %.0f (%d)", corpus_rank,
		all[displs[corpus_rank] + counts[corpus_rank] - 1], got[0], got[counts[corpus_rank] - 1], counts[corpus_rank]);
	free(src);
	free(all);
	free(counts);
	free(displs);
}

static void reduce_scatter_scan(void)
{
	int n = corpus_size, r, *counts = malloc(sizeof(int) * n), total = 0, *in, out[3], scan, ex = -99;
	long long lscan;

	for (r = 0; r < n; r++) {
		counts[r] = r % 3 + 1;
		total += counts[r];
	}
	in = malloc(sizeof(int) * total);
	for (r = 0; r < total; r++)
		in[r] = r + corpus_rank;
	MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Scan(&corpus_rank, &scan, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Exscan(&corpus_rank, &ex, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	lscan = corpus_rank + 1;
	MPI_Scan(MPI_IN_PLACE, &lscan, 1, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD);
	say("reduce_scatter: first %d of %d; scan %d, exscan max %d, factorial %lld", out[0], counts[corpus_rank],
		scan, corpus_rank == 0 ? -1 : ex, lscan);
	free(counts);
	free(in);
}

static void in_place(void)
{
	int n = corpus_size, v[2] = {corpus_rank, 1}, *all = malloc(sizeof(int) * n), r, ok = 1, root = n - 1;
	double x = corpus_rank + 0.5;

	MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	check(v[0] == n * (n - 1) / 2 && v[1] == n, "Allreduce in place");
	all[corpus_rank] = corpus_rank * 3;
	MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	for (r = 0; r < n; r++)
		ok &= all[r] == r * 3;
	check(ok, "Allgather in place");
	if (corpus_rank == root)
		MPI_Reduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
	else
		MPI_Reduce(&x, NULL, 1, MPI_DOUBLE, MPI_MAX, root, MPI_COMM_WORLD);
	for (r = 0; r < n; r++)
		all[r] = corpus_rank == root ? -r : 0;
	all[corpus_rank] = corpus_rank + 5;
	if (corpus_rank == root)
		MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, root, MPI_COMM_WORLD);
	else
		MPI_Gather(&all[corpus_rank], 1, MPI_INT, NULL, 1, MPI_INT, root, MPI_COMM_WORLD);
	if (corpus_rank == root) {
		for (ok = 1, r = 0; r < n; r++)
			ok &= all[r] == r + 5;
		check(ok, "Gather in place");
		say("in_place: reduce max %.1f", x);
		MPI_Scatter(all, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root, MPI_COMM_WORLD);
	} else {
		MPI_Scatter(NULL, 1, MPI_INT, &r, 1, MPI_INT, root, MPI_COMM_WORLD);
		check(r == corpus_rank + 5, "Scatter in place");
	}
	free(all);
}

int main(int argc, char **argv)
{
	corpus_init(&argc, &argv);
	alltoall();
	alltoallv();
	vcolls();
	reduce_scatter_scan();
	in_place();
	return corpus_finish("coll_alltoall");
}
