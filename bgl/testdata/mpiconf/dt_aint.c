/* dt_aint: MPI_AINT, MPI_OFFSET and MPI_COUNT are datatypes of their own (not MPI_LONG
 * or MPI_LONG_LONG under another name): their names, external32's 8-byte form of each
 * (sign-extended from this machine's 4-byte MPI_Aint), and sums and a ring in them. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

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

static void names(void)
{
	MPI_Datatype t[3] = {MPI_AINT, MPI_OFFSET, MPI_COUNT};
	char name[MPI_MAX_OBJECT_NAME];
	int i, len;

	for (i = 0; i < 3; i++) {
		MPI_Type_get_name(t[i], name, &len);
		say("rank %d: %s (%d), MPI_LONG %s, MPI_LONG_LONG %s\n", rank, name, len, t[i] == MPI_LONG ? "too" : "not",
			t[i] == MPI_LONG_LONG ? "too" : "not");
	}
}

static void external32(void)
{
	MPI_Aint in[3] = {1, -2, 70000 + rank}, out[3] = {0, 0, 0}, size32, pos = 0, upos = 0;
	unsigned char buf[64];
	char line[256];
	int i, len;

	MPI_Pack_external_size("external32", 3, MPI_AINT, &size32);
	MPI_Pack_external("external32", in, 3, MPI_AINT, buf, sizeof buf, &pos);
	len = snprintf(line, sizeof line, "rank %d: MPI_AINT external32 size %ld position %ld:", rank, (long)size32, (long)pos);
	for (i = 0; i < pos; i++)
		len += snprintf(line + len, sizeof line - len, " %02x", buf[i]);
	say("%s\n", line);
	MPI_Unpack_external("external32", buf, pos, &upos, out, 3, MPI_AINT);
	say("rank %d: back %ld %ld %ld, position %ld\n", rank, (long)out[0], (long)out[1], (long)out[2], (long)upos);
}

static void arithmetic(void)
{
	MPI_Aint a = rank + 1, asum = 0, got = -1;
	MPI_Offset o = 3000000000LL * (rank + 1), osum = 0;
	MPI_Count c = -(MPI_Count)rank, cmin = 0;

	MPI_Allreduce(&a, &asum, 1, MPI_AINT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&o, &osum, 1, MPI_OFFSET, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&c, &cmin, 1, MPI_COUNT, MPI_MIN, MPI_COMM_WORLD);
	MPI_Sendrecv(&a, 1, MPI_AINT, (rank + 1) % size, 0, &got, 1, MPI_AINT, (rank + size - 1) % size, 0,
		MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	say("rank %d: sum of MPI_AINT %ld, of MPI_OFFSET %lld, min of MPI_COUNT %lld, from the left %ld\n", rank,
		(long)asum, (long long)osum, (long long)cmin, (long)got);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	names();
	external32();
	arithmetic();
	MPI_Finalize();
	return 0;
}
