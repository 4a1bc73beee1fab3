/* sendrecv_ring: MPI_Sendrecv around the ring in both directions, for every datatype.
 * Each rank's value travels size steps right (and size steps left), and every rank sums
 * what passes by, so each ends with the sum over all ranks and its own value back. */
#include "corpus.h"
#include <stddef.h>

struct types {
	char c;
	int i;
	long l;
	long long ll;
	unsigned u;
	float f;
	double d;
	unsigned char b;
};

static const struct {
	const char *name;
	MPI_Datatype type;
	size_t off, size;
} fields[] = {
#define FIELD(name, type, f) {name, type, offsetof(struct types, f), sizeof(((struct types *)0)->f)}
	FIELD("CHAR", MPI_CHAR, c),
	FIELD("INT", MPI_INT, i),
	FIELD("LONG", MPI_LONG, l),
	FIELD("LONG_LONG", MPI_LONG_LONG, ll),
	FIELD("UNSIGNED", MPI_UNSIGNED, u),
	FIELD("FLOAT", MPI_FLOAT, f),
	FIELD("DOUBLE", MPI_DOUBLE, d),
	FIELD("BYTE", MPI_BYTE, b),
#undef FIELD
};

static void set(struct types *t, int r)
{
	t->c = (char)('A' + r % 26);
	t->i = r * 3 - 7;
	t->l = 100000L * r;
	t->ll = 10000000000LL * r + 1;
	t->u = 3000000000u + (unsigned)r;
	t->f = 0.25f * r;
	t->d = 1.5 * r;
	t->b = (unsigned char)(r * 7);
}

static double value(const struct types *t, int k)
{
	switch (k) {
	case 0: return t->c;
	case 1: return t->i;
	case 2: return (double)t->l;
	case 3: return (double)t->ll;
	case 4: return t->u;
	case 5: return t->f;
	case 6: return t->d;
	default: return t->b;
	}
}

int main(int argc, char **argv)
{
	struct types cur, in, mine;
	int right, left, k, step, dir;
	double total[8];

	corpus_init(&argc, &argv);
	right = (corpus_rank + 1) % corpus_size;
	left = (corpus_rank + corpus_size - 1) % corpus_size;
	set(&mine, corpus_rank);
	for (dir = 0; dir < 2; dir++) {
		int to = dir == 0 ? right : left, from = dir == 0 ? left : right;
		cur = mine;
		for (k = 0; k < 8; k++)
			total[k] = 0;
		for (step = 0; step < corpus_size; step++)
			for (k = 0; k < 8; k++) {
				char *src = (char *)&cur + fields[k].off, *dst = (char *)&in + fields[k].off;
				MPI_Sendrecv(src, 1, fields[k].type, to, 20 + k, dst, 1, fields[k].type, from,
					20 + k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				memcpy(src, dst, fields[k].size);
				total[k] += value(&cur, k);
			}
		for (k = 0; k < 8; k++)
			check(value(&cur, k) == value(&mine, k), "own value back after a full lap");
		if (corpus_rank == corpus_size - 1)
			for (k = 0; k < 8; k++)
				say("%s lap: %s sum %.2f", dir == 0 ? "right" : "left", fields[k].name,
					total[k]);
	}
	return corpus_finish("sendrecv_ring");
}
