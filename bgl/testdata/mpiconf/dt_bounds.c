/* dt_bounds: the lower and upper bounds of types built on resized types (a moved lower
 * bound, a negative extent) and of negative strides and displacements, through
 * contiguous, vector, hvector, indexed, hindexed, indexed_block and struct, as MPICH
 * computes them; then data through a ring in such types. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static int rank, size;

/* say prints one whole line with one write: MPICH leaves a rank's stdout unbuffered, and
 * mpiexec -l labels each write, so a line printed in pieces would come out split. */
static void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fputs(line, stdout);
}

static void describe(const char *name, MPI_Datatype t)
{
	MPI_Aint lb, ext, tlb, text;
	int sz;

	MPI_Type_size(t, &sz);
	MPI_Type_get_extent(t, &lb, &ext);
	MPI_Type_get_true_extent(t, &tlb, &text);
	say("rank %d: %s: size %d lb %ld extent %ld true lb %ld true extent %ld\n", rank, name, sz, (long)lb,
		(long)ext, (long)tlb, (long)text);
}

/* ring sends count elements of t from a buffer of ints numbered by rank and receives as
 * many from the left into a buffer of -1s, printing the received buffer. */
static void ring(const char *name, MPI_Datatype t, int count, int at)
{
	int send[64], recv[64], i, len;
	char line[512];

	for (i = 0; i < 64; i++) {
		send[i] = rank * 100 + i;
		recv[i] = -1;
	}
	MPI_Type_commit(&t);
	MPI_Sendrecv(send + at, count, t, (rank + 1) % size, 0, recv + at, count, t, (rank + size - 1) % size, 0,
		MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	len = snprintf(line, sizeof line, "rank %d: %s data:", rank, name);
	for (i = 0; i < 40; i++)
		len += snprintf(line + len, sizeof line - len, " %d", recv[i]);
	say("%s\n", line);
}

int main(int argc, char **argv)
{
	MPI_Datatype four, moved, neg, t;
	int bl[3] = {1, 2, 1}, disp[3] = {2, -1, 4};
	MPI_Aint hdisp[3] = {8, -4, 20};
	MPI_Datatype types[3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* four ints at 0..16, bounds moved to [-8, 24) and reversed to extent -20 */
	MPI_Type_contiguous(4, MPI_INT, &four);
	MPI_Type_create_resized(four, -8, 32, &moved);
	MPI_Type_create_resized(four, 12, -20, &neg);
	describe("moved", moved);
	describe("neg", neg);

	MPI_Type_contiguous(3, moved, &t);
	describe("contiguous 3 moved", t);
	MPI_Type_free(&t);
	MPI_Type_contiguous(3, neg, &t);
	describe("contiguous 3 neg", t);
	MPI_Type_free(&t);
	MPI_Type_vector(3, 2, 3, moved, &t);
	describe("vector 3x2/3 moved", t);
	MPI_Type_free(&t);
	MPI_Type_vector(3, 2, -3, moved, &t);
	describe("vector 3x2/-3 moved", t);
	MPI_Type_free(&t);
	MPI_Type_vector(3, 2, 3, neg, &t);
	describe("vector 3x2/3 neg", t);
	MPI_Type_free(&t);
	MPI_Type_vector(3, 2, -3, neg, &t);
	describe("vector 3x2/-3 neg", t);
	MPI_Type_free(&t);
	MPI_Type_create_hvector(2, 3, -40, moved, &t);
	describe("hvector 2x3/-40 moved", t);
	MPI_Type_free(&t);
	MPI_Type_indexed(3, bl, disp, moved, &t);
	describe("indexed moved", t);
	MPI_Type_free(&t);
	MPI_Type_indexed(3, bl, disp, neg, &t);
	describe("indexed neg", t);
	MPI_Type_free(&t);
	MPI_Type_create_hindexed(3, bl, hdisp, moved, &t);
	describe("hindexed moved", t);
	MPI_Type_free(&t);
	MPI_Type_create_indexed_block(3, 2, disp, neg, &t);
	describe("indexed_block neg", t);
	MPI_Type_free(&t);
	types[0] = moved;
	types[1] = MPI_INT;
	types[2] = neg;
	MPI_Type_create_struct(3, bl, hdisp, types, &t);
	describe("struct moved int neg", t);
	MPI_Type_free(&t);

	/* Data: a vector of two ints going backwards, and a contiguous of moved types. */
	MPI_Type_vector(2, 1, -1, MPI_INT, &t);
	describe("vector 2x1/-1 int", t);
	ring("vector 2x1/-1 int", t, 3, 10);
	MPI_Type_free(&t);
	MPI_Type_contiguous(2, moved, &t);
	describe("contiguous 2 moved", t);
	ring("contiguous 2 moved", t, 2, 4);
	MPI_Type_free(&t);
	MPI_Type_vector(2, 1, 2, neg, &t);
	describe("vector 2x1/2 neg", t);
	ring("vector 2x1/2 neg", t, 2, 20);
	MPI_Type_free(&t);

	MPI_Type_free(&moved);
	MPI_Type_free(&neg);
	MPI_Type_free(&four);
	MPI_Finalize();
	return 0;
}
