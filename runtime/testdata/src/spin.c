/* spin.c: every rank computes until its virtual clock (the 700 MHz timebase, 0 at launch)
 * reaches argv[1] microseconds (default 1025), then says it is done.
 * Instrumentation costs cycles but does not move the end: phase tests know exactly which
 * firings fall inside the run. With argv[2] = "mpi", ranks also meet in a barrier every
 * 100 µs, so a phase finds some of them blocked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dpcl_bgl.h"
#include "mpi.h"

static unsigned long long timebase(void)
{
	unsigned hi, lo, hi2;
	do {
		__asm__ volatile("mftbu %0" : "=r"(hi));
		__asm__ volatile("mftb %0" : "=r"(lo));
		__asm__ volatile("mftbu %0" : "=r"(hi2));
	} while (hi != hi2);
	return (unsigned long long)hi << 32 | lo;
}

volatile unsigned sink;

int main(int argc, char **argv)
{
	unsigned long long end = (argc > 1 ? atoll(argv[1]) : 1025) * 700ULL;
	int mpi = argc > 2 && strcmp(argv[2], "mpi") == 0;
	if (mpi)
		MPI_Init(&argc, &argv);
	unsigned long long next = 100 * 700ULL;
	unsigned long n = 0;
	while (timebase() < end) {
		sink += n++;
		if (mpi && timebase() >= next) {
			MPI_Barrier(MPI_COMM_WORLD);
			next += 100 * 700ULL;
		}
	}
	printf("rank %d: done\n", dpcl_rank());
	if (mpi)
		MPI_Finalize();
	return 0;
}
