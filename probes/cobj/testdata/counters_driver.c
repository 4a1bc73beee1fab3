/* counters_driver: runs counters.c's record() natively under qemu-ppc, as the oracle of
 * the module loaded into simulated ranks. Arguments: ranks laps. For each rank r it
 * resets the module's globals to their initial values and replays what ring's probe does
 * on r (record((r+1) % ranks, 1000 + lap) per lap), then prints one line:
 * "r: rets... | calls total copied | kinds... | last bytes in hex". Linked at test time
 * with a committed counters-*.o. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int calls, total, kinds[8], copied;
extern char last[8];
int record(int a, int b);

int main(int argc, char **argv)
{
	int ranks = argc > 1 ? atoi(argv[1]) : 64, laps = argc > 2 ? atoi(argv[2]) : 3;
	int r, lap, i;

	for (r = 0; r < ranks; r++) {
		calls = 0, total = 7, copied = 0;
		memset(kinds, 0, sizeof kinds);
		memset(last, 0, sizeof last);
		printf("%d:", r);
		for (lap = 1; lap <= laps; lap++)
			printf(" %d", record((r + 1) % ranks, 1000 + lap));
		printf(" | %d %d %d |", calls, total, copied);
		for (i = 0; i < 8; i++)
			printf(" %d", kinds[i]);
		printf(" |");
		for (i = 0; i < 8; i++)
			printf(" %02x", (unsigned char)last[i]);
		printf("\n");
	}
	return 0;
}
