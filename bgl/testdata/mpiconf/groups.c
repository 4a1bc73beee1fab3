/* groups: group set operations (union, intersection, difference, range_incl and
 * range_excl with positive and negative strides) with sizes, ranks, translations and
 * comparisons, and a communicator made from a set-operation group that sums its members'
 * world ranks. */
#include <mpi.h>
#include <stdio.h>

static int rank, size;

static void show(const char *name, MPI_Group g)
{
	MPI_Group world;
	int n, r, i, in[64], out[64], len, cmp;
	char line[1024];

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_size(g, &n);
	MPI_Group_rank(g, &r);
	for (i = 0; i < n && i < 64; i++)
		in[i] = i;
	MPI_Group_translate_ranks(g, n, in, world, out);
	MPI_Group_compare(g, world, &cmp);
	len = snprintf(line, sizeof line, "rank %d: %s: size %d rank %d compare %d world ranks", rank, name, n,
		r == MPI_UNDEFINED ? -1 : r, cmp);
	for (i = 0; i < n && i < 64; i++)
		len += snprintf(line + len, sizeof line - len, " %d", out[i]);
	printf("%s\n", line);
	MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
	static char outbuf[4096];
	MPI_Group world, evens, odds, rev, uni, inter, diff, none, back;
	MPI_Comm sub;
	int even[1][3], rv[1][3], cmp, sum;

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_group(MPI_COMM_WORLD, &world);

	even[0][0] = 0;
	even[0][1] = size - 1;
	even[0][2] = 2;
	MPI_Group_range_incl(world, 1, even, &evens);
	MPI_Group_range_excl(world, 1, even, &odds);
	rv[0][0] = size - 1;
	rv[0][1] = 0;
	rv[0][2] = -3;
	MPI_Group_range_incl(world, 1, rv, &rev);
	MPI_Group_union(odds, rev, &uni);
	MPI_Group_intersection(rev, evens, &inter);
	MPI_Group_difference(world, rev, &diff);
	MPI_Group_difference(evens, world, &none);
	MPI_Group_union(evens, odds, &back);

	show("evens", evens);
	show("odds", odds);
	show("every third, reversed", rev);
	show("odds union reversed", uni);
	show("reversed intersect evens", inter);
	show("world minus reversed", diff);
	show("evens union odds", back);
	MPI_Group_compare(back, world, &cmp);
	printf("rank %d: evens minus world is empty %d; evens union odds vs world %d\n", rank, none == MPI_GROUP_EMPTY, cmp);

	MPI_Comm_create(MPI_COMM_WORLD, uni, &sub);
	if (sub != MPI_COMM_NULL) {
		int r;

		MPI_Comm_rank(sub, &r);
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, sub);
		printf("rank %d: in the union's communicator as %d, world ranks sum to %d\n", rank, r, sum);
		MPI_Comm_free(&sub);
	}

	MPI_Group_free(&evens);
	if (odds != MPI_GROUP_EMPTY)
		MPI_Group_free(&odds);
	MPI_Group_free(&rev);
	MPI_Group_free(&uni);
	MPI_Group_free(&inter);
	if (diff != MPI_GROUP_EMPTY)
		MPI_Group_free(&diff);
	MPI_Group_free(&back);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
