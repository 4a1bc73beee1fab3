/* client.c: the tool's thin client from a program's side: rank, counters, ais_send, and an
 * unassigned number of the MPI hypercall range. */
#include <stdio.h>
#include <string.h>
#include "dpcl_bgl.h"

int main(void)
{
	char msg[32];
	int rank = dpcl_rank();
	unsigned long long before = dpcl_counter(DPCL_COUNTER_INSTRUCTIONS);
	int n = snprintf(msg, sizeof msg, "hi from %d", rank);
	int sent = dpcl_ais_send(msg, n);
	int sent2 = dpcl_ais_send(msg, n < 4 ? n : 4);
	unsigned long long after = dpcl_counter(DPCL_COUNTER_INSTRUCTIONS);
	long lo;
	long mpi = dpcl__hypercall2(DPCL_HC_MPI_LAST, 0, 0, &lo);
	printf("rank %d: send %d %d, counted %d, mpi %ld, bad counter %d\n", rank, sent, sent2,
	       after > before, mpi, (int)(dpcl_counter(99) >> 32));
	return 0;
}
