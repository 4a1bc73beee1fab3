/* cg: conjugate gradients on a generated sparse symmetric positive definite system, with the
 * Allreduce-heavy profile of the ASC Purple solvers (SMG2000, sPPM).
 *
 * Usage: cg [grid [iterations]]   (defaults 100 points per side, 20 iterations)
 *
 * The matrix is the 5-point stencil on a grid x grid mesh with a varying diagonal:
 * A(i,i) = 5 + (i mod 7)/7, A(i,j) = -1 for mesh neighbours. It is strictly diagonally
 * dominant, so SPD with eigenvalues in [1, 9]: CG gains about a factor 0.5 per iteration.
 * b(i) = 1 + (i mod 3). The ranks own strips of mesh rows and trade one row with each
 * neighbour (Sendrecv) before every matrix-vector product; each iteration makes two
 * Allreduces (p.Ap and r.r), and the setup a Bcast and three more.
 *
 * Rank 0 prints |r|/|b| every 5 iterations and after the last, then the true residual
 * |b - Ax|/|b| and the sum of x. Dot products are MPI sums whose last bits depend on the
 * combining order, so values are printed to six digits, and the true residual, which is
 * mostly cancellation once converged, to three. Past about 30 iterations (|r|/|b| below
 * 1e-12) even those digits become rounding noise that differs between MPI libraries. */
#include "apps.h"

struct strip {
	int rank, size, m, r0, lr; /* mesh side; first owned row; owned rows */
	int up, down;              /* neighbour ranks or -1 */
	double *diag;              /* lr*m */
};

static void halo(const struct strip *s, double *p)
{
	int m = s->m;
	double *own = p + m, *above = p, *below = p + (s->lr + 1) * m;

	/* Rows pass downwards (tag 1), then upwards (tag 2); an absent neighbour reads zeros. */
	if (s->down >= 0 && s->up >= 0)
		MPI_Sendrecv(own + (s->lr - 1) * m, m, MPI_DOUBLE, s->down, 1, above, m, MPI_DOUBLE,
			s->up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	else if (s->down >= 0)
		MPI_Send(own + (s->lr - 1) * m, m, MPI_DOUBLE, s->down, 1, MPI_COMM_WORLD);
	else if (s->up >= 0)
		MPI_Recv(above, m, MPI_DOUBLE, s->up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (s->down >= 0 && s->up >= 0)
		MPI_Sendrecv(own, m, MPI_DOUBLE, s->up, 2, below, m, MPI_DOUBLE, s->down, 2,
			MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	else if (s->up >= 0)
		MPI_Send(own, m, MPI_DOUBLE, s->up, 2, MPI_COMM_WORLD);
	else if (s->down >= 0)
		MPI_Recv(below, m, MPI_DOUBLE, s->down, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* matvec sets y = A p; p has a halo row above and below its lr owned rows. */
static void matvec(const struct strip *s, double *p, double *y)
{
	int m = s->m, i, j;

	halo(s, p);
	for (i = 0; i < s->lr; i++)
		for (j = 0; j < m; j++) {
			const double *c = p + (i + 1) * m + j;
			double v = s->diag[i * m + j] * c[0] - c[-m] - c[m];
			if (j > 0)
				v -= c[-1];
			if (j < m - 1)
				v -= c[1];
			y[i * m + j] = v;
		}
}

static double dot(const double *a, const double *b, int n)
{
	double local = 0.0, global;
	int i;

	for (i = 0; i < n; i++)
		local += a[i] * b[i];
	MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return global;
}

static void setup(struct strip *s, double *b)
{
	int i, n;

	app_block(s->m, s->size, s->rank, &s->r0, &s->lr);
	n = s->lr * s->m;
	s->up = s->rank > 0 ? s->rank - 1 : -1;
	s->down = s->rank < s->size - 1 ? s->rank + 1 : -1;
	s->diag = malloc(n * sizeof(double));
	for (i = 0; i < n; i++) {
		int g = s->r0 * s->m + i;
		s->diag[i] = 5.0 + (double)(g % 7) / 7.0;
		b[i] = 1.0 + g % 3;
	}
}

/* vectors of one rank: x, r and Ap over its n unknowns; p with a halo row each side. */
struct vecs {
	int n;
	double *x, *r, *p, *ap, *b;
};

/* iterate runs CG from x = 0; bb is |b|^2. */
static void iterate(struct strip *s, struct vecs *v, int iters, double bb)
{
	double rr = bb, rrnew, alpha, beta, *p = v->p + s->m;
	int it, i;

	for (it = 1; it <= iters; it++) {
		matvec(s, v->p, v->ap);
		alpha = rr / dot(p, v->ap, v->n);
		for (i = 0; i < v->n; i++) {
			v->x[i] += alpha * p[i];
			v->r[i] -= alpha * v->ap[i];
		}
		rrnew = dot(v->r, v->r, v->n);
		beta = rrnew / rr;
		rr = rrnew;
		for (i = 0; i < v->n; i++)
			p[i] = v->r[i] + beta * p[i];
		if (s->rank == 0 && (it % 5 == 0 || it == iters))
			printf("iter %d: |r|/|b| = %.5e\n", it, app_sqrt(rr / bb));
	}
}

/* report prints the true residual |b - Ax|/|b|, from x itself rather than the recurrence,
 * and the sum of x. */
static void report(struct strip *s, struct vecs *v, double bb)
{
	double rr, sum;
	int i;

	for (i = 0; i < v->n; i++)
		v->p[s->m + i] = v->x[i];
	matvec(s, v->p, v->ap);
	for (i = 0; i < v->n; i++)
		v->r[i] = v->b[i] - v->ap[i];
	rr = dot(v->r, v->r, v->n);
	for (i = 0; i < v->n; i++)
		v->ap[i] = 1.0;
	sum = dot(v->x, v->ap, v->n);
	if (s->rank == 0)
		printf("final: |b-Ax|/|b| = %.2e, sum(x) = %.5e\n", app_sqrt(rr / bb), sum);
}

int main(int argc, char **argv)
{
	struct strip s;
	struct vecs v;
	int iters, i, params[2];
	double bb;

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &s.size);
	/* Every rank validates the arguments (so a bad one stops all ranks alike); rank 0's
	 * values are then broadcast, as a solver distributes its input deck. */
	params[0] = (int)app_arg(argc, argv, 1, 100, 1, 1 << 13);
	params[1] = (int)app_arg(argc, argv, 2, 20, 0, 1 << 20);
	MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
	s.m = params[0];
	iters = params[1];
	if (s.m < s.size) {
		if (s.rank == 0)
			fprintf(stderr, "cg: grid %d has fewer rows than the %d ranks\n", s.m, s.size);
		MPI_Finalize();
		return 2;
	}
	v.b = malloc(((s.m / s.size) + 1) * s.m * sizeof(double));
	setup(&s, v.b);
	v.n = s.lr * s.m;
	v.x = calloc(v.n, sizeof(double));
	v.r = malloc(v.n * sizeof(double));
	v.p = calloc((s.lr + 2) * s.m, sizeof(double));
	v.ap = malloc(v.n * sizeof(double));
	for (i = 0; i < v.n; i++)
		v.r[i] = v.p[s.m + i] = v.b[i];
	bb = dot(v.b, v.b, v.n);
	if (s.rank == 0) {
		printf("cg: %d x %d mesh (%d unknowns), %d ranks, %d iterations\n", s.m, s.m,
			s.m * s.m, s.size, iters);
		printf("iter 0: |r|/|b| = %.5e\n", 1.0); /* x = 0, so r = b */
	}
	iterate(&s, &v, iters, bb);
	report(&s, &v, bb);
	free(v.x);
	free(v.r);
	free(v.p);
	free(v.ap);
	free(v.b);
	free(s.diag);
	MPI_Finalize();
	return 0;
}
