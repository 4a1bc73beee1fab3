/* topo: MPI_Dims_create, a periodic 2-D MPI_Cart_create over every rank (rows of the
 * grid from Dims_create), coordinates, ranks and shifts (with MPI_PROC_NULL at the edges of
 * a non-periodic dimension), MPI_Cart_sub into rows and columns with a reduction in each,
 * and the environment calls: MPI_Wtick, MPI_Pcontrol, MPI_Get_processor_name,
 * MPI_Initialized and MPI_Finalized. */
#include "corpus.h"

static void dims(void)
{
	static const int cases[][2] = {{12, 2}, {64, 3}, {16, 3}, {7, 2}, {36, 2}, {30, 3}, {1, 2}};
	int k, d[3], fixed[3] = {0, 3, 0};

	if (corpus_rank != 0)
		return;
	for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
		d[0] = d[1] = d[2] = 0;
		MPI_Dims_create(cases[k][0], cases[k][1], d);
		say("dims: %d in %d -> %d %d %d", cases[k][0], cases[k][1], d[0], d[1], cases[k][1] > 2 ? d[2] : 0);
	}
	MPI_Dims_create(24, 3, fixed);
	say("dims: 24 with dims[1] = 3 -> %d %d %d", fixed[0], fixed[1], fixed[2]);
}

static void cart(void)
{
	int d[2] = {0, 0}, periods[2] = {1, 0}, coords[2], rank, src, dst, up, down, me;
	int rowsum, colsum, remain[2], nd, rr, c2[2], per[2], status;
	MPI_Comm grid, row, col;

	MPI_Dims_create(corpus_size, 2, d);
	MPI_Cart_create(MPI_COMM_WORLD, 2, d, periods, 0, &grid);
	MPI_Comm_rank(grid, &me);
	MPI_Cart_coords(grid, me, 2, coords);
	MPI_Cart_rank(grid, coords, &rank);
	MPI_Cart_shift(grid, 0, 1, &src, &dst);
	MPI_Cart_shift(grid, 1, 1, &up, &down);
	MPI_Cartdim_get(grid, &nd);
	MPI_Topo_test(grid, &status);
	check(rank == me && nd == 2 && status == MPI_CART, "Cart_rank inverts Cart_coords");
	say("cart: %dx%d at (%d,%d), dim 0 from %d to %d, dim 1 from %d to %d", d[0], d[1], coords[0], coords[1], src, dst,
		up, down);
	remain[0] = 0;
	remain[1] = 1;
	MPI_Cart_sub(grid, remain, &row);
	remain[0] = 1;
	remain[1] = 0;
	MPI_Cart_sub(grid, remain, &col);
	MPI_Allreduce(&me, &rowsum, 1, MPI_INT, MPI_SUM, row);
	MPI_Allreduce(&me, &colsum, 1, MPI_INT, MPI_SUM, col);
	MPI_Comm_rank(row, &rr);
	MPI_Cart_get(row, 1, c2, per, c2 + 1);
	say("cart: row sum %d (row rank %d of %d, periodic %d), column sum %d", rowsum, rr, c2[0], per[0], colsum);
	MPI_Comm_free(&row);
	MPI_Comm_free(&col);
	MPI_Comm_free(&grid);
}

static void env(void)
{
	char name[MPI_MAX_PROCESSOR_NAME];
	int len = 0, init = 0, fin = 1, version = 0, sub = 0;

	MPI_Get_processor_name(name, &len);
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	MPI_Pcontrol(1);
	MPI_Get_version(&version, &sub);
	check(version >= 3, "MPI version 3 or later");
	if (corpus_rank == 0)
		say("env: name %s, wtick %s, initialized %d, finalized %d", len > 0 && (int)strlen(name) == len ? "ok" : "bad",
			MPI_Wtick() > 0 && MPI_Wtick() <= 1e-3 ? "ok" : "bad", init, fin);
}

int main(int argc, char **argv)
{
	int rc, fin = 0;

	corpus_init(&argc, &argv);
	dims();
	cart();
	env();
	rc = corpus_finish("topo");
	MPI_Finalized(&fin);
	if (!fin)
		printf("MPI_Finalized is 0 after MPI_Finalize\n");
	return rc;
}
