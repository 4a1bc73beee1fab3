/* apps.h: helpers shared by the example MPI applications.
 *
 * The applications run both natively (MPICH) and on the simulated Blue Gene/L, and must
 * print the same bytes in both places. So they call no libm function (qemu-ppc raises SIGILL
 * on the POWER9 instructions of glibc's libm, and the 440 lacks fsqrt), print only values
 * that do not depend on timing, and print floating-point results of MPI reductions with six
 * significant digits: a sum's last bits depend on the order the MPI library combines partial
 * results in, which differs between MPICH and the simulated machine's engine. */
#ifndef APPS_H
#define APPS_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* app_line_buffered makes stdout line-buffered with a buffer of its own, so each line
 * leaves in one write(2) and lines of different ranks never split each other under
 * mpiexec. (With a NULL buffer glibc may write a line in pieces.) */
static inline void app_line_buffered(void)
{
	static char buf[4096];

	setvbuf(stdout, buf, _IOLBF, sizeof buf);
}

/* app_arg returns argv[i] as an integer in [min, max], def when absent. A malformed or
 * out-of-range argument ends the program with status 2 on every rank (each rank sees the
 * same argv, so all ranks take the same decision). */
static inline long app_arg(int argc, char **argv, int i, long def, long min, long max)
{
	char *end;
	long v;

	if (i >= argc)
		return def;
	v = strtol(argv[i], &end, 10);
	if (*argv[i] == '\0' || *end != '\0' || v < min || v > max) {
		int rank;
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		if (rank == 0)
			fprintf(stderr, "%s: argument %d: want an integer in [%ld, %ld], got \"%s\"\n",
				argv[0], i, min, max, argv[i]);
		MPI_Finalize();
		exit(2);
	}
	return v;
}

/* app_sqrt is sqrt by Newton's iteration (no libm). Exact inputs give the same bits on
 * every machine: the iteration is plain IEEE double arithmetic with a fixed stopping rule. */
static inline double app_sqrt(double x)
{
	double g = 1.0, prev = 0.0;
	int i;

	if (x <= 0.0)
		return 0.0;
	while (g * g < x / 4.0)
		g *= 2.0;
	while (g * g > x * 4.0)
		g /= 2.0;
	for (i = 0; i < 100 && g != prev; i++) {
		prev = g;
		g = 0.5 * (g + x / g);
	}
	return g;
}

/* app_block splits n items over p parts as evenly as possible: part k gets
 * [*lo, *lo + *len), the first n % p parts one item more. */
static inline void app_block(int n, int p, int k, int *lo, int *len)
{
	int base = n / p, extra = n % p;

	*len = base + (k < extra);
	*lo = k * base + (k < extra ? k : extra);
}

#endif /* APPS_H */
