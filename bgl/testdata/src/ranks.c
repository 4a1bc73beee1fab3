#include <stdio.h>
#include "dpcl_bgl.h"

int main(void)
{
	int rank = dpcl_rank();
	printf("rank %d of %d on I/O node %d\n", rank, dpcl_size(), dpcl_ionode());
	if (rank % 3 == 0)
		fprintf(stderr, "rank %d: a line on stderr\n", rank);
	return rank % 5;
}
