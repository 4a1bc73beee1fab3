/* libmpi_topo.c: groups and Cartesian topologies, kept by the library over the engine's
 * communicators. Included by libmpi.c.
 *
 * A group is a list of world ranks; MPI_Comm_create passes it to the engine. A Cartesian
 * communicator is an MPI_Comm_split of its parent (reorder is ignored: ranks keep their
 * order, which the standard allows) with its dims and periods recorded here, by handle;
 * MPI_Cart_sub splits it again by the coordinates that are not kept. */

/* Groups: handle 1 is MPI_GROUP_EMPTY; others index the table from 2. The table doubles
 * when full, so a program may hold as many groups as its memory allows (MPICH's suite
 * keeps 2,048 at once). */
struct group_ent {
	int used, n;
	int *world;
};
static struct group_ent *groups;
static int groups_cap;

static void group_get(const char *call, MPI_Group g, int *n, int **world)
{
	if (g == MPI_GROUP_EMPTY) {
		*n = 0;
		*world = NULL;
		return;
	}
	if (g < 2 || g >= groups_cap || !groups[g].used)
		lib_error(call, MPI_ERR_GROUP, "invalid group %d", g);
	*n = groups[g].n;
	*world = groups[g].world;
}

/* group_new takes ownership of world (n ranks). */
static int group_new(const char *call, int n, int *world, MPI_Group *out)
{
	int g;

	if (n == 0) {
		free(world);
		*out = MPI_GROUP_EMPTY;
		return MPI_SUCCESS;
	}
	for (g = 2;; g++) {
		if (g >= groups_cap) {
			int cap = groups_cap ? 2 * groups_cap : 64;
			struct group_ent *ng = realloc(groups, sizeof *ng * cap);

			if (ng == NULL)
				lib_error(call, MPI_ERR_NO_MEM, "no memory for %d groups", cap);
			memset(ng + groups_cap, 0, sizeof *ng * (cap - groups_cap));
			groups = ng;
			groups_cap = cap;
		}
		if (!groups[g].used) {
			groups[g].used = 1;
			groups[g].n = n;
			groups[g].world = world;
			*out = g;
			return MPI_SUCCESS;
		}
	}
}

MPI_FN int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
	int size, *world;
	unsigned long b[2];

	MPI_Comm_size(comm, &size);
	world = malloc(sizeof *world * size);
	b[0] = W(comm);
	b[1] = W(world);
	dpcl_mpi_comm_group((long)b);
	return group_new("MPI_Comm_group", size, world, group);
}

MPI_FN int MPI_Group_size(MPI_Group group, int *size)
{
	int *w;

	group_get("MPI_Group_size", group, size, &w);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Group_rank(MPI_Group group, int *rank)
{
	int n, *w, i, me = dpcl_rank();

	group_get("MPI_Group_rank", group, &n, &w);
	*rank = MPI_UNDEFINED;
	for (i = 0; i < n; i++)
		if (w[i] == me)
			*rank = i;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
	int size, *w, *out, i, k;

	group_get("MPI_Group_incl", group, &size, &w);
	if (n < 0 || n > size)
		lib_error("MPI_Group_incl", MPI_ERR_ARG, "invalid n %d (group size %d)", n, size);
	out = malloc(sizeof *out * (n + 1));
	for (i = 0; i < n; i++) {
		if (ranks[i] < 0 || ranks[i] >= size)
			lib_error("MPI_Group_incl", MPI_ERR_RANK, "invalid ranks[%d] = %d (group size %d)", i, ranks[i], size);
		for (k = 0; k < i; k++)
			if (ranks[k] == ranks[i])
				lib_error("MPI_Group_incl", MPI_ERR_RANK, "ranks[%d] = %d repeats ranks[%d]", i, ranks[i], k);
		out[i] = w[ranks[i]];
	}
	return group_new("MPI_Group_incl", n, out, newgroup);
}

MPI_FN int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
	int size, *w, *out, i, k, m = 0, skip;

	group_get("MPI_Group_excl", group, &size, &w);
	if (n < 0 || n > size)
		lib_error("MPI_Group_excl", MPI_ERR_ARG, "invalid n %d (group size %d)", n, size);
	for (i = 0; i < n; i++)
		if (ranks[i] < 0 || ranks[i] >= size)
			lib_error("MPI_Group_excl", MPI_ERR_RANK, "invalid ranks[%d] = %d (group size %d)", i, ranks[i], size);
	out = malloc(sizeof *out * (size + 1));
	for (i = 0; i < size; i++) {
		for (skip = 0, k = 0; k < n; k++)
			skip |= ranks[k] == i;
		if (!skip)
			out[m++] = w[i];
	}
	return group_new("MPI_Group_excl", m, out, newgroup);
}

MPI_FN int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
	int ranks2[])
{
	int n1, n2, *w1, *w2, i, k;

	group_get("MPI_Group_translate_ranks", group1, &n1, &w1);
	group_get("MPI_Group_translate_ranks", group2, &n2, &w2);
	for (i = 0; i < n; i++) {
		if (ranks1[i] == MPI_PROC_NULL) {
			ranks2[i] = MPI_PROC_NULL;
			continue;
		}
		if (ranks1[i] < 0 || ranks1[i] >= n1)
			lib_error("MPI_Group_translate_ranks", MPI_ERR_RANK, "invalid ranks1[%d] = %d (group size %d)", i, ranks1[i], n1);
		ranks2[i] = MPI_UNDEFINED;
		for (k = 0; k < n2; k++)
			if (w2[k] == w1[ranks1[i]])
				ranks2[i] = k;
	}
	return MPI_SUCCESS;
}

MPI_FN int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
	int n1, n2, *w1, *w2, i, k, same = 1, found;

	group_get("MPI_Group_compare", group1, &n1, &w1);
	group_get("MPI_Group_compare", group2, &n2, &w2);
	if (n1 != n2) {
		*result = MPI_UNEQUAL;
		return MPI_SUCCESS;
	}
	for (i = 0; i < n1; i++)
		same &= w1[i] == w2[i];
	if (same) {
		*result = MPI_IDENT;
		return MPI_SUCCESS;
	}
	*result = MPI_SIMILAR;
	for (i = 0; i < n1; i++) {
		for (found = 0, k = 0; k < n2; k++)
			found |= w1[i] == w2[k];
		if (!found)
			*result = MPI_UNEQUAL;
	}
	return MPI_SUCCESS;
}

MPI_FN int MPI_Group_free(MPI_Group *group)
{
	if (group == NULL || *group == MPI_GROUP_NULL)
		lib_error("MPI_Group_free", MPI_ERR_GROUP, "invalid group MPI_GROUP_NULL");
	if (*group != MPI_GROUP_EMPTY) {
		int n, *w;

		group_get("MPI_Group_free", *group, &n, &w);
		free(w);
		groups[*group].used = 0;
	}
	*group = MPI_GROUP_NULL;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	int n, *w;
	unsigned long b[4];

	group_get("MPI_Comm_create", group, &n, &w);
	if (IS_INTER(comm))
		return ic_create(comm, n, w, newcomm);
	b[0] = W(comm);
	b[1] = W(n);
	b[2] = W(w);
	b[3] = W(newcomm);
	return dpcl_mpi_comm_create((long)b);
}

/* Cartesian topologies, by communicator handle. */
enum { MAX_CARTS = 64, MAX_DIMS = 8 };
static struct {
	MPI_Comm comm;
	int ndims, dims[MAX_DIMS], periods[MAX_DIMS];
} carts[MAX_CARTS];

static int cart_find(MPI_Comm comm)
{
	int i;

	for (i = 0; i < MAX_CARTS; i++)
		if (carts[i].comm == comm && comm != MPI_COMM_NULL)
			return i;
	return -1;
}

static int cart_get(const char *call, MPI_Comm comm)
{
	int i = cart_find(comm);

	if (i < 0)
		lib_error(call, MPI_ERR_TOPOLOGY, "communicator %d has no Cartesian topology", comm);
	return i;
}

static void cart_add(MPI_Comm comm, int ndims, const int dims[], const int periods[])
{
	int i, d;

	for (i = 0; i < MAX_CARTS; i++)
		if (carts[i].comm == MPI_COMM_NULL) {
			carts[i].comm = comm;
			carts[i].ndims = ndims;
			for (d = 0; d < ndims; d++) {
				carts[i].dims[d] = dims[d];
				carts[i].periods[d] = periods[d] != 0;
			}
			return;
		}
	lib_error("MPI_Cart_create", MPI_ERR_OTHER, "more than %d Cartesian communicators", MAX_CARTS);
}

/* cart_forget drops a freed communicator's topology (called by MPI_Comm_free). */
static void cart_forget(MPI_Comm comm)
{
	int i = cart_find(comm);

	if (i >= 0)
		carts[i].comm = MPI_COMM_NULL;
}

MPI_FN int MPI_Dims_create(int nnodes, int ndims, int dims[])
{
	int d, free_n = 0, rest = nnodes, i;

	if (nnodes <= 0 || ndims < 0)
		lib_error("MPI_Dims_create", MPI_ERR_DIMS, "invalid nnodes %d or ndims %d", nnodes, ndims);
	for (d = 0; d < ndims; d++) {
		if (dims[d] < 0)
			lib_error("MPI_Dims_create", MPI_ERR_DIMS, "invalid dims[%d] = %d", d, dims[d]);
		if (dims[d] > 0) {
			if (rest % dims[d] != 0)
				lib_error("MPI_Dims_create", MPI_ERR_DIMS, "dims[%d] = %d does not divide %d", d, dims[d], nnodes);
			rest /= dims[d];
		} else {
			free_n++;
		}
	}
	if (free_n == 0) {
		if (rest != 1)
			lib_error("MPI_Dims_create", MPI_ERR_DIMS, "the fixed dims do not multiply to %d", nnodes);
		return MPI_SUCCESS;
	}
	{
		int *free_dims = (int *)dt_alloc("MPI_Dims_create", sizeof(int) * (long)free_n);

		dims_best(rest, free_n, free_dims);
		for (d = 0, i = 0; d < ndims; d++)
			if (dims[d] == 0)
				dims[d] = free_dims[i++];
		free(free_dims);
	}
	return MPI_SUCCESS;
}

MPI_FN int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
	MPI_Comm *comm_cart)
{
	int d, n = 1, size, rank;

	(void)reorder;
	if (ndims < 0 || ndims > MAX_DIMS)
		lib_error("MPI_Cart_create", MPI_ERR_DIMS, "invalid ndims %d (at most %d)", ndims, MAX_DIMS);
	for (d = 0; d < ndims; d++) {
		if (dims[d] <= 0)
			lib_error("MPI_Cart_create", MPI_ERR_DIMS, "invalid dims[%d] = %d", d, dims[d]);
		n *= dims[d];
	}
	MPI_Comm_size(comm, &size);
	MPI_Comm_rank(comm, &rank);
	if (n > size)
		lib_error("MPI_Cart_create", MPI_ERR_DIMS, "the grid has %d points, the communicator %d ranks", n, size);
	MPI_Comm_split(comm, rank < n ? 0 : MPI_UNDEFINED, rank, comm_cart);
	if (*comm_cart != MPI_COMM_NULL)
		cart_add(*comm_cart, ndims, dims, periods);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
	*ndims = carts[cart_get("MPI_Cartdim_get", comm)].ndims;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Topo_test(MPI_Comm comm, int *status)
{
	*status = cart_find(comm) >= 0 ? MPI_CART : graph_kind(comm);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
	int i = cart_get("MPI_Cart_coords", comm), d, size = 1;

	for (d = 0; d < carts[i].ndims; d++)
		size *= carts[i].dims[d];
	if (rank < 0 || rank >= size)
		lib_error("MPI_Cart_coords", MPI_ERR_RANK, "invalid rank %d (grid of %d)", rank, size);
	for (d = carts[i].ndims - 1; d >= 0; d--) {
		if (d < maxdims)
			coords[d] = rank % carts[i].dims[d];
		rank /= carts[i].dims[d];
	}
	return MPI_SUCCESS;
}

/* cart_rank_of is the rank at coords, or MPI_PROC_NULL off a non-periodic edge. */
static int cart_rank_of(int i, const int coords[])
{
	int d, r = 0, c;

	for (d = 0; d < carts[i].ndims; d++) {
		c = coords[d];
		if (c < 0 || c >= carts[i].dims[d]) {
			if (!carts[i].periods[d])
				return MPI_PROC_NULL;
			c = (c % carts[i].dims[d] + carts[i].dims[d]) % carts[i].dims[d];
		}
		r = r * carts[i].dims[d] + c;
	}
	return r;
}

MPI_FN int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
	int i = cart_get("MPI_Cart_rank", comm);

	*rank = cart_rank_of(i, coords);
	if (*rank == MPI_PROC_NULL)
		lib_error("MPI_Cart_rank", MPI_ERR_ARG, "coordinates off the edge of a non-periodic dimension");
	return MPI_SUCCESS;
}

MPI_FN int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
	int i = cart_get("MPI_Cart_get", comm), d, rank;

	MPI_Comm_rank(comm, &rank);
	for (d = 0; d < carts[i].ndims && d < maxdims; d++) {
		dims[d] = carts[i].dims[d];
		periods[d] = carts[i].periods[d];
	}
	return MPI_Cart_coords(comm, rank, maxdims, coords);
}

MPI_FN int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
	int i = cart_get("MPI_Cart_shift", comm), rank, c[MAX_DIMS];

	if (direction < 0 || direction >= carts[i].ndims)
		lib_error("MPI_Cart_shift", MPI_ERR_ARG, "invalid direction %d (%d dimensions)", direction, carts[i].ndims);
	MPI_Comm_rank(comm, &rank);
	MPI_Cart_coords(comm, rank, MAX_DIMS, c);
	c[direction] += disp;
	*rank_dest = cart_rank_of(i, c);
	c[direction] -= 2 * disp;
	*rank_source = cart_rank_of(i, c);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
	int i = cart_get("MPI_Cart_sub", comm), rank, c[MAX_DIMS], d, color = 0, key = 0, nd = 0;
	int dims[MAX_DIMS], periods[MAX_DIMS];

	MPI_Comm_rank(comm, &rank);
	MPI_Cart_coords(comm, rank, MAX_DIMS, c);
	for (d = 0; d < carts[i].ndims; d++) {
		if (remain_dims[d]) {
			key = key * carts[i].dims[d] + c[d];
			dims[nd] = carts[i].dims[d];
			periods[nd++] = carts[i].periods[d];
		} else {
			color = color * carts[i].dims[d] + c[d];
		}
	}
	/* Keeping no dimension leaves a grid of one point: the rank at the origin gets a
	 * communicator of itself, the others MPI_COMM_NULL (as MPICH does). */
	if (nd == 0)
		color = rank == 0 ? 0 : MPI_UNDEFINED;
	MPI_Comm_split(comm, color, key, newcomm);
	if (*newcomm != MPI_COMM_NULL)
		cart_add(*newcomm, nd, dims, periods);
	return MPI_SUCCESS;
}
