/* create_group: MPI_Comm_create_group made by its members only while the other ranks make
 * communicators of their own, so the handles printed show the order the engine numbers
 * them in: the even ranks' group while the odd ranks duplicate theirs, the two halves of
 * the world at once under one tag, a group of a split communicator in reverse order, and
 * the same (communicator, group, tag) twice. The ranks reach the later calls at times
 * skewed by their rank, so some members ask for a hidden communicator another member
 * asked for long before. Each new communicator passes a message round its ring and reduces the
 * world ranks. Simulated only (the handles are the engine's): TestShardedCommCreateGroup
 * runs it over shards against one process. */
#include <mpi.h>
#include <stdio.h>

static int rank, size;

/* spin burns time. */
static void spin(int n)
{
	volatile int x = 0;
	int i;

	for (i = 0; i < n; i++)
		x += i;
}

/* skew burns time proportional to the rank, so the ranks call at different times. */
static void skew(int scale)
{
	spin(rank * scale);
}

static void report(const char *name, MPI_Comm c)
{
	int r, s, sum, next, prev, got;

	if (c == MPI_COMM_NULL) {
		printf("rank %d: %s: MPI_COMM_NULL\n", rank, name);
		return;
	}
	MPI_Comm_rank(c, &r);
	MPI_Comm_size(c, &s);
	next = (r + 1) % s;
	prev = (r + s - 1) % s;
	MPI_Sendrecv(&rank, 1, MPI_INT, next, 9, &got, 1, MPI_INT, prev, 9, c, MPI_STATUS_IGNORE);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
	printf("rank %d: %s: handle %d, rank %d of %d, from world rank %d, sum %d\n", rank, name, c, r, s, got, sum);
}

/* group_of makes the group of world ranks lo, lo+step, ... up to hi. */
static MPI_Group group_of(int lo, int hi, int step)
{
	MPI_Group wg, g;
	int range[1][3] = {{lo, hi, step}};

	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_range_incl(wg, 1, range, &g);
	MPI_Group_free(&wg);
	return g;
}

int main(int argc, char **argv)
{
	MPI_Comm half, a, b, c, d, e;
	MPI_Group g, hg, rev;
	int hs, k, range[1][3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);

	/* The even ranks' group while the odd ranks duplicate their half, all at once after
	 * a barrier, the odd ranks later by a step each time: in some of the steps the
	 * first even call and the last odd entry come in the same microsecond, in either
	 * order. */
	g = group_of(0, size - 1, 2);
	for (k = 0; k < 8; k++) {
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank % 2 == 0) {
			MPI_Comm_create_group(MPI_COMM_WORLD, g, 10 + k, &a);
		} else {
			spin(k * 8);
			MPI_Comm_dup(half, &a);
		}
		printf("rank %d: step %d: handle %d\n", rank, k, a);
		MPI_Comm_free(&a);
	}
	if (rank % 2 == 0)
		MPI_Comm_create_group(MPI_COMM_WORLD, g, 1, &a);
	else
		MPI_Comm_dup(half, &a);
	MPI_Group_free(&g);
	report("evens' group or odds' dup", a);

	/* The two halves of the world at once, under one tag. */
	skew(2000);
	g = rank < size / 2 ? group_of(0, size / 2 - 1, 1) : group_of(size / 2, size - 1, 1);
	MPI_Comm_create_group(MPI_COMM_WORLD, g, 2, &b);
	MPI_Group_free(&g);
	report("world halves", b);

	/* A group of half's members in reverse order. */
	MPI_Comm_group(half, &hg);
	MPI_Group_size(hg, &hs);
	range[0][0] = hs - 1;
	range[0][1] = 0;
	range[0][2] = -1;
	MPI_Group_range_incl(hg, 1, range, &rev);
	skew(1000);
	MPI_Comm_create_group(half, rev, 3, &c);
	report("half reversed", c);

	/* The same communicator, group and tag again: a new communicator of the same members. */
	skew(500);
	MPI_Comm_create_group(half, rev, 3, &d);
	report("half reversed again", d);
	MPI_Comm_dup(MPI_COMM_WORLD, &e);
	report("world dup", e);
	MPI_Group_free(&rev);
	MPI_Group_free(&hg);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	MPI_Comm_free(&c);
	MPI_Comm_free(&d);
	MPI_Comm_free(&e);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
