/* faulty: a C probe module whose functions misbehave on one rank, for the fault campaign
 * (examples/bench/campaign.lua). A probe passes probe.rank() as the argument.
 *   crash_on(rank)  loads through a null pointer on rank 1: the rank faults inside the
 *                   module;
 *   spin_on(rank)   never returns on rank 1: the rank runs module code until stopped.
 * Other ranks return 0 at once. Build: make -C examples/bench/campaign */
/* nowhere is read through, not known to be null, so the compiler keeps the load. */
int *volatile nowhere;

int crash_on(int rank)
{
	return rank == 1 ? *nowhere : 0;
}

int spin_on(int rank)
{
	volatile int n = 0;

	while (rank == 1)
		n++;
	return n;
}
