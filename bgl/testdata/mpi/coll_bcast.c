/* coll_bcast: MPI_Bcast of every datatype from the first, a middle and the last rank. The
 * root fills five elements from its rank; every rank checks what arrived, and rank 0 prints
 * it. */
#include "corpus.h"

enum { N = 5 };

static const struct {
	const char *name;
	MPI_Datatype type;
	int size, kind; /* kind: 0 signed, 1 unsigned, 2 floating, 3 char */
} types[] = {
	{"CHAR", MPI_CHAR, sizeof(char), 3},
	{"INT", MPI_INT, sizeof(int), 0},
	{"LONG", MPI_LONG, sizeof(long), 0},
	{"LONG_LONG", MPI_LONG_LONG, sizeof(long long), 0},
	{"UNSIGNED", MPI_UNSIGNED, sizeof(unsigned), 1},
	{"FLOAT", MPI_FLOAT, sizeof(float), 2},
	{"DOUBLE", MPI_DOUBLE, sizeof(double), 2},
	{"BYTE", MPI_BYTE, 1, 1},
};

/* put stores element e of the root's data for type t into buf. */
static void put(int t, void *buf, int e, int root)
{
	long long v = (long long)(root + 1) * 1000003 * (e + 1) - e * 77;

	switch (types[t].type) {
	case MPI_CHAR: ((char *)buf)[e] = (char)('a' + (root + e) % 26); break;
	case MPI_INT: ((int *)buf)[e] = (int)(v % 2000000000); break;
	case MPI_LONG: ((long *)buf)[e] = (long)(-v % 2000000000); break;
	case MPI_LONG_LONG: ((long long *)buf)[e] = v * 1000; break;
	case MPI_UNSIGNED: ((unsigned *)buf)[e] = (unsigned)v * 3u; break;
	case MPI_FLOAT: ((float *)buf)[e] = (float)(root + e) / 8.0f; break;
	case MPI_DOUBLE: ((double *)buf)[e] = (root + e) * 0.1; break;
	default: ((unsigned char *)buf)[e] = (unsigned char)(root * 31 + e); break;
	}
}

static int show(int t, const void *buf, char *out, int room)
{
	int e, n = 0;

	for (e = 0; e < N && n < room; e++) {
		switch (types[t].type) {
		case MPI_CHAR: n += snprintf(out + n, room - n, "%c", ((const char *)buf)[e]); break;
		case MPI_INT: n += snprintf(out + n, room - n, " %d", ((const int *)buf)[e]); break;
		case MPI_LONG: n += snprintf(out + n, room - n, " %ld", ((const long *)buf)[e]); break;
		case MPI_LONG_LONG:
			n += snprintf(out + n, room - n, " %lld", ((const long long *)buf)[e]);
			break;
		case MPI_UNSIGNED:
			n += snprintf(out + n, room - n, " %u", ((const unsigned *)buf)[e]);
			break;
		case MPI_FLOAT: n += snprintf(out + n, room - n, " %g", ((const float *)buf)[e]); break;
		case MPI_DOUBLE:
			n += snprintf(out + n, room - n, " %.17g", ((const double *)buf)[e]);
			break;
		default:
			n += snprintf(out + n, room - n, " %u", ((const unsigned char *)buf)[e]);
			break;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	int roots[3], t, k, e;
	double buf[N], want[N];
	char line[256];

	corpus_init(&argc, &argv);
	roots[0] = 0;
	roots[1] = corpus_size / 2;
	roots[2] = corpus_size - 1;
	for (k = 0; k < 3; k++) {
		if (k > 0 && roots[k] == roots[k - 1])
			continue;
		for (t = 0; t < (int)(sizeof types / sizeof types[0]); t++) {
			memset(buf, 0, sizeof buf);
			memset(want, 0, sizeof want);
			for (e = 0; e < N; e++) {
				put(t, want, e, roots[k]);
				if (corpus_rank == roots[k])
					put(t, buf, e, roots[k]);
			}
			MPI_Bcast(buf, N, types[t].type, roots[k], MPI_COMM_WORLD);
			check(memcmp(buf, want, N * types[t].size) == 0, types[t].name);
			if (corpus_rank == 0) {
				show(t, buf, line, sizeof line);
				say("root %d %s:%s", roots[k], types[t].name, line);
			}
		}
	}
	return corpus_finish("coll_bcast");
}
