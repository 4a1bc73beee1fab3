/* jacobi: Jacobi iteration for Laplace's equation on a square grid, decomposed over a 2-D
 * grid of ranks with a halo exchange every iteration.
 *
 * Usage: jacobi [grid [iterations]]   (defaults 128 points per side, 100 iterations)
 *
 * The grid's interior is grid x grid points; the boundary is 1 along the top edge and 0
 * elsewhere; the interior starts at 0. The ranks form a py x px grid (py the largest divisor
 * of the size not above its square root); each owns a block of rows and columns and trades
 * one-point-wide halos with its four neighbours by Irecv/Isend/Waitall. After each sweep two
 * Allreduces give the residual (the 2-norm of the change, SUM) and the largest change (MAX).
 *
 * Rank 0 prints the residual every iterations/10 sweeps and after the last one, then u at
 * the grid's centre with a line saying what to expect of it (a newcomer reading 1e-21 there
 * should know the heat has not reached the centre yet). The sweep itself is decomposition-independent (every point is updated
 * from the same four values), so the centre value and the MAX are exact; the SUM depends on
 * the order partial sums are combined, so residuals are printed to six digits. */
#include "apps.h"

enum { NORTH, SOUTH, WEST, EAST, NDIR };

struct domain {
	int rank, size, px, py, cx, cy;
	int g, x0, y0, lx, ly; /* global size; first owned column/row; owned width/height */
	int nbr[NDIR];         /* neighbour rank or -1 */
	double *u, *v;         /* (ly+2) x (lx+2) with halo */
	double *sendbuf[NDIR], *recvbuf[NDIR];
};

#define AT(d, a, i, j) ((a)[(i) * ((d)->lx + 2) + (j)])

static void decompose(struct domain *d)
{
	int k;

	d->py = 1;
	for (k = 1; k * k <= d->size; k++)
		if (d->size % k == 0)
			d->py = k;
	d->px = d->size / d->py;
	d->cx = d->rank % d->px;
	d->cy = d->rank / d->px;
	app_block(d->g, d->px, d->cx, &d->x0, &d->lx);
	app_block(d->g, d->py, d->cy, &d->y0, &d->ly);
	d->nbr[NORTH] = d->cy > 0 ? d->rank - d->px : -1;
	d->nbr[SOUTH] = d->cy < d->py - 1 ? d->rank + d->px : -1;
	d->nbr[WEST] = d->cx > 0 ? d->rank - 1 : -1;
	d->nbr[EAST] = d->cx < d->px - 1 ? d->rank + 1 : -1;
}

static void allocate(struct domain *d)
{
	int n = (d->lx + 2) * (d->ly + 2), k, i;

	d->u = calloc(n, sizeof(double));
	d->v = calloc(n, sizeof(double));
	for (k = 0; k < NDIR; k++) {
		int len = k < WEST ? d->lx : d->ly;
		d->sendbuf[k] = malloc(len * sizeof(double));
		d->recvbuf[k] = malloc(len * sizeof(double));
	}
	if (d->cy == 0) /* the top boundary row is 1 */
		for (i = 0; i < d->lx + 2; i++)
			AT(d, d->u, 0, i) = AT(d, d->v, 0, i) = 1.0;
}

/* edge copies the owned row or column next to direction k into or out of buf. */
static void edge(struct domain *d, int k, double *buf, int out)
{
	int n = k < WEST ? d->lx : d->ly, i;
	int row = k == NORTH ? (out ? 1 : 0) : (out ? d->ly : d->ly + 1);
	int col = k == WEST ? (out ? 1 : 0) : (out ? d->lx : d->lx + 1);

	for (i = 0; i < n; i++) {
		double *p = k < WEST ? &AT(d, d->u, row, i + 1) : &AT(d, d->u, i + 1, col);
		if (out)
			buf[i] = *p;
		else
			*p = buf[i];
	}
}

static void exchange(struct domain *d)
{
	MPI_Request req[2 * NDIR];
	MPI_Status st[2 * NDIR];
	int k, n = 0;

	/* The tag names the direction the data travels, so a message sent south is received
	 * as coming from the north. */
	for (k = 0; k < NDIR; k++)
		if (d->nbr[k] >= 0)
			MPI_Irecv(d->recvbuf[k], k < WEST ? d->lx : d->ly, MPI_DOUBLE, d->nbr[k],
				k ^ 1, MPI_COMM_WORLD, &req[n++]);
	for (k = 0; k < NDIR; k++)
		if (d->nbr[k] >= 0) {
			edge(d, k, d->sendbuf[k], 1);
			MPI_Isend(d->sendbuf[k], k < WEST ? d->lx : d->ly, MPI_DOUBLE, d->nbr[k], k,
				MPI_COMM_WORLD, &req[n++]);
		}
	MPI_Waitall(n, req, st);
	for (k = 0; k < NDIR; k++)
		if (d->nbr[k] >= 0)
			edge(d, k, d->recvbuf[k], 0);
}

/* sweep computes v from u, swaps them, and returns the local sum of squared changes;
 * *maxchange receives the largest change. */
static double sweep(struct domain *d, double *maxchange)
{
	double sum = 0.0, big = 0.0, *t;
	int i, j;

	for (i = 1; i <= d->ly; i++)
		for (j = 1; j <= d->lx; j++) {
			double nv = 0.25 * (AT(d, d->u, i - 1, j) + AT(d, d->u, i + 1, j) +
				AT(d, d->u, i, j - 1) + AT(d, d->u, i, j + 1));
			double ch = nv - AT(d, d->u, i, j);
			AT(d, d->v, i, j) = nv;
			sum += ch * ch;
			if (ch > big)
				big = ch;
			else if (-ch > big)
				big = -ch;
		}
	t = d->u;
	d->u = d->v;
	d->v = t;
	*maxchange = big;
	return sum;
}

static double centre(struct domain *d)
{
	int c = d->g / 2;
	double mine = -1.0, all;

	if (c >= d->y0 && c < d->y0 + d->ly && c >= d->x0 && c < d->x0 + d->lx)
		mine = AT(d, d->u, c - d->y0 + 1, c - d->x0 + 1);
	MPI_Reduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	return all;
}

int main(int argc, char **argv)
{
	struct domain d;
	int iters, it, every, k;
	double local[2], global[2];

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &d.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &d.size);
	d.g = (int)app_arg(argc, argv, 1, 128, 1, 1 << 14);
	iters = (int)app_arg(argc, argv, 2, 100, 1, 1 << 24);
	decompose(&d);
	if (d.g < d.px || d.g < d.py) {
		if (d.rank == 0)
			fprintf(stderr, "jacobi: grid %d is smaller than the %d x %d rank grid\n", d.g,
				d.py, d.px);
		MPI_Finalize();
		return 2;
	}
	allocate(&d);
	every = iters >= 10 ? iters / 10 : 1;
	if (d.rank == 0)
		printf("jacobi: %d x %d grid, %d ranks as %d x %d, %d iterations\n", d.g, d.g, d.size,
			d.py, d.px, iters);
	for (it = 1; it <= iters; it++) {
		exchange(&d);
		local[0] = sweep(&d, &local[1]);
		MPI_Allreduce(&local[0], &global[0], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		MPI_Allreduce(&local[1], &global[1], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		if (d.rank == 0 && (it % every == 0 || it == iters))
			printf("iter %d: residual %.5e max change %.5e\n", it, app_sqrt(global[0]),
				global[1]);
	}
	global[0] = centre(&d);
	if (d.rank == 0) {
		printf("final: u(%d,%d) = %.12e\n", d.g / 2, d.g / 2, global[0]);
		printf("(u at the centre: 0 at the start, 0.25 when steady; heat from the top edge "
		       "spreads about sqrt(sweeps) = %.0f rows in %d sweeps, the centre is %d rows down)\n",
		       app_sqrt((double)iters), iters, d.g / 2);
	}
	free(d.u);
	free(d.v);
	for (k = 0; k < NDIR; k++) {
		free(d.sendbuf[k]);
		free(d.recvbuf[k]);
	}
	MPI_Finalize();
	return 0;
}
