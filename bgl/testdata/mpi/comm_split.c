/* comm_split: communicators and groups. MPI_Comm_split by colour (rank mod 3) and key
 * (descending world rank), with a colour MPI_UNDEFINED for rank 5; collectives and a ring
 * of point-to-point messages inside each part, with MPI_ANY_SOURCE statuses in part ranks;
 * messages on MPI_COMM_WORLD and on its duplicate with the same tag never meet;
 * MPI_Comm_compare; MPI_COMM_SELF; groups (incl, excl, translate_ranks, compare) and
 * MPI_Comm_create of the even ranks; MPI_Comm_free. */
#include "corpus.h"

static void split(void)
{
	MPI_Comm part;
	int color = corpus_rank == 5 ? MPI_UNDEFINED : corpus_rank % 3;
	int prank, psize, sum, first, token, next, prev, res;
	MPI_Status st;

	MPI_Comm_split(MPI_COMM_WORLD, color, -corpus_rank, &part);
	if (color == MPI_UNDEFINED) {
		check(part == MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");
		say("split: no part");
		return;
	}
	MPI_Comm_rank(part, &prank);
	MPI_Comm_size(part, &psize);
	MPI_Allreduce(&corpus_rank, &sum, 1, MPI_INT, MPI_SUM, part);
	first = prank == 0 ? corpus_rank : -1;
	MPI_Bcast(&first, 1, MPI_INT, 0, part);
	next = (prank + 1) % psize;
	prev = (prank + psize - 1) % psize;
	token = corpus_rank;
	MPI_Sendrecv_replace(&token, 1, MPI_INT, next, 7, MPI_ANY_SOURCE, 7, part, &st);
	MPI_Comm_compare(part, MPI_COMM_WORLD, &res);
	say("split: colour %d part rank %d of %d, sum %d, part rank 0 is world %d, token %d from part rank %d, compare %d",
		color, prank, psize, sum, first, token, st.MPI_SOURCE, res);
	check(st.MPI_SOURCE == prev, "status source is a part rank");
	MPI_Comm_free(&part);
	check(part == MPI_COMM_NULL, "Comm_free sets MPI_COMM_NULL");
}

/* dup: the same tag on two communicators: each receive takes its own communicator's
 * message, whatever the order they were sent in. */
static void dup(void)
{
	MPI_Comm twin;
	int res, a = -1, b = -1, x, y;

	MPI_Comm_dup(MPI_COMM_WORLD, &twin);
	MPI_Comm_compare(twin, MPI_COMM_WORLD, &res);
	check(res == MPI_CONGRUENT, "a duplicate is congruent");
	MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
	check(res == MPI_IDENT, "a communicator is identical to itself");
	if (corpus_size > 1 && corpus_rank < 2) {
		int peer = 1 - corpus_rank;

		x = 100 + corpus_rank;
		y = 200 + corpus_rank;
		MPI_Send(&x, 1, MPI_INT, peer, 3, twin);
		MPI_Send(&y, 1, MPI_INT, peer, 3, MPI_COMM_WORLD);
		MPI_Recv(&a, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&b, 1, MPI_INT, peer, 3, twin, MPI_STATUS_IGNORE);
		say("dup: world got %d, twin got %d", a, b);
	}
	MPI_Barrier(twin);
	MPI_Comm_free(&twin);
}

static void self(void)
{
	int in = corpus_rank + 1, out = 0, r, s, res;

	MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
	MPI_Comm_rank(MPI_COMM_SELF, &r);
	MPI_Comm_size(MPI_COMM_SELF, &s);
	MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &res);
	check(out == in && r == 0 && s == 1, "MPI_COMM_SELF");
	if (corpus_rank == 0)
		say("self: rank %d of %d, compare with world %d", r, s, res);
}

static void groups(void)
{
	MPI_Group world, even, odd, firsts;
	MPI_Comm evens;
	int *ranks = malloc(sizeof(int) * (corpus_size + 1)), n = 0, i, gsize, grank, res;
	int probe[3] = {0, corpus_size - 1, MPI_PROC_NULL}, out[3];

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	for (i = 0; i < corpus_size; i += 2)
		ranks[n++] = i;
	MPI_Group_incl(world, n, ranks, &even);
	MPI_Group_excl(world, n, ranks, &odd);
	MPI_Group_size(even, &gsize);
	MPI_Group_rank(even, &grank);
	MPI_Group_translate_ranks(world, 3, probe, even, out);
	MPI_Group_compare(world, even, &res);
	if (corpus_rank == 0)
		say("groups: even size %d, translate 0 -> %d, %d -> %d, PROC_NULL -> %s, compare %d",
			gsize, out[0], corpus_size - 1, out[1] == MPI_UNDEFINED ? -1 : out[1], out[2] == MPI_PROC_NULL ? "PROC_NULL" : "?", res);
	ranks[0] = 0;
	MPI_Group_incl(world, 1, ranks, &firsts);
	MPI_Group_compare(firsts, even, &res);
	if (corpus_rank == 0)
		say("groups: {0} vs even: %d", res);
	MPI_Comm_create(MPI_COMM_WORLD, even, &evens);
	if (corpus_rank % 2 == 0) {
		int r, s, sum;

		MPI_Comm_rank(evens, &r);
		MPI_Comm_size(evens, &s);
		MPI_Allreduce(&corpus_rank, &sum, 1, MPI_INT, MPI_SUM, evens);
		check(r == grank, "Comm_create rank is the group rank");
		say("create: rank %d of %d, sum of world ranks %d", r, s, sum);
		MPI_Comm_free(&evens);
	} else {
		check(evens == MPI_COMM_NULL && grank == MPI_UNDEFINED, "not in the group");
	}
	MPI_Group_free(&world);
	MPI_Group_free(&even);
	MPI_Group_free(&odd);
	MPI_Group_free(&firsts);
	check(world == MPI_GROUP_NULL, "Group_free sets MPI_GROUP_NULL");
	free(ranks);
}

int main(int argc, char **argv)
{
	corpus_init(&argc, &argv);
	split();
	dup();
	self();
	groups();
	return corpus_finish("comm_split");
}
