/* loop.c: a rank works through a number of iterations (argv[1], default 50), calling
 * step() once per iteration and tick() rank % 4 + 1 times per iteration, and reports
 * how often it called each, so probe counts can be checked against the program's own.
 * Rank 5 faults on iteration 10 when argv[2] is "fault"; with "early", ranks 8-15 (all of
 * I/O node 1 at 8 per I/O node) stop after half the iterations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dpcl_bgl.h"

volatile int sink;
int progress;

__attribute__((noinline)) int tick(int x)
{
	sink += x;
	return x * 2;
}

__attribute__((noinline)) int step(int i, int rank)
{
	int k, s = 0;
	for (k = 0; k < rank % 4 + 1; k++)
		s += tick(i + k);
	progress = i + 1;
	return s;
}

int main(int argc, char **argv)
{
	int rank = dpcl_rank();
	int n = argc > 1 ? atoi(argv[1]) : 50;
	int fault = argc > 2 && strcmp(argv[2], "fault") == 0;
	if (argc > 2 && strcmp(argv[2], "early") == 0 && rank >= 8 && rank < 16)
		n /= 2;
	int i, ticks = 0;
	long total = 0;
	for (i = 0; i < n; i++) {
		if (fault && rank == 5 && i == 10)
			*(volatile int *)0 = 1;
		total += step(i, rank);
		ticks += rank % 4 + 1;
	}
	printf("rank %d: step %d tick %d total %ld\n", rank, n, ticks, total);
	return 0;
}
