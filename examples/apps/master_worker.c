/* master_worker: rank 0 hands out work units to the other ranks on demand, with the MPI
 * profile of a master-worker production code (ALYA in the Limpio paper): a master heavy in
 * Send/Recv, workers heavy in Allreduce and Sendrecv, a few Bcasts, Barriers and Gathervs.
 *
 * Usage: master_worker [units [steps]]   (defaults 100 units, 5 steps)
 *
 * Each step: the master broadcasts the step number; it sends one unit to every worker, then
 * receives results with MPI_ANY_SOURCE and gives the sender the next unit until all are done,
 * then a stop message. A unit is the sum of Collatz stopping times over 64 consecutive
 * integers, so units cost different amounts and the assignment depends on timing. Then a
 * solver phase: ten rounds of a Sendrecv ring among the workers and an Allreduce. Finally the
 * master gathers (Gather + Gatherv) which units each rank did and checks every unit was done
 * exactly once. With one rank, rank 0 does all units itself.
 *
 * Rank 0 prints, per step, the number of units, their total and largest result (with its
 * unit), the solver checksum and the coverage check. None of it depends on which worker did
 * which unit, so the output is deterministic; all values are integers. */
#include "apps.h"

enum { TAG_WORK = 1, TAG_STOP = 2, TAG_RESULT = 3, TAG_RING = 4, SPAN = 64, ROUNDS = 10 };

struct job {
	int rank, size, units, step;
	long long *result; /* master: result per unit */
	int *mine, nmine;  /* units this rank did in this step */
	long long sum, max;
};

static long long unit_value(int step, int units, int u)
{
	long long base = 1 + ((long long)(step - 1) * units + u) * SPAN, total = 0;
	int k;

	for (k = 0; k < SPAN; k++) {
		unsigned long long x = (unsigned long long)(base + k);
		while (x != 1) {
			x = (x & 1) ? 3 * x + 1 : x / 2;
			total++;
		}
	}
	return total;
}

static void record(struct job *j, int u, long long v)
{
	j->mine[j->nmine++] = u;
	j->sum += v;
	if (v > j->max)
		j->max = v;
}

static void master(struct job *j)
{
	int next = 0, busy = 0, w;
	long long msg[2];
	MPI_Status st;

	if (j->size == 1) {
		for (next = 0; next < j->units; next++) {
			j->result[next] = unit_value(j->step, j->units, next);
			record(j, next, j->result[next]);
		}
		return;
	}
	for (w = 1; w < j->size; w++) {
		if (next < j->units) {
			MPI_Send(&next, 1, MPI_INT, w, TAG_WORK, MPI_COMM_WORLD);
			next++;
			busy++;
		} else {
			MPI_Send(&next, 1, MPI_INT, w, TAG_STOP, MPI_COMM_WORLD);
		}
	}
	while (busy > 0) {
		MPI_Recv(msg, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
		j->result[msg[0]] = msg[1];
		if (next < j->units) {
			MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
			next++;
		} else {
			MPI_Send(&next, 1, MPI_INT, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
			busy--;
		}
	}
}

static void worker(struct job *j)
{
	int u;
	long long msg[2];
	MPI_Status st;

	for (;;) {
		MPI_Recv(&u, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		if (st.MPI_TAG == TAG_STOP)
			return;
		msg[0] = u;
		msg[1] = unit_value(j->step, j->units, u);
		record(j, u, msg[1]);
		MPI_Send(msg, 2, MPI_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
	}
}

/* solve runs the workers' ring exchange and the global reductions of one step; it returns
 * a checksum every rank agrees on. */
static long long solve(struct job *j)
{
	int workers = j->size - 1, round;
	long long val = j->rank, got, check = 0, all;

	for (round = 0; round < ROUNDS; round++) {
		if (j->rank > 0) {
			int w = j->rank - 1;
			int right = (w + 1) % workers + 1, left = (w + workers - 1) % workers + 1;
			MPI_Sendrecv(&val, 1, MPI_LONG_LONG, right, TAG_RING, &got, 1, MPI_LONG_LONG,
				left, TAG_RING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			val = got + j->step;
		}
		MPI_Allreduce(&val, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
		check = check * 7 + all;
	}
	return check;
}

/* coverage gathers every rank's unit list at the master and returns 1 if each unit was done
 * exactly once (meaningful on rank 0 only). */
static int coverage(struct job *j)
{
	int *counts = NULL, *displs = NULL, *all = NULL, *seen, ok = 1, k, total = 0;

	if (j->rank == 0) {
		counts = malloc(j->size * sizeof(int));
		displs = malloc(j->size * sizeof(int));
	}
	MPI_Gather(&j->nmine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (j->rank == 0) {
		for (k = 0; k < j->size; k++) {
			displs[k] = total;
			total += counts[k];
		}
		all = malloc((total + 1) * sizeof(int));
	}
	MPI_Gatherv(j->mine, j->nmine, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
	if (j->rank != 0)
		return 1;
	seen = calloc(j->units, sizeof(int));
	for (k = 0; k < total; k++)
		seen[all[k]]++;
	for (k = 0; k < j->units; k++)
		ok &= seen[k] == 1;
	ok &= total == j->units;
	free(seen);
	free(all);
	free(counts);
	free(displs);
	return ok;
}

static void step(struct job *j)
{
	long long local[2], global[2], check;
	int k, best = 0, ok;

	MPI_Bcast(&j->step, 1, MPI_INT, 0, MPI_COMM_WORLD);
	j->nmine = 0;
	j->sum = j->max = 0;
	if (j->rank == 0)
		master(j);
	else
		worker(j);
	local[0] = j->sum;
	local[1] = j->max;
	MPI_Allreduce(&local[0], &global[0], 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&local[1], &global[1], 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
	check = solve(j);
	ok = coverage(j);
	MPI_Barrier(MPI_COMM_WORLD);
	if (j->rank != 0)
		return;
	for (k = 0; k < j->units; k++)
		if (j->result[k] > j->result[best])
			best = k;
	printf("step %d: %d units, total %lld, max %lld (unit %d), solver %lld, coverage %s\n",
		j->step, j->units, global[0], global[1], best, check, ok ? "ok" : "FAILED");
}

int main(int argc, char **argv)
{
	struct job j;
	int steps, s;

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &j.size);
	j.units = (int)app_arg(argc, argv, 1, 100, 1, 1 << 20);
	steps = (int)app_arg(argc, argv, 2, 5, 1, 1 << 16);
	j.result = calloc(j.units, sizeof(long long));
	j.mine = malloc(j.units * sizeof(int));
	if (j.rank == 0)
		printf("master_worker: %d ranks (%d workers), %d units, %d steps\n", j.size,
			j.size - 1, j.units, steps);
	for (s = 1; s <= steps; s++) {
		j.step = j.rank == 0 ? s : 0;
		step(&j);
	}
	free(j.result);
	free(j.mine);
	MPI_Finalize();
	return 0;
}
