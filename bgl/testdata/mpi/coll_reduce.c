/* coll_reduce: MPI_Reduce (to the first and the last rank) and MPI_Allreduce with every
 * predefined operation on every datatype it is defined for in MPI: SUM, PROD, MIN, MAX on
 * INT, LONG, LONG_LONG, UNSIGNED, FLOAT, DOUBLE; LAND, LOR on the four integer types;
 * BAND, BOR on the integer types and BYTE. (MPI defines no reduction on MPI_CHAR.)
 * Each rank contributes three elements computed from its rank; every rank folds the same
 * values sequentially (the naive twin) and checks the MPI result against it. Values are
 * integers or powers of two, so float results are exact whatever the combining order.
 * Rank 0 prints every Allreduce result. With one rank no operation is applied at all, so a
 * logical reduction returns its input unchanged (7, not 1), as MPICH does. */
#include "corpus.h"

enum { N = 3 };

static const struct {
	const char *name;
	MPI_Op op;
	int logical, bitwise;
} ops[] = {
	{"SUM", MPI_SUM, 0, 0}, {"PROD", MPI_PROD, 0, 0}, {"MIN", MPI_MIN, 0, 0},
	{"MAX", MPI_MAX, 0, 0}, {"LAND", MPI_LAND, 1, 0}, {"LOR", MPI_LOR, 1, 0},
	{"BAND", MPI_BAND, 0, 1}, {"BOR", MPI_BOR, 0, 1},
};

/* gen is rank r's element e for operation k; bits is the width bitwise patterns use and
 * is_unsigned avoids negative values. */
static long long gen(int k, int r, int e, int bits, int is_unsigned)
{
	switch (ops[k].op) {
	case MPI_SUM: return is_unsigned ? r * 3 + e : r * 3 + e - 5;
	case MPI_PROD:
		if (!is_unsigned && e == 2 && r == 1)
			return -1;
		return r % 5 == e ? 2 : 1;
	case MPI_MIN:
	case MPI_MAX: return is_unsigned ? (r * 37 + e * 11) % 101 * 1000 : (r * 37 + e * 11) % 101 - 50;
	case MPI_LAND: return e == 0 ? 7 : e == 1 ? r != 3 : r % 2;
	case MPI_LOR: return e == 0 ? 0 : e == 1 ? 7 * (r == corpus_size - 1) : r == 5;
	case MPI_BAND: return ~(1LL << ((r + e) % bits)) & ((1LL << bits) - 1);
	default: return 1LL << ((r * 3 + e) % bits);
	}
}

#define FOLD(op, a, b)                                                                        \
	((op) == MPI_SUM ? (a) + (b) : (op) == MPI_PROD ? (a) * (b)                              \
	: (op) == MPI_MIN ? ((a) < (b) ? (a) : (b)) : (op) == MPI_MAX ? ((a) > (b) ? (a) : (b)) \
	: (op) == MPI_LAND ? (a) && (b) : (op) == MPI_LOR ? (a) || (b)                          \
	: (op) == MPI_BAND ? BAND_(a, b) : BOR_(a, b))

/* RUN defines run_T(k): reduce with operation k on type T and check against the fold. */
#define RUN(T, ctype, mpitype, bits, is_unsigned, is_float, pfmt, pcast)                      \
	static void run_##T(int k)                                                               \
	{                                                                                        \
		ctype in[N], all[N], at0[N], atlast[N], want[N];                                     \
		int e, r, last = corpus_size - 1;                                                    \
		char line[256];                                                                      \
		size_t len;                                                                          \
		if ((is_float && (ops[k].logical || ops[k].bitwise)))                                \
			return;                                                                          \
		for (e = 0; e < N; e++) {                                                            \
			in[e] = (ctype)gen(k, corpus_rank, e, bits, is_unsigned);                        \
			want[e] = (ctype)gen(k, 0, e, bits, is_unsigned);                                \
			for (r = 1; r < corpus_size; r++)                                                \
				want[e] = (ctype)FOLD(ops[k].op, want[e],                                    \
					(ctype)gen(k, r, e, bits, is_unsigned));                                 \
		}                                                                                    \
		MPI_Allreduce(in, all, N, mpitype, ops[k].op, MPI_COMM_WORLD);                       \
		MPI_Reduce(in, at0, N, mpitype, ops[k].op, 0, MPI_COMM_WORLD);                       \
		MPI_Reduce(in, atlast, N, mpitype, ops[k].op, last, MPI_COMM_WORLD);                 \
		for (e = 0; e < N; e++) {                                                            \
			check(all[e] == want[e], "Allreduce " #T);                                       \
			if (corpus_rank == 0)                                                            \
				check(at0[e] == want[e], "Reduce to rank 0 " #T);                            \
			if (corpus_rank == last)                                                         \
				check(atlast[e] == want[e], "Reduce to the last rank " #T);                  \
		}                                                                                    \
		if (corpus_rank != 0)                                                                \
			return;                                                                          \
		len = (size_t)snprintf(line, sizeof line, "%s %s:", ops[k].name, #T);                \
		for (e = 0; e < N; e++)                                                              \
			len += (size_t)snprintf(line + len, sizeof line - len, " " pfmt, pcast all[e]);  \
		say("%s", line);                                                                     \
	}

#define BAND_(a, b) ((a) & (b))
#define BOR_(a, b) ((a) | (b))
RUN(INT, int, MPI_INT, 31, 0, 0, "%d", (int))
RUN(LONG, long, MPI_LONG, 31, 0, 0, "%ld", (long))
RUN(LONG_LONG, long long, MPI_LONG_LONG, 31, 0, 0, "%lld", (long long))
RUN(UNSIGNED, unsigned, MPI_UNSIGNED, 32, 1, 0, "%u", (unsigned))
RUN(BYTE, unsigned char, MPI_BYTE, 8, 1, 0, "%u", (unsigned))
#undef BAND_
#undef BOR_
/* Floats take no bitwise operation; these make the shared fold compile. */
#define BAND_(a, b) 0
#define BOR_(a, b) 0
RUN(FLOAT, float, MPI_FLOAT, 31, 0, 1, "%g", (double))
RUN(DOUBLE, double, MPI_DOUBLE, 31, 0, 1, "%g", (double))

int main(int argc, char **argv)
{
	int k;

	corpus_init(&argc, &argv);
	for (k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++) {
		run_INT(k);
		run_LONG(k);
		run_LONG_LONG(k);
		run_UNSIGNED(k);
		run_FLOAT(k);
		run_DOUBLE(k);
		if (ops[k].bitwise)
			run_BYTE(k);
	}
	return corpus_finish("coll_reduce");
}
