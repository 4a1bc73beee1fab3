/* staggered.c: each rank works longer the lower its rank, so the ranks' output reaches the
 * front-end in an order that is neither rank order nor pset order, line by line and on
 * both streams, with partial lines: what a sharded run must merge as one process does. */
#include <stdio.h>
#include <unistd.h>
#include "dpcl_bgl.h"

static volatile unsigned sink;

static void work(int units)
{
	for (int i = 0; i < units * 300; i++)
		sink += i;
}

int main(void)
{
	int rank = dpcl_rank(), size = dpcl_size();
	for (int step = 0; step < 3; step++) {
		work((size - rank) * (step + 1) % 37);
		printf("rank %d step %d", rank, step);
		fflush(stdout);
		work(rank % 5);
		printf(" done\n");
		fflush(stdout);
		if ((rank + step) % 4 == 0) {
			fprintf(stderr, "rank %d: note %d\n", rank, step);
		}
	}
	if (rank % 7 == 3)
		printf("rank %d leaves a line unfinished", rank);
	return rank % 3;
}
