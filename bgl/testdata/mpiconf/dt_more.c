/* dt_more: the C99, C++ and long double datatypes (sizes, extents, in a struct, sent
 * around a ring; sums of the fixed-size integers and of C double complex), the sizes
 * MPI_Type_match_size answers, datatype names (predefined and set on a derived type) and
 * MPI_Type_commit of a predefined type. */
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>
#include <complex.h>

static int rank, size;

static void sizes(void)
{
	static const struct {
		MPI_Datatype t;
		const char *name;
	} types[] = {{MPI_LONG_DOUBLE, "long double"}, {MPI_LONG_DOUBLE_INT, "long double int"},
		{MPI_DOUBLE_INT, "double int"}, {MPI_SHORT_INT, "short int"}, {MPI_2INT, "2int"},
		{MPI_WCHAR, "wchar"}, {MPI_C_BOOL, "C bool"}, {MPI_CXX_BOOL, "C++ bool"}, {MPI_INT8_T, "int8"},
		{MPI_INT16_T, "int16"}, {MPI_INT32_T, "int32"}, {MPI_INT64_T, "int64"}, {MPI_UINT8_T, "uint8"},
		{MPI_UINT16_T, "uint16"}, {MPI_UINT32_T, "uint32"}, {MPI_UINT64_T, "uint64"},
		{MPI_C_FLOAT_COMPLEX, "C float complex"}, {MPI_C_DOUBLE_COMPLEX, "C double complex"},
		{MPI_C_LONG_DOUBLE_COMPLEX, "C long double complex"}, {MPI_CXX_FLOAT_COMPLEX, "C++ float complex"},
		{MPI_CXX_DOUBLE_COMPLEX, "C++ double complex"}, {MPI_CXX_LONG_DOUBLE_COMPLEX, "C++ long double complex"}};
	static const int classes[][2] = {{MPI_TYPECLASS_REAL, 4}, {MPI_TYPECLASS_REAL, 8}, {MPI_TYPECLASS_REAL, 16},
		{MPI_TYPECLASS_INTEGER, 1}, {MPI_TYPECLASS_INTEGER, 2}, {MPI_TYPECLASS_INTEGER, 4},
		{MPI_TYPECLASS_INTEGER, 8}, {MPI_TYPECLASS_COMPLEX, 8}, {MPI_TYPECLASS_COMPLEX, 16}};
	unsigned i;
	int sz;
	MPI_Aint lb, ext;
	MPI_Datatype t;

	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		MPI_Type_size(types[i].t, &sz);
		MPI_Type_get_extent(types[i].t, &lb, &ext);
		printf("%s: size %d lb %ld extent %ld\n", types[i].name, sz, (long)lb, (long)ext);
	}
	for (i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		MPI_Type_match_size(classes[i][0], classes[i][1], &t);
		MPI_Type_size(t, &sz);
		printf("match class %d size %d: a type of size %d\n", classes[i][0], classes[i][1], sz);
	}
}

static void names(void)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len;
	MPI_Datatype v, predefined = MPI_INT;

	MPI_Type_get_name(MPI_INT, name, &len);
	printf("name of MPI_INT: %s (%d)\n", name, len);
	MPI_Type_get_name(MPI_DOUBLE, name, &len);
	printf("name of MPI_DOUBLE: %s (%d)\n", name, len);
	MPI_Type_vector(2, 1, 2, MPI_INT, &v);
	MPI_Type_get_name(v, name, &len);
	printf("name of a new vector: '%s' (%d)\n", name, len);
	MPI_Type_set_name(v, "my vector");
	MPI_Type_get_name(v, name, &len);
	printf("name set: '%s' (%d)\n", name, len);
	MPI_Type_free(&v);
	MPI_Type_commit(&predefined);
	printf("committed MPI_INT is still MPI_INT: %d\n", predefined == MPI_INT);
}

/* zero_blocks: empty blocks do not bound a type, and types with only empty blocks (or
 * zero counts) can be built, used and freed. */
static void zero_blocks(void)
{
	int len[3] = {0, 1, 1}, disp[3] = {0, 1, 4}, zeros[2] = {0, 0}, data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[2], size;
	MPI_Aint lb, ext, adisp[2] = {0, 8};
	MPI_Datatype idx, empty, st, types[2] = {MPI_INT, MPI_DOUBLE};

	MPI_Type_indexed(3, len, disp, MPI_INT, &idx);
	MPI_Type_get_extent(idx, &lb, &ext);
	printf("indexed with an empty first block: lb %ld extent %ld\n", (long)lb, (long)ext);
	MPI_Type_create_hindexed(2, zeros, adisp, MPI_INT, &empty);
	MPI_Type_create_struct(2, zeros, adisp, types, &st);
	MPI_Type_commit(&empty);
	MPI_Type_commit(&st);
	MPI_Type_size(empty, &size);
	printf("hindexed of empty blocks: size %d\n", size);
	MPI_Type_size(st, &size);
	printf("struct of empty blocks: size %d\n", size);
	MPI_Type_commit(&idx);
	MPI_Sendrecv(data, 1, idx, 0, 3, got, 2, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
	printf("indexed sent to self: %d %d\n", got[0], got[1]);
	MPI_Type_free(&idx);
	MPI_Type_free(&empty);
	MPI_Type_free(&st);
}

/* external32: packed bytes of a vector of ints and a double, their size and the round trip. */
static void external32(void)
{
	int v[6] = {0x01020304, 5, -6, 7, 0x7f000001, 9}, back[6] = {0}, i;
	double d = -2.5, e = 0;
	unsigned char buf[64];
	MPI_Aint pos = 0, size, upos = 0;
	MPI_Datatype vec;
	char line[256];
	int len;

	MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	MPI_Pack_external_size("external32", 1, vec, &size);
	MPI_Pack_external("external32", v, 1, vec, buf, sizeof buf, &pos);
	MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, buf, sizeof buf, &pos);
	len = snprintf(line, sizeof line, "external32: size %ld, %ld bytes:", (long)size, (long)pos);
	for (i = 0; i < pos; i++)
		len += snprintf(line + len, sizeof line - len, " %02x", buf[i]);
	printf("%s\n", line);
	MPI_Unpack_external("external32", buf, pos, &upos, back, 1, vec);
	MPI_Unpack_external("external32", buf, pos, &upos, &e, 1, MPI_DOUBLE);
	printf("external32 back: %d %d %d %d %d %d %g\n", back[0], back[1], back[2], back[3], back[4], back[5], e);
	MPI_Type_free(&vec);
}

/* struct_extents: C structs {char; T} built with MPI_Type_create_struct have the extent
 * the C compiler gives them. */
static void struct_extents(void)
{
	static const MPI_Datatype ts[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX, MPI_LONG_DOUBLE, MPI_INT64_T};
	struct {
		char c;
		float complex z;
	} a;
	struct {
		char c;
		long double l;
	} b;
	unsigned i;

	for (i = 0; i < sizeof ts / sizeof ts[0]; i++) {
		int len[2] = {1, 1};
		MPI_Aint disp[2] = {0, 0}, lb, ext;
		MPI_Datatype t[2] = {MPI_CHAR, ts[i]}, st;

		MPI_Type_get_extent(ts[i], &lb, &ext);
		disp[1] = ext >= 16 ? 16 : ext >= 8 && ts[i] != MPI_C_FLOAT_COMPLEX ? 8 : 4;
		MPI_Type_create_struct(2, len, disp, t, &st);
		MPI_Type_get_extent(st, &lb, &ext);
		printf("struct {char; type %u}: extent %ld\n", i, (long)ext);
		MPI_Type_free(&st);
	}
	printf("C: {char; float complex} %d, {char; long double} %d\n", (int)sizeof a, (int)sizeof b);
}

static void traffic(void)
{
	long double ld[2] = {1.5L + rank, -0.25L * rank}, ldin[2];
	struct {
		long double v;
		int i;
	} pair = {2.5L * rank, rank}, pairin;
	int64_t s64 = -((int64_t)1 << 40) * (rank + 1), t64;
	uint64_t u64 = ((uint64_t)1 << 63) / 8 + rank, v64;
	int8_t s8 = (int8_t)(-3 * rank), t8;
	double complex z = (1.0 + rank) + (0.5 * rank) * I, zs;
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;

	MPI_Sendrecv(ld, 2, MPI_LONG_DOUBLE, next, 1, ldin, 2, MPI_LONG_DOUBLE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&pair, 1, MPI_LONG_DOUBLE_INT, next, 2, &pairin, 1, MPI_LONG_DOUBLE_INT, prev, 2, MPI_COMM_WORLD,
		MPI_STATUS_IGNORE);
	printf("rank %d: long doubles from %d: %.3Lf %.3Lf; pair %.3Lf %d\n", rank, prev, ldin[0], ldin[1], pairin.v,
		pairin.i);
	MPI_Allreduce(&s64, &t64, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&u64, &v64, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(&s8, &t8, 1, MPI_INT8_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(&z, &zs, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
	printf("rank %d: int64 sum %lld uint64 max %llu int8 min %d complex sum %.2f%+.2fi\n", rank, (long long)t64,
		(unsigned long long)v64, t8, creal(zs), cimag(zs));
}

int main(int argc, char **argv)
{
	static char outbuf[8192];

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		sizes();
		names();
		zero_blocks();
		external32();
		struct_extents();
	}
	traffic();
	MPI_Finalize();
	return 0;
}
