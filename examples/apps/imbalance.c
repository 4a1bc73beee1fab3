/* imbalance: compute where every 8th rank works 8 times more, then MPI_Allreduce.
 *
 * Usage: imbalance [units [steps]]   (defaults 2000 units, 5 steps)
 *
 * Each step every rank sums a series of `units` terms (8 x units on ranks 0, 8, 16, ...),
 * then all ranks add their sums with MPI_Allreduce: the light ranks reach the reduction
 * first and wait there for the heavy ones, the imbalance a profile should show (the
 * light ranks hold the most MPI_Allreduce time, the heavy ones the least). Rank 0 prints
 * the total of each step with six significant digits. */
#include "apps.h"

/* work sums n terms of a series that needs no libm. */
static double work(long n, int rank)
{
	double s = 0;
	long i;

	for (i = 1; i <= n; i++)
		s += 1.0 / (double)(i * (i + rank % 8 + 1));
	return s;
}

int main(int argc, char **argv)
{
	int rank, size, step;
	long units, steps;

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	units = app_arg(argc, argv, 1, 2000, 1, 10000000);
	steps = app_arg(argc, argv, 2, 5, 1, 1000);
	for (step = 0; step < steps; step++) {
		double mine = work(rank % 8 == 0 ? 8 * units : units, rank), total;

		MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		if (rank == 0)
			printf("step %d: total %.6g\n", step, total);
	}
	MPI_Finalize();
	return 0;
}
