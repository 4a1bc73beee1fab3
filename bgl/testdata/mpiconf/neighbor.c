/* neighbor: the neighbourhood collectives over a periodic Cartesian ring (where one or
 * two ranks are each other's neighbours both ways), a non-periodic 2-D grid (MPI_PROC_NULL
 * at the edges), a graph with a repeated edge and a distributed graph whose sources and
 * destinations differ: MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v/w), each
 * I-form completed by MPI_Wait or MPI_Test, and a vector datatype on either side. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;
static char outbuf[4096];

static void line(const char *what, const int *v, int n)
{
	char buf[2048];
	int i, len = snprintf(buf, sizeof buf, "rank %d: %s:", rank, what);

	for (i = 0; i < n && len < (int)sizeof buf - 16; i++)
		len += snprintf(buf + len, sizeof buf - len, " %d", v[i]);
	printf("%s\n", buf);
}

static void fill(int *v, int n, int base)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = base + i;
}

static void clear(int *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = -7;
}

/* everything runs the five calls on comm, which has nin sources and nout destinations. */
static void everything(const char *name, MPI_Comm comm, int nin, int nout)
{
	int sb[64], rb[128], sc[16], sd[16], rc[16], rd[16], i, flag = 0;
	MPI_Aint wsd[16], wrd[16];
	MPI_Datatype st[16], rt[16], vec;
	MPI_Request req;
	char what[128];

	fill(sb, 64, 100 * rank);
	clear(rb, 128);
	MPI_Neighbor_allgather(sb, 2, MPI_INT, rb, 2, MPI_INT, comm);
	snprintf(what, sizeof what, "%s allgather", name);
	line(what, rb, 2 * nin);

	clear(rb, 128);
	for (i = 0; i < nin; i++) {
		rc[i] = 2;
		rd[i] = 3 * (nin - 1 - i);
	}
	MPI_Ineighbor_allgatherv(sb, 2, MPI_INT, rb, rc, rd, MPI_INT, comm, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	snprintf(what, sizeof what, "%s iallgatherv", name);
	line(what, rb, 3 * nin);

	clear(rb, 128);
	MPI_Neighbor_alltoall(sb, 3, MPI_INT, rb, 3, MPI_INT, comm);
	snprintf(what, sizeof what, "%s alltoall", name);
	line(what, rb, 3 * nin);

	clear(rb, 128);
	MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, comm, &req);
	while (!flag)
		MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
	snprintf(what, sizeof what, "%s ialltoall", name);
	line(what, rb, nin);

	clear(rb, 128);
	for (i = 0; i < nout; i++) {
		sc[i] = 2;
		sd[i] = 3 * i + 1;
	}
	for (i = 0; i < nin; i++) {
		rc[i] = 2;
		rd[i] = 2 * (nin - 1 - i);
	}
	MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm);
	snprintf(what, sizeof what, "%s alltoallv", name);
	line(what, rb, 2 * nin);

	/* A vector of every other int on the send side, ints on the receive side. */
	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	clear(rb, 128);
	for (i = 0; i < nout; i++) {
		sc[i] = 1;
		wsd[i] = (MPI_Aint)(sizeof(int) * (i + 1));
		st[i] = vec;
	}
	for (i = 0; i < nin; i++) {
		rc[i] = 2;
		wrd[i] = (MPI_Aint)(sizeof(int) * 2 * i);
		rt[i] = MPI_INT;
	}
	MPI_Neighbor_alltoallw(sb, sc, wsd, st, rb, rc, wrd, rt, comm);
	snprintf(what, sizeof what, "%s alltoallw", name);
	line(what, rb, 2 * nin);

	/* The vector on the receive side of an I-form, freed before the Wait. */
	clear(rb, 128);
	MPI_Ineighbor_alltoall(sb, 2, MPI_INT, rb, 1, vec, comm, &req);
	MPI_Type_free(&vec);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	snprintf(what, sizeof what, "%s ialltoall vector", name);
	line(what, rb, 4 * nin);
}

int main(int argc, char **argv)
{
	int dims[2] = {0, 0}, periods[2] = {1, 0}, *in, *out, i, n = 0, *index, *edges;
	MPI_Comm ring, grid, graph, dist;

	MPI_Init(&argc, &argv);
	/* A line per write, so mpiexec -l labels whole lines however it reads the pipe. */
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	dims[0] = size;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	everything("ring", ring, 2, 2);
	MPI_Comm_free(&ring);

	dims[0] = 0;
	periods[0] = 0;
	MPI_Dims_create(size, 2, dims);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	everything("grid", grid, 4, 4);
	MPI_Comm_free(&grid);

	/* A graph: every rank is joined to the next, and rank 0 twice to the last. */
	index = malloc(sizeof(int) * size);
	edges = malloc(sizeof(int) * 4 * size);
	for (i = 0; i < size; i++) {
		if (size > 1) {
			edges[n++] = (i + 1) % size;
			edges[n++] = (i + size - 1) % size;
		}
		if (size > 2 && (i == 0 || i == size - 1))
			edges[n++] = i == 0 ? size - 1 : 0;
		index[i] = n;
	}
	MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
	MPI_Graph_neighbors_count(graph, rank, &n);
	everything("graph", graph, n, n);
	MPI_Comm_free(&graph);
	free(index);
	free(edges);

	/* A distributed graph: each rank sends to the next two and to itself, and receives
	 * from the two before it and itself, listed in another order. */
	in = malloc(sizeof(int) * 3);
	out = malloc(sizeof(int) * 3);
	out[0] = (rank + 1) % size;
	out[1] = rank;
	out[2] = (rank + 2) % size;
	in[0] = (rank + size - 2) % size;
	in[1] = (rank + size - 1) % size;
	in[2] = rank;
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 3, in, MPI_UNWEIGHTED, 3, out, MPI_UNWEIGHTED,
		MPI_INFO_NULL, 0, &dist);
	everything("dist", dist, 3, 3);
	MPI_Comm_free(&dist);
	free(in);
	free(out);

	MPI_Finalize();
	return 0;
}
