/* icoll: every nonblocking collective, several in flight at once on two communicators,
 * completed by Waitall, a Test loop, Waitany and Wait, with their results printed; a
 * blocking collective between a nonblocking one's start and its completion; and the
 * blocking Reduce_scatter_block and Alltoallw among nonblocking ones. */
#include <mpi.h>
#include <stdio.h>

enum { MAXR = 8 };

static int rank, size;

static void show(const char *what, const int *v, int n)
{
	char line[1024];
	int i, len = snprintf(line, sizeof line, "rank %d: %s:", rank, what);

	for (i = 0; i < n; i++)
		len += snprintf(line + len, sizeof line - len, " %d", v[i]);
	printf("%s\n", line);
}

int main(int argc, char **argv)
{
	static char outbuf[4096];
	MPI_Request reqs[12];
	MPI_Comm dup;
	int bc[2], red[2], all[2], mine[2], gat[2 * MAXR], gatv[2 * MAXR], allg[MAXR], allgv[2 * MAXR];
	int scat, scatv[2], a2a[MAXR], a2av[MAXR], src[2 * MAXR], counts[MAXR], displs[MAXR];
	int ones[MAXR], idx[MAXR], sum, i, flag, index, polls, done;

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > MAXR) {
		MPI_Finalize();
		return 0;
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	for (i = 0; i < size; i++) {
		counts[i] = i < 2 ? 1 : 2 - i % 2;
		ones[i] = 1;
		idx[i] = size - 1 - i;
	}
	for (i = 0, sum = 0; i < size; i++) {
		displs[i] = sum;
		sum += counts[i];
	}
	for (i = 0; i < 2 * MAXR; i++)
		src[i] = 100 * rank + i;
	mine[0] = rank + 1;
	mine[1] = 10 * (rank + 1);
	bc[0] = bc[1] = rank == 0 ? 77 : -1;

	MPI_Ibarrier(MPI_COMM_WORLD, &reqs[0]);
	MPI_Ibcast(bc, 2, MPI_INT, 0, dup, &reqs[1]);
	MPI_Ireduce(mine, red, 2, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD, &reqs[2]);
	MPI_Iallreduce(mine, all, 2, MPI_INT, MPI_MAX, dup, &reqs[3]);
	MPI_Igather(mine, 2, MPI_INT, gat, 2, MPI_INT, 0, MPI_COMM_WORLD, &reqs[4]);
	MPI_Igatherv(src, rank < 2 ? 1 : 2 - rank % 2, MPI_INT, gatv, counts, displs, MPI_INT, 0, dup, &reqs[5]);
	MPI_Iallgather(&rank, 1, MPI_INT, allg, 1, MPI_INT, MPI_COMM_WORLD, &reqs[6]);
	MPI_Iallgatherv(src, rank < 2 ? 1 : 2 - rank % 2, MPI_INT, allgv, counts, displs, MPI_INT, dup, &reqs[7]);
	MPI_Iscatter(src, 1, MPI_INT, &scat, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[8]);
	MPI_Iscatterv(src, counts, displs, MPI_INT, scatv, rank < 2 ? 1 : 2 - rank % 2, MPI_INT, size - 1, dup, &reqs[9]);
	MPI_Ialltoall(src, 1, MPI_INT, a2a, 1, MPI_INT, MPI_COMM_WORLD, &reqs[10]);
	MPI_Ialltoallv(src, ones, idx, MPI_INT, a2av, ones, idx, MPI_INT, dup, &reqs[11]);

	/* A blocking collective on a third communicator while those are in flight. */
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);

	MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
	show("ibcast", bc, 2);
	if (rank == size - 1)
		show("ireduce sum", red, 2);
	show("iallreduce max", all, 2);
	polls = 0;
	do {
		MPI_Testall(4, reqs + 4, &flag, MPI_STATUSES_IGNORE);
		polls++;
	} while (!flag);
	if (rank == 0) {
		show("igather", gat, 2 * size);
		show("igatherv", gatv, displs[size - 1] + counts[size - 1]);
	}
	show("iallgather", allg, size);
	show("iallgatherv", allgv, displs[size - 1] + counts[size - 1]);
	for (done = 0; done < 4; done++)
		MPI_Waitany(4, reqs + 8, &index, MPI_STATUS_IGNORE);
	for (i = 8; i < 12; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			printf("rank %d: request %d still active\n", rank, i);
	show("iscatter", &scat, 1);
	show("iscatterv", scatv, rank < 2 ? 1 : 2 - rank % 2);
	show("ialltoall", a2a, size);
	show("ialltoallv", a2av, size);

	/* The scans, Reduce_scatter(_block) and Alltoallw, nonblocking and blocking. */
	{
		int scan[2], exscan[2] = {-1, -1}, rs[2], rsb[2], rsb2[2], w[MAXR], wb[MAXR], sd[MAXR];
		int vals[2 * MAXR], rcounts[MAXR];
		MPI_Datatype ints[MAXR];

		for (i = 0; i < size; i++) {
			rcounts[i] = i % 2 + 1;
			ints[i] = MPI_INT;
			sd[i] = 4 * (size - 1 - i);
		}
		for (i = 0; i < 2 * MAXR; i++)
			vals[i] = rank * i + 1;
		MPI_Iscan(mine, scan, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
		MPI_Iexscan(mine, exscan, 2, MPI_INT, MPI_PROD, dup, &reqs[1]);
		MPI_Ireduce_scatter(vals, rs, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2]);
		MPI_Ireduce_scatter_block(vals, rsb, 2, MPI_INT, MPI_MAX, dup, &reqs[3]);
		MPI_Ialltoallw(src, ones, sd, ints, w, ones, sd, ints, MPI_COMM_WORLD, &reqs[4]);
		MPI_Reduce_scatter_block(vals, rsb2, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Alltoallw(src, ones, sd, ints, wb, ones, sd, ints, dup);
		MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE);
		show("iscan", scan, 2);
		if (rank > 0)
			show("iexscan prod", exscan, 2);
		show("ireduce_scatter", rs, rcounts[rank]);
		show("ireduce_scatter_block max", rsb, 2);
		show("reduce_scatter_block sum", rsb2, 2);
		show("ialltoallw", w, size);
		show("alltoallw", wb, size);
	}

	/* One more, started and waited alone. */
	MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
	MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
	printf("rank %d: iallreduce sum of ranks %d\n", rank, sum);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	return 0;
}
