/* greq: generalized requests. A request not yet completed is not done for MPI_Test or
 * MPI_Request_get_status; once MPI_Grequest_complete names it, Wait and Test free it,
 * its query callback filling the status (source, tag, MPI_Status_set_elements,
 * MPI_Status_set_cancelled) and its free callback running once. Then generalized requests
 * among a receive and a send in Waitall, and in Waitany, Waitsome and Testall; one freed
 * with MPI_Request_free before it completes (its free callback runs then, as MPICH runs
 * it); and MPI_Cancel, whose callback is told whether it completed. */
#include <mpi.h>
#include <stdio.h>

static int rank, size;
static char outbuf[4096];

struct state {
	int id, queries, frees, cancels, cancelled_complete, elements;
	MPI_Datatype type;
};

static int query_fn(void *extra, MPI_Status *st)
{
	struct state *s = extra;

	s->queries++;
	st->MPI_SOURCE = 100 + s->id;
	st->MPI_TAG = 200 + s->id;
	MPI_Status_set_cancelled(st, s->cancels > 0);
	MPI_Status_set_elements(st, s->type, s->elements);
	return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
	((struct state *)extra)->frees++;
	return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
	struct state *s = extra;

	s->cancels++;
	s->cancelled_complete = complete;
	return MPI_SUCCESS;
}

static void show(const char *what, struct state *s, MPI_Status *st)
{
	int count = -1, elements = -1, cancelled = -1;
	char line[256];
	int n = snprintf(line, sizeof line, "rank %d: %s: id %d queries %d frees %d cancels %d (complete %d)", rank,
		what, s->id, s->queries, s->frees, s->cancels, s->cancelled_complete);

	if (st != NULL) {
		MPI_Get_count(st, s->type, &count);
		MPI_Get_elements(st, MPI_INT, &elements);
		if (elements == MPI_UNDEFINED) /* whose value differs */
			elements = -1;
		MPI_Test_cancelled(st, &cancelled);
		snprintf(line + n, sizeof line - n, " source %d tag %d count %d ints %d cancelled %d", st->MPI_SOURCE,
			st->MPI_TAG, count, elements, cancelled);
	}
	printf("%s\n", line); /* one write, so mpiexec never splits the line */
}

static void single(void)
{
	struct state a = {1, 0, 0, 0, 0, 3, MPI_INT}, b = {2, 0, 0, 0, 0, 5, MPI_SHORT};
	MPI_Request r;
	MPI_Status st;
	int flag = -1;

	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r);
	MPI_Test(&r, &flag, &st);
	printf("rank %d: test before complete flag %d null %d\n", rank, flag, r == MPI_REQUEST_NULL);
	MPI_Request_get_status(r, &flag, &st);
	printf("rank %d: get_status before complete flag %d\n", rank, flag);
	MPI_Grequest_complete(r);
	MPI_Request_get_status(r, &flag, &st);
	show("get_status after complete", &a, &st);
	MPI_Wait(&r, &st);
	show("wait", &a, &st);
	printf("rank %d: handle null after wait %d\n", rank, r == MPI_REQUEST_NULL);

	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &r);
	MPI_Grequest_complete(r);
	flag = 0;
	while (!flag)
		MPI_Test(&r, &flag, &st);
	show("test", &b, &st);
}

static void arrays(void)
{
	struct state g[3] = {{3, 0, 0, 0, 0, 1, MPI_INT}, {4, 0, 0, 0, 0, 2, MPI_INT}, {5, 0, 0, 0, 0, 4, MPI_INT}};
	MPI_Request r[4];
	MPI_Status st[4];
	int in = -1, out = rank, right = (rank + 1) % size, left = (rank + size - 1) % size;
	int i, index = -1, outcount = -1, indices[4], flag = -1;

	/* Waitall: a generalized request among a receive and a send. */
	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g[0], &r[1]);
	MPI_Irecv(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &r[0]);
	MPI_Isend(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &r[2]);
	MPI_Grequest_complete(r[1]);
	MPI_Waitall(3, r, st);
	printf("rank %d: waitall got %d from %d\n", rank, in, st[0].MPI_SOURCE);
	show("waitall", &g[0], &st[1]);

	/* Testall is false while one is not complete, and frees none. */
	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g[1], &r[0]);
	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g[2], &r[1]);
	MPI_Grequest_complete(r[1]);
	MPI_Testall(2, r, &flag, st);
	printf("rank %d: testall with one incomplete flag %d, second kept %d\n", rank, flag, r[1] != MPI_REQUEST_NULL);
	g[2].queries = 0; /* MPICH's Testall may have asked the complete one's status */

	/* Waitany takes the complete one; Waitsome then the other. */
	MPI_Waitany(2, r, &index, &st[0]);
	printf("rank %d: waitany index %d\n", rank, index);
	show("waitany", &g[2], &st[0]);
	MPI_Grequest_complete(r[0]);
	MPI_Waitsome(2, r, &outcount, indices, st);
	printf("rank %d: waitsome outcount %d index %d\n", rank, outcount, indices[0]);
	show("waitsome", &g[1], &st[0]);
	for (i = 0; i < 2; i++)
		if (r[i] != MPI_REQUEST_NULL)
			printf("rank %d: request %d still active\n", rank, i);
}

static void freed_and_cancelled(void)
{
	struct state f = {6, 0, 0, 0, 0, 0, MPI_INT}, c = {7, 0, 0, 0, 0, 0, MPI_INT};
	MPI_Request r, keep;
	MPI_Status st;

	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &f, &r);
	keep = r;
	MPI_Request_free(&r);
	show("freed before complete", &f, NULL);
	MPI_Grequest_complete(keep);
	show("completed after free", &f, NULL);

	MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &r);
	MPI_Cancel(&r);
	show("cancelled before complete", &c, NULL);
	MPI_Grequest_complete(r);
	MPI_Cancel(&r);
	MPI_Wait(&r, &st);
	show("cancelled and waited", &c, &st);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	/* Whole lines, so mpiexec never splits one: after MPI_Init, which may set stdout's
	 * buffering itself. */
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	single();
	arrays();
	freed_and_cancelled();
	MPI_Finalize();
	return 0;
}
