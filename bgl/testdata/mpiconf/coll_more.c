/* coll_more: MPI_Reduce_scatter and MPI_Reduce_scatter_block with a non-commutative user
 * operation (in place too), MPI_Alltoallw with derived per-peer types (a vector on the
 * send side, a contiguous type and zero counts on the receive side, and in place),
 * MPI_Reduce_local with predefined and user operations, and MPI_Op_commutative. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;

/* affine composes maps x -> a*x + b stored as (a, b) int pairs: not commutative. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *f = in, *g = inout, i;

	(void)type;
	for (i = 0; i < *len; i++) {
		int a = f[2 * i] * g[2 * i], b = f[2 * i] * g[2 * i + 1] + f[2 * i + 1];

		g[2 * i] = a % 1000;
		g[2 * i + 1] = b % 1000;
	}
}

static void line(const char *what, const int *v, int n)
{
	char buf[1024];
	int i, len = snprintf(buf, sizeof buf, "rank %d: %s:", rank, what);

	for (i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof buf - len, " %d", v[i]);
	printf("%s\n", buf);
}

static void reduce_scatters(MPI_Op op, MPI_Datatype pair)
{
	int *counts = malloc(sizeof(int) * size), total = 0, i, *in, out[64];

	for (i = 0; i < size; i++) {
		counts[i] = 1 + i % 2;
		total += counts[i];
	}
	in = malloc(sizeof(int) * 2 * total);
	for (i = 0; i < total; i++) {
		in[2 * i] = 1 + (rank + i) % 3;
		in[2 * i + 1] = rank + 2 * i;
	}
	MPI_Reduce_scatter(in, out, counts, pair, op, MPI_COMM_WORLD);
	line("reduce_scatter", out, 2 * counts[rank]);
	MPI_Reduce_scatter_block(in, out, 1, pair, op, MPI_COMM_WORLD);
	line("reduce_scatter_block", out, 2);
	MPI_Reduce_scatter(MPI_IN_PLACE, in, counts, pair, op, MPI_COMM_WORLD);
	line("reduce_scatter in place", in, 2 * counts[rank]);
	free(counts);
	free(in);
}

static void alltoallw(void)
{
	int *sc = malloc(sizeof(int) * 6 * size), *sd = sc + size, *rc = sc + 2 * size, *rd = sc + 3 * size, i;
	MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * 2 * size), *rt = st + size, vec, two;
	int *sbuf = malloc(sizeof(int) * 4 * size), *rbuf = malloc(sizeof(int) * 4 * size);

	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Type_contiguous(2, MPI_INT, &two);
	MPI_Type_commit(&two);
	for (i = 0; i < 4 * size; i++) {
		sbuf[i] = 100 * rank + i;
		rbuf[i] = -1;
	}
	for (i = 0; i < size; i++) {
		/* To peer i: its elements 0 and 2 of block i (none to the next rank). */
		int none = i == (rank + 1) % size && size > 1;

		sc[i] = none ? 0 : 1;
		sd[i] = (int)(sizeof(int) * 4 * i);
		st[i] = vec;
		rc[i] = i == (rank + size - 1) % size && size > 1 ? 0 : 1;
		rd[i] = (int)(sizeof(int) * 2 * i);
		rt[i] = two;
	}
	MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD);
	line("alltoallw", rbuf, 2 * size);
	/* Predefined types on the send side, derived ones on the receive side. */
	for (i = 0; i < size; i++) {
		sc[i] = 2;
		st[i] = MPI_INT;
		rc[i] = 1;
	}
	MPI_Alltoallw(sbuf, sc, sd, st, rbuf, rc, rd, rt, MPI_COMM_WORLD);
	line("alltoallw of ints into pairs", rbuf, 2 * size);
	for (i = 0; i < size; i++) {
		rc[i] = 1;
		rbuf[2 * i] = 10 * rank + i;
		rbuf[2 * i + 1] = -(10 * rank + i);
	}
	MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, rbuf, rc, rd, rt, MPI_COMM_WORLD);
	line("alltoallw in place", rbuf, 2 * size);
	MPI_Type_free(&vec);
	MPI_Type_free(&two);
	free(sc);
	free(st);
	free(sbuf);
	free(rbuf);
}

static void local(MPI_Op op, MPI_Datatype pair)
{
	int a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, f[2] = {3, 1}, g[2] = {2, 5}, c;
	double x[2] = {1.5, -2.0}, y[2] = {0.25, 4.0};
	unsigned u[2] = {0xf0f0u, 0x0ff0u}, v[2] = {0xffffu, 0x00ffu};

	MPI_Reduce_local(a, b, 4, MPI_INT, MPI_SUM);
	line("local sum", b, 4);
	MPI_Reduce_local(a, b, 4, MPI_INT, MPI_MAX);
	line("local max", b, 4);
	MPI_Reduce_local(x, y, 2, MPI_DOUBLE, MPI_PROD);
	printf("rank %d: local double prod: %g %g\n", rank, y[0], y[1]);
	MPI_Reduce_local(u, v, 2, MPI_UNSIGNED, MPI_BXOR);
	printf("rank %d: local bxor: %x %x\n", rank, v[0], v[1]);
	MPI_Reduce_local(f, g, 1, pair, op);
	line("local user op", g, 2);
	MPI_Op_commutative(op, &c);
	printf("rank %d: user op commutative %d\n", rank, c);
	MPI_Op_commutative(MPI_SUM, &c);
	printf("rank %d: MPI_SUM commutative %d\n", rank, c);
}

int main(int argc, char **argv)
{
	static char outbuf[8192];
	MPI_Op op;
	MPI_Datatype pair;

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Op_create(affine, 0, &op);
	MPI_Type_contiguous(2, MPI_INT, &pair);
	MPI_Type_commit(&pair);
	reduce_scatters(op, pair);
	alltoallw();
	local(op, pair);
	MPI_Type_free(&pair);
	MPI_Op_free(&op);
	MPI_Finalize();
	return 0;
}
