/* sessions: MPI 4 sessions without MPI_Init. A session asking for MPI_THREAD_MULTIPLE
 * reports that level in its info; the WORLD and SELF process sets are listed (their names
 * and lengths, found case-insensitively), their pset info gives their sizes, and groups
 * from them make communicators with MPI_Comm_create_from_group: a reduction over WORLD, a
 * message to itself over SELF, a second communicator of the same tag, each with the error
 * handler given. Then MPI 4's large-count point-to-point calls over WORLD: a ring of
 * MPI_Send_c/MPI_Recv_c, MPI_Isend_c/MPI_Irecv_c and MPI_Sendrecv_c, and MPI_Get_count_c.
 * Two sessions are open at once, and the last one's finalize ends the job's MPI. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int errs;
static char outbuf[4096];

static void check(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		printf("%s failed: %d\n", what, rc);
		errs++;
	}
}

static MPI_Comm comm_of(MPI_Session s, const char *pset, const char *tag)
{
	MPI_Group g = MPI_GROUP_NULL;
	MPI_Comm c = MPI_COMM_NULL;
	int gsize;

	check(MPI_Group_from_session_pset(s, pset, &g), "MPI_Group_from_session_pset");
	MPI_Group_size(g, &gsize);
	check(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), "MPI_Comm_create_from_group");
	MPI_Group_free(&g);
	return c;
}

static void psets(MPI_Session s, int rank)
{
	int n, i, len, flag, found = 0;
	char name[MPI_MAX_PSET_NAME_LEN], value[32];
	MPI_Info info;

	check(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n), "MPI_Session_get_num_psets");
	for (i = 0; i < n; i++) {
		len = 0;
		MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
		MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
		if (strcmp(name, "mpi://WORLD") != 0 && strcmp(name, "mpi://SELF") != 0)
			continue;
		found++;
		MPI_Session_get_pset_info(s, name, &info);
		MPI_Info_get(info, "mpi_size", sizeof value - 1, value, &flag);
		printf("rank %d: pset %s length %d mpi_size %s (found %d)\n", rank, name, len, value, flag);
		MPI_Info_free(&info);
	}
	printf("rank %d: found WORLD and SELF %d\n", rank, found == 2);
}

static void large_counts(MPI_Comm world, int rank, int size)
{
	int out[8], in[8], back[8], i, right = (rank + 1) % size, left = (rank + size - 1) % size;
	MPI_Request reqs[2];
	MPI_Status st, sts[2];
	MPI_Count count;

	for (i = 0; i < 8; i++)
		out[i] = rank * 100 + i;
	MPI_Isend_c(out, 8, MPI_INT, right, 1, world, &reqs[0]);
	MPI_Irecv_c(in, 8, MPI_INT, left, 1, world, &reqs[1]);
	MPI_Waitall(2, reqs, sts);
	MPI_Sendrecv_c(in, 4, MPI_INT, right, 2, back, 8, MPI_INT, left, 2, world, &st);
	MPI_Get_count_c(&st, MPI_INT, &count);
	printf("rank %d: isend_c/irecv_c got %d..%d, sendrecv_c got %lld ints from %d, first %d\n", rank, in[0],
		in[7], (long long)count, st.MPI_SOURCE, back[0]);
	if (size > 1 && rank == 0) /* (MPICH 4.0.2 crashes sending to itself here) */
		MPI_Send_c(out, 3, MPI_INT, size - 1, 3, world);
	if (size > 1 && rank == size - 1) {
		MPI_Recv_c(in, 8, MPI_INT, 0, 3, world, &st);
		MPI_Get_count_c(&st, MPI_SHORT, &count);
		printf("rank %d: recv_c from 0: %d %d %d, %lld shorts\n", rank, in[0], in[1], in[2], (long long)count);
	}
}

int main(void)
{
	MPI_Session s, s2;
	MPI_Info info, used;
	MPI_Comm world, self, again;
	MPI_Errhandler eh;
	char level[64];
	int flag, rank, size, sum, got = -1, one = 1, cmp, inited;

	MPI_Info_create(&info);
	MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
	check(MPI_Session_init(info, MPI_ERRORS_RETURN, &s), "MPI_Session_init");
	/* Whole lines, so mpiexec never splits one: after the first session started MPI,
	 * which may set stdout's buffering itself. */
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Info_free(&info);
	check(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s2), "MPI_Session_init (second)");
	check(MPI_Session_get_info(s, &used), "MPI_Session_get_info");
	MPI_Info_get(used, "thread_level", sizeof level - 1, level, &flag);
	MPI_Info_free(&used);

	world = comm_of(s, "mpi://WORLD", "org.example.sessions.world");
	MPI_Comm_rank(world, &rank);
	MPI_Comm_size(world, &size);
	printf("rank %d: thread_level %s (found %d)\n", rank, flag ? level : "-", flag);
	psets(s2, rank);

	MPI_Comm_get_errhandler(world, &eh);
	printf("rank %d: world errhandler is MPI_ERRORS_RETURN %d\n", rank, eh == MPI_ERRORS_RETURN);
	MPI_Errhandler_free(&eh);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, world);
	printf("rank %d: world size %d, sum of ranks %d\n", rank, size, sum);

	self = comm_of(s2, "mpi://self", "org.example.sessions.self");
	MPI_Comm_size(self, &size);
	MPI_Sendrecv(&one, 1, MPI_INT, 0, 5, &got, 1, MPI_INT, 0, 5, self, MPI_STATUS_IGNORE);
	printf("rank %d: self size %d, got %d from itself\n", rank, size, got);

	again = comm_of(s, "mpi://WORLD", "org.example.sessions.world");
	MPI_Comm_compare(world, again, &cmp);
	printf("rank %d: the same tag again is congruent %d\n", rank, cmp == MPI_CONGRUENT);
	MPI_Comm_size(world, &size);
	large_counts(again, rank, size);

	MPI_Comm_free(&again);
	MPI_Comm_free(&self);
	MPI_Comm_free(&world);
	check(MPI_Session_finalize(&s2), "MPI_Session_finalize (second)");
	MPI_Initialized(&inited);
	printf("rank %d: session null after finalize %d, MPI_Init called %d\n", rank, s2 == MPI_SESSION_NULL, inited);
	check(MPI_Session_finalize(&s), "MPI_Session_finalize");
	if (errs != 0)
		printf("rank %d: %d errors\n", rank, errs);
	return errs != 0;
}
