/* types: derived datatypes and operations. A column of a row-major matrix as an
 * MPI_Type_vector, an MPI_Type_indexed lower triangle, an MPI_Type_create_struct of
 * {int, double, char[3]} sent as an array (its extent padded as the C struct's), an
 * MPI_Type_contiguous broadcast; sizes and extents; MPI_MINLOC and MPI_MAXLOC on every
 * pair type with ties (equal values: the lowest index wins); LXOR and BXOR; and a
 * non-commutative user operation (2x2 integer matrix product) in Allreduce, Reduce and
 * Scan, whose result depends on the rank order. */
#include <stddef.h>
#include "corpus.h"

enum { N = 4 };

struct rec {
	int id;
	double w;
	char tag[3];
};

static void vector_indexed(void)
{
	double m[N][N], col[N];
	int peer = corpus_size - 1 - corpus_rank, i, j, bl[N], dl[N], size;
	MPI_Datatype column, lower;
	MPI_Aint lb, ext;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			m[i][j] = corpus_rank * 100 + i * 10 + j;
	MPI_Type_vector(N, 1, N, MPI_DOUBLE, &column);
	MPI_Type_commit(&column);
	MPI_Type_size(column, &size);
	MPI_Type_get_extent(column, &lb, &ext);
	/* Send column 2 of my matrix; receive the peer's as a contiguous array. */
	MPI_Sendrecv(&m[0][2], 1, column, peer, 0, col, N, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	say("vector: size %d extent %ld, peer column %.0f %.0f %.0f %.0f", size, (long)ext, col[0], col[1], col[2], col[3]);
	for (i = 0; i < N; i++) {
		bl[i] = i + 1;
		dl[i] = i * N;
	}
	MPI_Type_indexed(N, bl, dl, MPI_DOUBLE, &lower);
	MPI_Type_commit(&lower);
	MPI_Type_size(lower, &size);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			m[i][j] = corpus_rank == 0 ? i * 10 + j : -1;
	MPI_Bcast(m, 1, lower, 0, MPI_COMM_WORLD);
	say("indexed: size %d, m[3][0..3] %.0f %.0f %.0f %.0f, m[0][1] %.0f", size, m[3][0], m[3][1], m[3][2], m[3][3], m[0][1]);
	MPI_Type_free(&column);
	MPI_Type_free(&lower);
	check(column == MPI_DATATYPE_NULL, "Type_free sets MPI_DATATYPE_NULL");
}

static void structs(void)
{
	struct rec out[3], in[3];
	int bl[3] = {1, 1, 3}, i, size, n, peer = (corpus_rank + 1) % corpus_size;
	int from = (corpus_rank + corpus_size - 1) % corpus_size;
	MPI_Aint d[3] = {offsetof(struct rec, id), offsetof(struct rec, w), offsetof(struct rec, tag)}, lb, ext;
	MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, rt, three;
	MPI_Status st;

	{
		struct rec probe = {0};
		MPI_Aint base, at;

		MPI_Get_address(&probe, &base);
		MPI_Get_address(&probe.w, &at);
		check(at - base == d[1], "Get_address differences are offsets");
	}
	MPI_Type_create_struct(3, bl, d, types, &rt);
	MPI_Type_commit(&rt);
	MPI_Type_size(rt, &size);
	MPI_Type_get_extent(rt, &lb, &ext);
	for (i = 0; i < 3; i++) {
		out[i].id = corpus_rank * 10 + i;
		out[i].w = corpus_rank + i * 0.25;
		memcpy(out[i].tag, "abc", 3);
		out[i].tag[2] = (char)('a' + (corpus_rank + i) % 26);
	}
	memset(in, 0, sizeof in);
	MPI_Sendrecv(out, 3, rt, peer, 4, in, 3, rt, from, 4, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, rt, &n);
	say("struct: size %d extent %ld (sizeof %d), got %d: %d %.2f %.3s / %d %.2f %.3s", size, (long)ext,
		(int)sizeof(struct rec), n, in[0].id, in[0].w, in[0].tag, in[2].id, in[2].w, in[2].tag);
	MPI_Type_contiguous(3, rt, &three);
	MPI_Type_commit(&three);
	if (corpus_rank != 0)
		memset(out, 0, sizeof out);
	MPI_Bcast(out, 1, three, 0, MPI_COMM_WORLD);
	check(out[2].id == 2 && out[1].w == 0.25, "contiguous of structs");
	MPI_Type_free(&three);
	MPI_Type_free(&rt);
}

/* Pairs: values repeat every 3 ranks, so several ranks tie and the lowest index wins. */
static void minmaxloc(void)
{
	struct { double v; int i; } d = {(double)(corpus_rank % 3), corpus_rank}, dmin, dmax;
	struct { float v; int i; } f = {(float)(-(corpus_rank % 3)), corpus_rank}, fmin, fmax;
	struct { long v; int i; } l = {(corpus_rank * 7) % 5, corpus_rank * 2}, lmin, lmax;
	struct { int v; int i; } t[2] = {{corpus_rank % 2, corpus_rank}, {5, 100 - corpus_rank}}, tmin[2], tmax[2];
	struct { short v; int i; } s = {(short)(corpus_rank % 4), corpus_rank}, smax;

	MPI_Allreduce(&d, &dmin, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
	MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
	MPI_Allreduce(&f, &fmin, 1, MPI_FLOAT_INT, MPI_MINLOC, MPI_COMM_WORLD);
	MPI_Allreduce(&f, &fmax, 1, MPI_FLOAT_INT, MPI_MAXLOC, MPI_COMM_WORLD);
	MPI_Reduce(&l, &lmin, 1, MPI_LONG_INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
	MPI_Reduce(&l, &lmax, 1, MPI_LONG_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD);
	MPI_Allreduce(t, tmin, 2, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
	MPI_Allreduce(t, tmax, 2, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
	MPI_Allreduce(&s, &smax, 1, MPI_SHORT_INT, MPI_MAXLOC, MPI_COMM_WORLD);
	if (corpus_rank != 0)
		return;
	say("loc: double min %.0f@%d max %.0f@%d; float min %.0f@%d max %.0f@%d", dmin.v, dmin.i, dmax.v, dmax.i,
		fmin.v, fmin.i, fmax.v, fmax.i);
	say("loc: long min %ld@%d max %ld@%d; 2int min %d@%d %d@%d max %d@%d %d@%d; short max %d@%d", lmin.v, lmin.i,
		lmax.v, lmax.i, tmin[0].v, tmin[0].i, tmin[1].v, tmin[1].i, tmax[0].v, tmax[0].i, tmax[1].v, tmax[1].i,
		smax.v, smax.i);
}

static void xors(void)
{
	int in[2] = {corpus_rank % 3 == 0, corpus_rank * 5 + 1}, out[2];
	unsigned char b = (unsigned char)(1 << (corpus_rank % 8)), bx;

	MPI_Allreduce(&in[0], &out[0], 1, MPI_INT, MPI_LXOR, MPI_COMM_WORLD);
	MPI_Allreduce(&in[1], &out[1], 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
	MPI_Allreduce(&b, &bx, 1, MPI_BYTE, MPI_BXOR, MPI_COMM_WORLD);
	if (corpus_rank == 0)
		say("xor: lxor %d bxor %d byte bxor 0x%02x", out[0], out[1], bx);
}

/* matmul is inout = in * inout for 2x2 integer matrices (mod 1000): not commutative. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *a = in, *b = inout, k, c[4];

	(void)type;
	for (k = 0; k < *len; k++, a += 4, b += 4) {
		c[0] = (a[0] * b[0] + a[1] * b[2]) % 1000;
		c[1] = (a[0] * b[1] + a[1] * b[3]) % 1000;
		c[2] = (a[2] * b[0] + a[3] * b[2]) % 1000;
		c[3] = (a[2] * b[1] + a[3] * b[3]) % 1000;
		memcpy(b, c, sizeof c);
	}
}

static void user_op(void)
{
	MPI_Op op;
	MPI_Datatype mat;
	int m[4] = {1, corpus_rank + 1, 0, 1}, all[4], root[4] = {0, 0, 0, 0}, scan[4];

	if (corpus_rank % 2)
		m[2] = 1, m[3] = 2;
	MPI_Op_create(matmul, 0, &op);
	MPI_Type_contiguous(4, MPI_INT, &mat);
	MPI_Type_commit(&mat);
	MPI_Allreduce(m, all, 1, mat, op, MPI_COMM_WORLD);
	MPI_Reduce(m, root, 1, mat, op, corpus_size - 1, MPI_COMM_WORLD);
	MPI_Scan(m, scan, 1, mat, op, MPI_COMM_WORLD);
	say("user op: scan [%d %d; %d %d]", scan[0], scan[1], scan[2], scan[3]);
	if (corpus_rank == corpus_size - 1)
		say("user op: allreduce [%d %d; %d %d], reduce equal %d", all[0], all[1], all[2], all[3],
			memcmp(all, root, sizeof all) == 0);
	MPI_Op_free(&op);
	MPI_Type_free(&mat);
	check(op == MPI_OP_NULL, "Op_free sets MPI_OP_NULL");
}

int main(int argc, char **argv)
{
	corpus_init(&argc, &argv);
	vector_indexed();
	structs();
	minmaxloc();
	xors();
	user_op();
	return corpus_finish("types");
}
