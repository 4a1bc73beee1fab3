/* dt_short: receives of derived types that get fewer bytes than the type holds, completed
 * by each kind of Wait and Test: only the elements that arrived are written (the rest of
 * the buffer keeps its values, and the type may span far more memory than the buffer
 * has), and MPI_Get_count and MPI_Get_elements count what arrived. */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

enum { NB = 256, N = 16 };

static int rank, size;

/* say prints one whole line with one write: MPICH leaves a rank's stdout unbuffered, and
 * mpiexec -l labels each write, so a line printed in pieces would come out split. */
static void say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	fputs(line, stdout);
}

/* sparse: blocks {1 at 0, 0 at 1, 2 at 4, 1 at 2} ints; wide: 256 blocks over 1,024 ints
 * of which a message fills only the first 4 ints. */
static MPI_Datatype sparse, wide;

static void make_types(void)
{
	int blks[4] = {1, 0, 2, 1}, wblks[NB], wdisps[NB], i;
	MPI_Aint disps[4] = {0, 1 * sizeof(int), 4 * sizeof(int), 2 * sizeof(int)};

	MPI_Type_create_hindexed(4, blks, disps, MPI_INT, &sparse);
	MPI_Type_commit(&sparse);
	wblks[0] = 4;
	wdisps[0] = 0;
	for (i = 1; i < NB; i++) {
		wblks[i] = i % 3 + 1;
		wdisps[i] = 4 * i;
	}
	MPI_Type_indexed(NB, wblks, wdisps, MPI_INT, &wide);
	MPI_Type_commit(&wide);
}

/* show prints the counts (MPI_UNDEFINED by name) and the buffer. */
static void show(const char *how, const int *buf, const MPI_Status *st, MPI_Datatype t)
{
	char line[512];
	int i, count, elements, len;

	MPI_Get_count(st, t, &count);
	MPI_Get_elements(st, t, &elements);
	len = snprintf(line, sizeof line, "rank %d: %s: count %d elements %d:", rank, how, count, elements);
	if (count == MPI_UNDEFINED)
		len = snprintf(line, sizeof line, "rank %d: %s: count MPI_UNDEFINED elements %d:", rank, how, elements);
	for (i = 0; i < N; i++)
		len += snprintf(line + len, sizeof line - len, " %d", buf[i]);
	say("%s\n", line);
}

static void fill(int *buf, int base)
{
	int i;

	for (i = 0; i < N; i++)
		buf[i] = base - i;
}

int main(int argc, char **argv)
{
	int send[6], recv[4][N], i, idx, out, indices[4], flag;
	int wide_recv[4];
	MPI_Request req[4];
	MPI_Status st[4];
	int right, left;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	make_types();
	for (i = 0; i < 6; i++)
		send[i] = 100 * rank + i + 1;

	/* Six ints into room for two sparse elements (eight ints): MPI_Wait. */
	fill(recv[0], -1);
	MPI_Irecv(recv[0], 2, sparse, left, 1, MPI_COMM_WORLD, &req[0]);
	MPI_Send(send, 6, MPI_INT, right, 1, MPI_COMM_WORLD);
	MPI_Wait(&req[0], &st[0]);
	show("wait", recv[0], &st[0], sparse);

	/* Waitall over three, one of them short, one given MPI_STATUSES_IGNORE's way. */
	for (i = 0; i < 3; i++) {
		fill(recv[i], -100 * (i + 1));
		MPI_Irecv(recv[i], 2, sparse, left, 10 + i, MPI_COMM_WORLD, &req[i]);
	}
	for (i = 0; i < 3; i++)
		MPI_Send(send, 2 + 2 * i, MPI_INT, right, 10 + i, MPI_COMM_WORLD);
	MPI_Waitall(3, req, st);
	for (i = 0; i < 3; i++)
		show("waitall", recv[i], &st[i], sparse);
	for (i = 0; i < 2; i++) {
		fill(recv[i], -50 * (i + 1));
		MPI_Irecv(recv[i], 2, sparse, left, 20 + i, MPI_COMM_WORLD, &req[i]);
	}
	for (i = 0; i < 2; i++)
		MPI_Send(send, 3 + i, MPI_INT, right, 20 + i, MPI_COMM_WORLD);
	MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	for (i = 0; i < 2; i++) {
		char line[512];
		int k, len = snprintf(line, sizeof line, "rank %d: waitall ignoring statuses:", rank);

		for (k = 0; k < N; k++)
			len += snprintf(line + len, sizeof line - len, " %d", recv[i][k]);
		say("%s\n", line);
	}

	/* Waitany and Testsome. */
	for (i = 0; i < 2; i++) {
		fill(recv[i], -10 * (i + 1));
		MPI_Irecv(recv[i], 2, sparse, left, 30 + i, MPI_COMM_WORLD, &req[i]);
	}
	MPI_Send(send, 5, MPI_INT, right, 31, MPI_COMM_WORLD);
	MPI_Waitany(2, req, &idx, &st[0]);
	say("rank %d: waitany index %d\n", rank, idx);
	show("waitany", recv[idx], &st[0], sparse);
	MPI_Barrier(MPI_COMM_WORLD); /* so only tag 31 can have come for Waitany */
	MPI_Send(send, 1, MPI_INT, right, 30, MPI_COMM_WORLD);
	do
		MPI_Testsome(2, req, &out, indices, st);
	while (out == 0);
	say("rank %d: testsome %d, index %d\n", rank, out, indices[0]);
	show("testsome", recv[indices[0]], &st[0], sparse);

	/* Test on a short receive into a type spanning 4 KiB over a 4-int buffer. */
	for (i = 0; i < 4; i++)
		wide_recv[i] = -1;
	MPI_Irecv(wide_recv, 1, wide, left, 40, MPI_COMM_WORLD, &req[0]);
	MPI_Send(send, 4, MPI_INT, right, 40, MPI_COMM_WORLD);
	do
		MPI_Test(&req[0], &flag, &st[0]);
	while (!flag);
	{
		int count, elements;

		MPI_Get_count(&st[0], wide, &count);
		MPI_Get_elements(&st[0], wide, &elements);
		say("rank %d: wide: count %s elements %d: %d %d %d %d\n", rank,
			count == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined", elements, wide_recv[0], wide_recv[1],
			wide_recv[2], wide_recv[3]);
	}
	MPI_Type_free(&sparse);
	MPI_Type_free(&wide);
	MPI_Finalize();
	return 0;
}
