/* topo_graph: graph topologies (create with no nodes and with all but one rank, dims,
 * index and edges, neighbors, MPI_Topo_test, kept by MPI_Comm_dup), distributed graphs
 * (adjacent and general, weighted and not; neighbors printed sorted, since the standard
 * leaves their order open), MPI_Graph_map and MPI_Cart_map, MPI_Cart_sub keeping no
 * dimension, MPI_Dims_create's balanced choices (ties included) and 600 groups at once. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* show_list prints n ints, sorted, after a label. */
static void show_list(const char *label, int *v, int n)
{
	char line[1024];
	int i, len;

	qsort(v, n, sizeof *v, cmp_int);
	len = snprintf(line, sizeof line, "rank %d: %s (%d):", rank, label, n);
	for (i = 0; i < n; i++)
		len += snprintf(line + len, sizeof line - len, " %d", v[i]);
	printf("%s\n", line);
}

static void graph(void)
{
	int index[64] = {0}, edges[128] = {0}, i, n = size > 1 ? size - 1 : 1, ne = 0, kind, nn, nedge, cnt, nb[64];
	MPI_Comm g, dup, none;

	MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &none);
	printf("rank %d: empty graph is null %d\n", rank, none == MPI_COMM_NULL);
	/* A ring of n nodes, each also linked to node 0. */
	for (i = 0; i < n; i++) {
		edges[ne++] = (i + 1) % n;
		if (i != 0)
			edges[ne++] = 0;
		index[i] = ne;
	}
	MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &i);
	printf("rank %d: graph map %d\n", rank, i == MPI_UNDEFINED ? -1 : i);
	MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &g);
	if (g == MPI_COMM_NULL) {
		printf("rank %d: not in the graph\n", rank);
		return;
	}
	MPI_Comm_dup(g, &dup);
	MPI_Topo_test(dup, &kind);
	MPI_Graphdims_get(dup, &nn, &nedge);
	printf("rank %d: graph kind %d nodes %d edges %d\n", rank, kind == MPI_GRAPH, nn, nedge);
	MPI_Graph_get(dup, 64, 128, index, edges);
	show_list("graph index", index, nn);
	MPI_Graph_neighbors_count(g, rank, &cnt);
	MPI_Graph_neighbors(g, rank, 64, nb);
	show_list("graph neighbors", nb, cnt);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&g);
}

static void dist_show(const char *what, MPI_Comm d)
{
	int in, out, weighted, kind, src[64], sw[64], dst[64], dw[64], i;
	char label[64];

	MPI_Topo_test(d, &kind);
	MPI_Dist_graph_neighbors_count(d, &in, &out, &weighted);
	printf("rank %d: %s kind %d in %d out %d weighted %d\n", rank, what, kind == MPI_DIST_GRAPH, in, out, weighted);
	MPI_Dist_graph_neighbors(d, in, src, sw, out, dst, dw);
	/* weight*100+rank keeps each edge's weight with its end through the sort. */
	for (i = 0; weighted && i < in; i++)
		src[i] += 100 * sw[i];
	for (i = 0; weighted && i < out; i++)
		dst[i] += 100 * dw[i];
	snprintf(label, sizeof label, "%s sources", what);
	show_list(label, src, in);
	snprintf(label, sizeof label, "%s destinations", what);
	show_list(label, dst, out);
}

static void dist_graph(void)
{
	int src[2], dst[2], w[2], deg[1], self[1];
	MPI_Comm d, dup;

	/* Adjacent: a directed ring, weight = 1 + the sending rank. */
	src[0] = (rank + size - 1) % size;
	dst[0] = (rank + 1) % size;
	w[0] = 1 + src[0];
	w[1] = 1 + rank;
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, w, 1, dst, w + 1, MPI_INFO_NULL, 0, &d);
	MPI_Comm_dup(d, &dup);
	dist_show("adjacent", dup);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&d);
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED,
		MPI_INFO_NULL, 0, &d);
	dist_show("unweighted", d);
	MPI_Comm_free(&d);

	/* General: each rank names the edges from rank+1 to rank and to rank+2 (weights 7, 9). */
	self[0] = (rank + 1) % size;
	deg[0] = 2;
	dst[0] = rank;
	dst[1] = (rank + 2) % size;
	w[0] = 7;
	w[1] = 9;
	MPI_Dist_graph_create(MPI_COMM_WORLD, 1, self, deg, dst, w, MPI_INFO_NULL, 0, &d);
	dist_show("general", d);
	MPI_Comm_free(&d);
	/* General, rank 0 naming every edge of a star into rank 0. */
	{
		int *s = malloc(sizeof(int) * size), *dg = malloc(sizeof(int) * size), *t = malloc(sizeof(int) * size), i;

		for (i = 0; i < size; i++) {
			s[i] = i;
			dg[i] = 1;
			t[i] = 0;
		}
		MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? size : 0, s, dg, t, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d);
		dist_show("star", d);
		MPI_Comm_free(&d);
		/* No edges at all: weighted is what each rank's call said. */
		MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, rank % 2 ? MPI_UNWEIGHTED : NULL,
			MPI_INFO_NULL, 0, &d);
		dist_show("no edges", d);
		MPI_Comm_free(&d);
		free(s);
		free(dg);
		free(t);
	}
}

static void maps_and_dims(void)
{
	static const int cases[][2] = {{72, 2}, {1323, 2}, {5040, 3}, {6240, 3}, {5616, 4}, {98784, 5},
		{64, 3}, {7, 2}, {1, 4}, {995328, 16}};
	int dims[16], periods[2] = {0, 0}, i, k, r, fixed[3] = {0, 3, 0};
	char line[256];
	MPI_Comm c, sub;

	dims[0] = 2;
	dims[1] = size > 1 ? size / 2 : 1;
	MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &r);
	printf("rank %d: cart map %d\n", rank, r == MPI_UNDEFINED ? -1 : r);
	dims[0] = size;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c);
	MPI_Cart_sub(c, periods, &sub);
	printf("rank %d: cart sub of no dimension is null %d\n", rank, sub == MPI_COMM_NULL);
	if (sub != MPI_COMM_NULL) {
		MPI_Comm_compare(sub, MPI_COMM_SELF, &r);
		printf("rank %d: ... and congruent to self %d\n", rank, r == MPI_CONGRUENT);
		MPI_Comm_free(&sub);
	}
	MPI_Comm_free(&c);
	if (rank != 0)
		return;
	for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
		int len;

		for (k = 0; k < cases[i][1]; k++)
			dims[k] = 0;
		MPI_Dims_create(cases[i][0], cases[i][1], dims);
		len = snprintf(line, sizeof line, "dims %d in %d:", cases[i][0], cases[i][1]);
		for (k = 0; k < cases[i][1]; k++)
			len += snprintf(line + len, sizeof line - len, " %d", dims[k]);
		printf("%s\n", line);
	}
	MPI_Dims_create(360, 3, fixed);
	printf("dims 360 in 3 with 3 fixed: %d %d %d\n", fixed[0], fixed[1], fixed[2]);
}

static void many_groups(void)
{
	enum { N = 600 };
	MPI_Group world, *g = malloc(sizeof(MPI_Group) * N);
	int i, n, sum = 0, one = 0;

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	for (i = 0; i < N; i++) {
		MPI_Group_incl(world, 1, &one, &g[i]);
		MPI_Group_size(g[i], &n);
		sum += n;
	}
	for (i = 0; i < N; i++)
		MPI_Group_free(&g[i]);
	MPI_Group_free(&world);
	printf("rank %d: %d groups held at once, sizes summing to %d\n", rank, N, sum);
	free(g);
}

int main(int argc, char **argv)
{
	static char outbuf[8192];

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	graph();
	dist_graph();
	maps_and_dims();
	many_groups();
	MPI_Finalize();
	return 0;
}
