/* dt_large: MPI 4.0's large-count (_c) datatype calls: every constructor with MPI_Count
 * arguments, types of hundreds of millions of bytes (a contiguous run, 256 blocks, a
 * block of a billion), their sizes and extents through the _c queries, and
 * MPI_Pack_c/Unpack_c/Pack_size_c and the external32 forms carrying data. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

/* say prints one whole line with one write (see dt_short.c). */
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fputs(line, stdout);
}

static void describe(const char *name, MPI_Datatype t)
{
	MPI_Count sz, lb, ext, tlb, text;

	MPI_Type_size_c(t, &sz);
	MPI_Type_get_extent_c(t, &lb, &ext);
	MPI_Type_get_true_extent_c(t, &tlb, &text);
	say("rank %d: %s: size %lld lb %lld extent %lld true %lld %lld\n", rank, name, (long long)sz, (long long)lb,
		(long long)ext, (long long)tlb, (long long)text);
}

static void huge(void)
{
	MPI_Count displs[256], blks[4] = {0, 1, 2, 1000000000}, hdispls[4] = {0, 0, 1, 3};
	MPI_Datatype t;
	int i;

	MPI_Type_contiguous_c(600000000, MPI_CHAR, &t);
	MPI_Type_commit(&t);
	describe("contiguous_c 600000000 chars", t);
	MPI_Type_free(&t);
	for (i = 0; i < 256; i++)
		displs[i] = (MPI_Count)i * 800000;
	MPI_Type_create_indexed_block_c(256, 800000, displs, MPI_INT, &t);
	MPI_Type_commit(&t);
	describe("indexed_block_c 256 x 800000 ints", t);
	MPI_Type_free(&t);
	MPI_Type_create_hindexed_c(4, blks, hdispls, MPI_CHAR, &t);
	MPI_Type_commit(&t);
	describe("hindexed_c up to a billion chars", t);
	MPI_Type_free(&t);
}

/* ring sends one t from a buffer numbered by rank to the right and prints what came from
 * the left, after describing t. */
static void ring(const char *name, MPI_Datatype t)
{
	int send[48], recv[48], i, len;
	char line[512];

	MPI_Type_commit(&t);
	describe(name, t);
	for (i = 0; i < 48; i++) {
		send[i] = rank * 100 + i;
		recv[i] = -1;
	}
	MPI_Sendrecv(send + 8, 1, t, (rank + 1) % size, 0, recv + 8, 1, t, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
		MPI_STATUS_IGNORE);
	len = snprintf(line, sizeof line, "rank %d: %s ring:", rank, name);
	for (i = 0; i < 48; i++)
		len += snprintf(line + len, sizeof line - len, " %d", recv[i]);
	say("%s\n", line);
	MPI_Type_free(&t);
}

static void constructors(void)
{
	MPI_Count bl[3] = {2, 1, 3}, d[3] = {5, 0, 9}, hd[3] = {20, 0, 36};
	MPI_Datatype t, types[3] = {MPI_INT, MPI_FLOAT, MPI_INT}, pair;

	MPI_Type_vector_c(3, 2, 4, MPI_INT, &t);
	ring("vector_c 3x2/4", t);
	MPI_Type_create_hvector_c(3, 1, -12, MPI_INT, &t);
	ring("hvector_c 3x1/-12", t);
	MPI_Type_indexed_c(3, bl, d, MPI_INT, &t);
	ring("indexed_c", t);
	MPI_Type_create_hindexed_c(3, bl, hd, MPI_INT, &t);
	ring("hindexed_c", t);
	MPI_Type_create_hindexed_block_c(3, 2, hd, MPI_INT, &t);
	ring("hindexed_block_c", t);
	MPI_Type_create_struct_c(3, bl, hd, types, &t);
	ring("struct_c", t);
	MPI_Type_contiguous_c(2, MPI_INT, &pair);
	MPI_Type_create_resized_c(pair, -4, 16, &t);
	ring("resized_c", t);
	MPI_Type_free(&pair);
}

static void packing(void)
{
	MPI_Count bl[2] = {1, 2}, d[2] = {3, 0}, psize, pos = 0, upos = 0, esize, epos = 0, eupos = 0;
	MPI_Datatype t;
	int in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	unsigned char buf[64], ebuf[64];

	MPI_Type_indexed_c(2, bl, d, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Pack_size_c(2, t, MPI_COMM_WORLD, &psize);
	MPI_Pack_c(in, 2, t, buf, sizeof buf, &pos, MPI_COMM_WORLD);
	MPI_Unpack_c(buf, pos, &upos, out, 2, t, MPI_COMM_WORLD);
	MPI_Pack_external_size_c("external32", 2, t, &esize);
	MPI_Pack_external_c("external32", in, 2, t, ebuf, sizeof ebuf, &epos);
	say("rank %d: pack_size_c %lld, pack_c to %lld, unpack_c to %lld: %d %d %d %d %d %d %d %d; external32 %lld "
		"to %lld, begins %02x %02x %02x %02x %02x %02x %02x %02x\n", rank, (long long)psize, (long long)pos,
		(long long)upos, out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], (long long)esize,
		(long long)epos, ebuf[0], ebuf[1], ebuf[2], ebuf[3], ebuf[4], ebuf[5], ebuf[6], ebuf[7]);
	memset(out, 0, sizeof out);
	MPI_Unpack_external_c("external32", ebuf, epos, &eupos, out, 2, t);
	say("rank %d: unpack_external_c to %lld: %d %d %d %d %d %d %d %d\n", rank, (long long)eupos, out[0], out[1],
		out[2], out[3], out[4], out[5], out[6], out[7]);
	MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	huge();
	constructors();
	packing();
	MPI_Finalize();
	return 0;
}
