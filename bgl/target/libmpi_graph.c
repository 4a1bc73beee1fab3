/* libmpi_graph.c: graph and distributed graph topologies, and MPI_Cart_map and
 * MPI_Graph_map. Included by libmpi.c after libmpi_topo.c.
 *
 * As a Cartesian one (libmpi_topo.c), a graph communicator is an MPI_Comm_split of its
 * parent keeping the ranks in order (reorder is ignored, which the standard allows), with
 * the graph recorded here by handle: MPI_Graph_create's index and edges, which every rank
 * passes whole, or a distributed graph's edges at this rank (sources and destinations with
 * their weights). MPI_Dist_graph_create lets any rank name any edge, so the edges are
 * first exchanged with MPI_Allgather(v) and each rank keeps those that touch it, in the
 * order of the naming ranks. Whether a rank's graph is weighted is what its own call said
 * (weights other than MPI_UNWEIGHTED), as with MPICH. MPI_Comm_dup keeps the graph,
 * MPI_Comm_free drops it. */

int MPI__unweighted[1], MPI__weights_empty[1];

struct graph {
	MPI_Comm comm;
	int kind; /* MPI_GRAPH or MPI_DIST_GRAPH */
	/* MPI_GRAPH: nnodes, index[nnodes], edges[index[nnodes-1]] */
	int nnodes, *index, *edges;
	/* MPI_DIST_GRAPH: this rank's edges */
	int indeg, outdeg, weighted, *src, *sw, *dst, *dw;
};

static struct graph *graphs;
static int graphs_cap;

static struct graph *graph_find(MPI_Comm comm)
{
	int i;

	for (i = 0; comm != MPI_COMM_NULL && i < graphs_cap; i++)
		if (graphs[i].comm == comm)
			return &graphs[i];
	return NULL;
}

static int graph_kind(MPI_Comm comm)
{
	struct graph *g = graph_find(comm);

	return g == NULL ? MPI_UNDEFINED : g->kind;
}

static struct graph *graph_get(const char *call, MPI_Comm comm, int kind)
{
	struct graph *g = graph_find(comm);

	if (g == NULL || g->kind != kind)
		lib_error(call, MPI_ERR_TOPOLOGY, "communicator %d has no %s topology", comm,
			kind == MPI_GRAPH ? "graph" : "distributed graph");
	return g;
}

/* graph_slot returns a free entry for comm, growing the table when it is full. */
static struct graph *graph_slot(const char *call, MPI_Comm comm)
{
	int i, cap;
	struct graph *ng;

	for (i = 0; i < graphs_cap; i++)
		if (graphs[i].comm == MPI_COMM_NULL)
			break;
	if (i == graphs_cap) {
		cap = graphs_cap ? 2 * graphs_cap : 16;
		ng = realloc(graphs, sizeof *ng * cap);
		if (ng == NULL)
			lib_error(call, MPI_ERR_NO_MEM, "no memory for %d graph topologies", cap);
		memset(ng + graphs_cap, 0, sizeof *ng * (cap - graphs_cap));
		graphs = ng;
		graphs_cap = cap;
	}
	memset(&graphs[i], 0, sizeof graphs[i]);
	graphs[i].comm = comm;
	return &graphs[i];
}

/* int_copy duplicates n ints (n may be 0; a NULL or sentinel source gives zeros). */
static int *int_copy(const char *call, const int *from, int n)
{
	int *to = (int *)dt_alloc(call, sizeof(int) * (long)n + 1);

	if (from == NULL || from == MPI_UNWEIGHTED || from == MPI_WEIGHTS_EMPTY)
		memset(to, 0, sizeof(int) * (long)n);
	else
		memcpy(to, from, sizeof(int) * (long)n);
	return to;
}

/* graph_forget drops a freed communicator's graph (called by MPI_Comm_free). */
static void graph_forget(MPI_Comm comm)
{
	struct graph *g = graph_find(comm);

	if (g == NULL)
		return;
	free(g->index);
	free(g->edges);
	free(g->src);
	free(g->sw);
	free(g->dst);
	free(g->dw);
	memset(g, 0, sizeof *g);
}

/* graph_copy gives newcomm comm's graph, if it has one (called by MPI_Comm_dup). */
static void graph_copy(MPI_Comm comm, MPI_Comm newcomm)
{
	struct graph *g = graph_find(comm), *n;
	int ne;

	if (g == NULL || newcomm == MPI_COMM_NULL)
		return;
	n = graph_slot("MPI_Comm_dup", newcomm);
	g = graph_find(comm); /* the table may have moved */
	ne = g->nnodes > 0 ? g->index[g->nnodes - 1] : 0;
	n->kind = g->kind;
	n->nnodes = g->nnodes;
	n->index = int_copy("MPI_Comm_dup", g->index, g->nnodes);
	n->edges = int_copy("MPI_Comm_dup", g->edges, ne);
	n->indeg = g->indeg;
	n->outdeg = g->outdeg;
	n->weighted = g->weighted;
	n->src = int_copy("MPI_Comm_dup", g->src, g->indeg);
	n->sw = int_copy("MPI_Comm_dup", g->sw, g->indeg);
	n->dst = int_copy("MPI_Comm_dup", g->dst, g->outdeg);
	n->dw = int_copy("MPI_Comm_dup", g->dw, g->outdeg);
}

MPI_FN int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[],
	int reorder, MPI_Comm *comm_graph)
{
	int size, rank, i, ne;
	struct graph *g;

	(void)reorder;
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	if (nnodes < 0 || nnodes > size)
		lib_error("MPI_Graph_create", MPI_ERR_ARG, "invalid nnodes %d (communicator of %d)", nnodes, size);
	ne = nnodes > 0 ? index[nnodes - 1] : 0;
	for (i = 0; i < nnodes; i++)
		if (index[i] < (i > 0 ? index[i - 1] : 0))
			lib_error("MPI_Graph_create", MPI_ERR_ARG, "index[%d] = %d decreases", i, index[i]);
	for (i = 0; i < ne; i++)
		if (edges[i] < 0 || edges[i] >= nnodes)
			lib_error("MPI_Graph_create", MPI_ERR_ARG, "edges[%d] = %d is not a node of %d", i, edges[i], nnodes);
	MPI_Comm_split(comm, rank < nnodes ? 0 : MPI_UNDEFINED, rank, comm_graph);
	if (*comm_graph == MPI_COMM_NULL)
		return MPI_SUCCESS;
	g = graph_slot("MPI_Graph_create", *comm_graph);
	g->kind = MPI_GRAPH;
	g->nnodes = nnodes;
	g->index = int_copy("MPI_Graph_create", index, nnodes);
	g->edges = int_copy("MPI_Graph_create", edges, ne);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
	struct graph *g = graph_get("MPI_Graphdims_get", comm, MPI_GRAPH);

	*nnodes = g->nnodes;
	*nedges = g->nnodes > 0 ? g->index[g->nnodes - 1] : 0;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
	struct graph *g = graph_get("MPI_Graph_get", comm, MPI_GRAPH);
	int i, ne = g->nnodes > 0 ? g->index[g->nnodes - 1] : 0;

	for (i = 0; i < g->nnodes && i < maxindex; i++)
		index[i] = g->index[i];
	for (i = 0; i < ne && i < maxedges; i++)
		edges[i] = g->edges[i];
	return MPI_SUCCESS;
}

MPI_FN int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
	struct graph *g = graph_get("MPI_Graph_neighbors_count", comm, MPI_GRAPH);

	if (rank < 0 || rank >= g->nnodes)
		lib_error("MPI_Graph_neighbors_count", MPI_ERR_RANK, "invalid rank %d (graph of %d)", rank, g->nnodes);
	*nneighbors = g->index[rank] - (rank > 0 ? g->index[rank - 1] : 0);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
	struct graph *g = graph_get("MPI_Graph_neighbors", comm, MPI_GRAPH);
	int i, first;

	if (rank < 0 || rank >= g->nnodes)
		lib_error("MPI_Graph_neighbors", MPI_ERR_RANK, "invalid rank %d (graph of %d)", rank, g->nnodes);
	first = rank > 0 ? g->index[rank - 1] : 0;
	for (i = 0; first + i < g->index[rank] && i < maxneighbors; i++)
		neighbors[i] = g->edges[first + i];
	return MPI_SUCCESS;
}

/* The map calls give the rank the create calls would: the same one, for the first nnodes
 * ranks. */
MPI_FN int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
	int rank, size;

	(void)index;
	(void)edges;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (nnodes < 0 || nnodes > size)
		lib_error("MPI_Graph_map", MPI_ERR_ARG, "invalid nnodes %d (communicator of %d)", nnodes, size);
	*newrank = rank < nnodes ? rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
	int rank, size, d, n = 1;

	(void)periods;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	for (d = 0; d < ndims; d++) {
		if (dims[d] <= 0)
			lib_error("MPI_Cart_map", MPI_ERR_DIMS, "invalid dims[%d] = %d", d, dims[d]);
		n *= dims[d];
	}
	if (ndims < 0 || n > size)
		lib_error("MPI_Cart_map", MPI_ERR_DIMS, "the grid has %d points, the communicator %d ranks", n, size);
	*newrank = rank < n ? rank : MPI_UNDEFINED;
	return MPI_SUCCESS;
}

/* dist_new makes the distributed graph communicator (a duplicate of comm) with this
 * rank's edges. */
static int dist_new(const char *call, MPI_Comm comm, int indeg, const int src[], const int sw[],
	int outdeg, const int dst[], const int dw[], int weighted, MPI_Comm *newcomm)
{
	struct graph *g;
	int rc = MPI_Comm_dup(comm, newcomm);

	if (rc != MPI_SUCCESS)
		return rc;
	g = graph_slot(call, *newcomm);
	g->kind = MPI_DIST_GRAPH;
	g->indeg = indeg;
	g->outdeg = outdeg;
	g->weighted = weighted;
	g->src = int_copy(call, src, indeg);
	g->sw = int_copy(call, weighted ? sw : NULL, indeg);
	g->dst = int_copy(call, dst, outdeg);
	g->dw = int_copy(call, weighted ? dw : NULL, outdeg);
	return MPI_SUCCESS;
}

static void dist_check(const char *call, const char *what, int n, const int *ranks, int size)
{
	int i;

	if (n < 0)
		lib_error(call, MPI_ERR_ARG, "invalid %s degree %d", what, n);
	for (i = 0; i < n; i++)
		if (ranks[i] < 0 || ranks[i] >= size)
			lib_error(call, MPI_ERR_RANK, "%s[%d] = %d is not a rank of %d", what, i, ranks[i], size);
}

MPI_FN int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
	const int sourceweights[], int outdegree, const int destinations[], const int destweights[],
	MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	int size;

	(void)info;
	(void)reorder;
	MPI_Comm_size(comm, &size);
	dist_check("MPI_Dist_graph_create_adjacent", "sources", indegree, sources, size);
	dist_check("MPI_Dist_graph_create_adjacent", "destinations", outdegree, destinations, size);
	return dist_new("MPI_Dist_graph_create_adjacent", comm, indegree, sources, sourceweights, outdegree,
		destinations, destweights, sourceweights != MPI_UNWEIGHTED, comm_dist_graph);
}

/* MPI_Dist_graph_create: every rank's edges (source, destination, weight) are gathered by
 * all, and each keeps the ones ending at it (its sources) and starting at it (its
 * destinations). */
MPI_FN int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
	const int destinations[], const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
	static const char call[] = "MPI_Dist_graph_create";
	int size, rank, i, k, e = 0, total, *counts, *displs, *local, *all, *src, *sw, *dst, *dw;
	int nin = 0, nout = 0, rc;

	(void)info;
	(void)reorder;
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	if (n < 0)
		lib_error(call, MPI_ERR_ARG, "invalid n %d", n);
	for (i = 0; i < n; i++) {
		if (degrees[i] < 0)
			lib_error(call, MPI_ERR_ARG, "invalid degrees[%d] = %d", i, degrees[i]);
		e += degrees[i];
	}
	dist_check(call, "sources", n, sources, size);
	dist_check(call, "destinations", e, destinations, size);
	local = (int *)dt_alloc(call, sizeof(int) * 3 * (long)e + 1);
	for (i = 0, e = 0; i < n; i++)
		for (k = 0; k < degrees[i]; k++, e++) {
			local[3 * e] = sources[i];
			local[3 * e + 1] = destinations[e];
			local[3 * e + 2] = weights == MPI_UNWEIGHTED || weights == NULL ? 0 : weights[e];
		}
	counts = (int *)dt_alloc(call, sizeof(int) * 2 * (long)size);
	displs = counts + size;
	e *= 3;
	MPI_Allgather(&e, 1, MPI_INT, counts, 1, MPI_INT, comm);
	for (i = 0, total = 0; i < size; i++) {
		displs[i] = total;
		total += counts[i];
	}
	all = (int *)dt_alloc(call, sizeof(int) * (long)total + 1);
	MPI_Allgatherv(local, e, MPI_INT, all, counts, displs, MPI_INT, comm);
	for (i = 0; i < total; i += 3) {
		nin += all[i + 1] == rank;
		nout += all[i] == rank;
	}
	src = (int *)dt_alloc(call, sizeof(int) * 2 * (long)nin + 1);
	sw = src + nin;
	dst = (int *)dt_alloc(call, sizeof(int) * 2 * (long)nout + 1);
	dw = dst + nout;
	for (i = 0, nin = 0, nout = 0; i < total; i += 3) {
		if (all[i + 1] == rank) {
			src[nin] = all[i];
			sw[nin++] = all[i + 2];
		}
		if (all[i] == rank) {
			dst[nout] = all[i + 1];
			dw[nout++] = all[i + 2];
		}
	}
	rc = dist_new(call, comm, nin, src, sw, nout, dst, dw, weights != MPI_UNWEIGHTED, comm_dist_graph);
	free(local);
	free(counts);
	free(all);
	free(src);
	free(dst);
	return rc;
}

MPI_FN int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
	struct graph *g = graph_get("MPI_Dist_graph_neighbors_count", comm, MPI_DIST_GRAPH);

	*indegree = g->indeg;
	*outdegree = g->outdeg;
	*weighted = g->weighted;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
	int maxoutdegree, int destinations[], int destweights[])
{
	struct graph *g = graph_get("MPI_Dist_graph_neighbors", comm, MPI_DIST_GRAPH);
	int i;

	for (i = 0; i < g->indeg && i < maxindegree; i++) {
		sources[i] = g->src[i];
		if (g->weighted && sourceweights != MPI_UNWEIGHTED && sourceweights != NULL)
			sourceweights[i] = g->sw[i];
	}
	for (i = 0; i < g->outdeg && i < maxoutdegree; i++) {
		destinations[i] = g->dst[i];
		if (g->weighted && destweights != MPI_UNWEIGHTED && destweights != NULL)
			destweights[i] = g->dw[i];
	}
	return MPI_SUCCESS;
}
