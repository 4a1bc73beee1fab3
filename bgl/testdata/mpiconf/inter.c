/* inter: intercommunicators made by MPI_Intercomm_create over MPI_COMM_WORLD (two halves,
 * and rank 0 against the rest), their sizes, remote groups and point-to-point ranks, every
 * collective with MPI_ROOT and MPI_PROC_NULL, MPI_Intercomm_merge with either group high
 * and with a tie, MPI_Comm_dup, _split, _create and _compare of an intercommunicator; then
 * MPI_Comm_create_group, MPI_Comm_split_type and MPI_Comm_idup, and
 * MPI_Comm_remote_size and _group of an intracommunicator. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;

static void say(const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	printf("rank %d: %s\n", rank, line);
}

/* ints prints n ints after a label. */
static void ints(const char *label, const int *v, int n)
{
	char line[2048];
	int len = snprintf(line, sizeof line, "%s:", label), i;

	for (i = 0; i < n; i++)
		len += snprintf(line + len, sizeof line - len, " %d", v[i]);
	say("%s", line);
}

static void show(const char *name, MPI_Comm ic)
{
	int r, s, rs, flag, i, in[64], out[64];
	MPI_Group rg, wg;
	char label[128];

	if (ic == MPI_COMM_NULL) {
		say("%s: MPI_COMM_NULL", name);
		return;
	}
	MPI_Comm_test_inter(ic, &flag);
	MPI_Comm_rank(ic, &r);
	MPI_Comm_size(ic, &s);
	MPI_Comm_remote_size(ic, &rs);
	MPI_Comm_remote_group(ic, &rg);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	for (i = 0; i < rs; i++)
		in[i] = i;
	MPI_Group_translate_ranks(rg, rs, in, wg, out);
	snprintf(label, sizeof label, "%s: inter %d rank %d size %d remote %d, remote world ranks", name, flag, r, s, rs);
	ints(label, out, rs);
	MPI_Group_free(&rg);
	MPI_Group_free(&wg);
}

/* p2p: local rank r sends to remote rank r % rs; each rank receives from its senders in
 * rank order (from MPI_ANY_SOURCE when there is one: the order several arrive in is the
 * host's under MPICH), naming each source. */
static void p2p(const char *name, MPI_Comm ic)
{
	int r, s, rs, j, v;
	MPI_Status st;
	MPI_Request req;

	MPI_Comm_rank(ic, &r);
	MPI_Comm_size(ic, &s);
	MPI_Comm_remote_size(ic, &rs);
	v = 1000 + rank;
	MPI_Isend(&v, 1, MPI_INT, r % rs, 7, ic, &req);
	for (j = r; j < rs; j += s) {
		int got;

		MPI_Recv(&got, 1, MPI_INT, j + s < rs || j > r ? j : MPI_ANY_SOURCE, MPI_ANY_TAG, ic, &st);
		say("%s: p2p got %d from remote rank %d tag %d", name, got, st.MPI_SOURCE, st.MPI_TAG);
	}
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 7, ic);
}

static void colls(const char *name, MPI_Comm ic, int left)
{
	int r, s, rs, i, root, v[64], w[64], counts[64], displs[64], sdispls[64], bdispls[64], rbdispls[64];
	MPI_Datatype types[64];
	char label[128];

	MPI_Comm_rank(ic, &r);
	MPI_Comm_size(ic, &s);
	MPI_Comm_remote_size(ic, &rs);
	for (i = 0; i < 64; i++)
		w[i] = -1;

	/* Bcast from the left group's rank 0, then from the right group's. */
	root = left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	v[0] = left ? 42 + rank : -1;
	MPI_Bcast(v, 1, MPI_INT, root, ic);
	say("%s: bcast from left %d", name, v[0]);
	root = !left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	v[0] = !left ? 77 + rank : -1;
	v[1] = !left ? 78 : -1;
	MPI_Bcast(v, 2, MPI_INT, root, ic);
	say("%s: bcast from right %d %d", name, v[0], v[1]);

	/* Reduce to the right group's rank 0. */
	root = !left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	v[0] = rank + 1;
	v[1] = rank * rank;
	w[0] = w[1] = -1;
	MPI_Reduce(v, w, 2, MPI_INT, MPI_SUM, root, ic);
	say("%s: reduce %d %d", name, w[0], w[1]);

	v[0] = rank * 10 + 1;
	v[1] = -rank;
	MPI_Allreduce(v, w, 2, MPI_INT, MPI_MAX, ic);
	say("%s: allreduce %d %d", name, w[0], w[1]);

	/* Gather to the left group's rank 0. */
	root = left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	v[0] = rank;
	v[1] = rank + 100;
	for (i = 0; i < 64; i++)
		w[i] = -1;
	MPI_Gather(v, 2, MPI_INT, w, 2, MPI_INT, root, ic);
	ints(name, w, 2 * rs);

	/* Gatherv to the right group's rank 0: remote rank i sends i+1 ints. */
	root = !left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	for (i = 0; i < r + 1; i++)
		v[i] = rank * 10 + i;
	for (i = 0; i < rs; i++) {
		counts[i] = i + 1;
		displs[i] = i == 0 ? 1 : displs[i - 1] + counts[i - 1];
	}
	for (i = 0; i < 64; i++)
		w[i] = -1;
	MPI_Gatherv(v, r + 1, MPI_INT, w, counts, displs, MPI_INT, root, ic);
	ints(name, w, 1 + rs * (rs + 1) / 2);

	/* Scatter from the left group's rank 0: two ints for each remote rank. */
	root = left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	for (i = 0; i < 2 * rs; i++)
		v[i] = rank * 100 + i;
	w[0] = w[1] = -1;
	MPI_Scatter(v, 2, MPI_INT, w, 2, MPI_INT, root, ic);
	say("%s: scatter %d %d", name, w[0], w[1]);

	/* Scatterv from the right group's rank 0: remote rank i gets i+1 ints, backwards. */
	root = !left ? (r == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
	for (i = 0; i < 64; i++)
		v[i] = rank * 100 + i;
	for (i = 0; i < rs; i++) {
		counts[i] = i + 1;
		displs[i] = 40 - 2 * (i + 1);
	}
	for (i = 0; i < 64; i++)
		w[i] = -1;
	MPI_Scatterv(v, counts, displs, MPI_INT, w, r + 1, MPI_INT, root, ic);
	ints(name, w, r + 1);

	v[0] = rank;
	MPI_Allgather(v, 1, MPI_INT, w, 1, MPI_INT, ic);
	ints(name, w, rs);

	for (i = 0; i < r + 1; i++)
		v[i] = rank * 10 + i;
	for (i = 0; i < rs; i++) {
		counts[i] = i + 1;
		displs[i] = i == 0 ? 0 : displs[i - 1] + counts[i - 1];
	}
	MPI_Allgatherv(v, r + 1, MPI_INT, w, counts, displs, MPI_INT, ic);
	ints(name, w, rs * (rs + 1) / 2);

	for (i = 0; i < rs; i++)
		v[i] = rank * 100 + i;
	MPI_Alltoall(v, 1, MPI_INT, w, 1, MPI_INT, ic);
	ints(name, w, rs);

	for (i = 0; i < rs; i++) {
		counts[i] = 1;
		sdispls[i] = rs - 1 - i;
		displs[i] = i;
		types[i] = MPI_INT;
		bdispls[i] = (int)sizeof(int) * sdispls[i];
		rbdispls[i] = (int)sizeof(int) * displs[i];
	}
	MPI_Alltoallv(v, counts, sdispls, MPI_INT, w, counts, displs, MPI_INT, ic);
	ints(name, w, rs);
	MPI_Alltoallw(v, counts, bdispls, types, w, counts, rbdispls, types, ic);
	snprintf(label, sizeof label, "%s alltoallw", name);
	ints(label, w, rs);

	MPI_Barrier(ic);
	say("%s: after the barrier", name);
}

static void merge(const char *name, MPI_Comm ic, int left)
{
	MPI_Comm m;
	int mr, ms, sum;

	MPI_Intercomm_merge(ic, !left, &m);
	MPI_Comm_rank(m, &mr);
	MPI_Comm_size(m, &ms);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, m);
	say("%s: merged left low: rank %d of %d, sum %d", name, mr, ms, sum);
	MPI_Comm_free(&m);
	MPI_Intercomm_merge(ic, left, &m);
	MPI_Comm_rank(m, &mr);
	say("%s: merged left high: rank %d", name, mr);
	MPI_Comm_free(&m);
	MPI_Intercomm_merge(ic, 1, &m);
	MPI_Comm_rank(m, &mr);
	say("%s: merged tie: rank %d", name, mr);
	MPI_Comm_free(&m);
}

static void constructors(const char *name, MPI_Comm ic)
{
	MPI_Comm d, sp, cr;
	MPI_Group g, sub;
	int r, s, cmp, ex = 0;
	char label[128];

	MPI_Comm_rank(ic, &r);
	MPI_Comm_size(ic, &s);
	MPI_Comm_dup(ic, &d);
	MPI_Comm_compare(ic, d, &cmp);
	snprintf(label, sizeof label, "%s dup (compare %d)", name, cmp);
	show(label, d);
	p2p(label, d);

	MPI_Comm_split(ic, r % 2, -r, &sp);
	snprintf(label, sizeof label, "%s split", name);
	show(label, sp);
	if (sp != MPI_COMM_NULL) {
		p2p(label, sp);
		MPI_Comm_free(&sp);
	}

	MPI_Comm_group(ic, &g);
	MPI_Group_excl(g, s > 1 ? 1 : 0, &ex, &sub);
	MPI_Comm_create(ic, sub, &cr);
	snprintf(label, sizeof label, "%s create", name);
	show(label, cr);
	if (cr != MPI_COMM_NULL) {
		MPI_Barrier(cr);
		MPI_Comm_free(&cr);
	}
	MPI_Group_free(&sub);
	MPI_Group_free(&g);
	MPI_Comm_free(&d);
}

static void intercomm(const char *name, int left, int rleader)
{
	MPI_Comm local, ic;

	MPI_Comm_split(MPI_COMM_WORLD, left, rank, &local);
	MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rleader, 12345, &ic);
	MPI_Comm_free(&local); /* the intercommunicator does not need it */
	show(name, ic);
	p2p(name, ic);
	colls(name, ic, left);
	merge(name, ic, left);
	constructors(name, ic);
	MPI_Comm_free(&ic);
}

int main(int argc, char **argv)
{
	MPI_Comm c;
	MPI_Group wg, even;
	MPI_Request req;
	int flag, s, r, sum, range[1][3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
	say("MPI_COMM_WORLD inter %d", flag);
	if (size >= 2) {
		intercomm("halves", rank < size / 2, rank < size / 2 ? size / 2 : 0);
		intercomm("one and the rest", rank == 0, rank == 0 ? 1 : 0);
	}

	/* A communicator of the even world ranks, made by its members only. */
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	range[0][0] = 0;
	range[0][1] = size - 1;
	range[0][2] = 2;
	MPI_Group_range_incl(wg, 1, range, &even);
	if (rank % 2 == 0) {
		MPI_Comm_create_group(MPI_COMM_WORLD, even, 5, &c);
		MPI_Comm_rank(c, &r);
		MPI_Comm_size(c, &s);
		MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
		say("create_group: rank %d of %d, sum %d", r, s, sum);
		MPI_Comm_free(&c);
	}
	MPI_Group_free(&even);
	MPI_Group_free(&wg);

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &c);
	say("split_type undefined: %s", c == MPI_COMM_NULL ? "MPI_COMM_NULL" : "a communicator");

	MPI_Comm_idup(MPI_COMM_WORLD, &c, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Comm_size(c, &s);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
	say("idup: size %d, sum %d", s, sum);
	MPI_Comm_free(&c);

	/* An intracommunicator's remote group is itself, as MPICH 4.0 answers. */
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, 0, &c);
	MPI_Comm_remote_size(c, &s);
	MPI_Comm_remote_group(c, &even);
	MPI_Group_size(even, &r);
	say("remote size of an intracommunicator: %d, its remote group's %d", s, r);
	MPI_Group_free(&even);
	MPI_Comm_free(&c);
	MPI_Finalize();
	return 0;
}
