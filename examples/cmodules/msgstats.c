/* msgstats: a C probe module. A probe at the entry of an MPI send calls
 * msg_note(count, dest) with the call's element count and destination; the module keeps,
 * in each process's own copy of its globals:
 *   notes            how many sends it saw,
 *   by_class[8]      sends per size class (0: empty, 1: 1 element, 2: 2-3, 3: 4-15,
 *                    4: 16-255, 5: 256-4095, 6: 4096-65535, 7: more),
 *   elements         elements sent, summed,
 *   recent[8]        the last `depth` destinations, oldest first.
 * Build: make -C examples/cmodules (powerpc-linux-gnu-gcc -mcpu=440fp -O2 -g -c). */
#include <string.h>

int notes;
int by_class[8];
long long elements;
int depth = 4;
int recent[8];

/* size_class is static: the module's own function, invisible to the program. */
static __attribute__((noinline)) int size_class(int count)
{
	int bits = 0;

	if (count <= 0)
		return 0;
	while (count > 1 && bits < 20) {
		count >>= 1;
		bits++;
	}
	return bits;
}

/* msg_note's switch dispatches through a table of code addresses in .rodata. */
int msg_note(int count, int dest)
{
	int c, keep, shifted[8];

	notes++;
	switch (size_class(count)) {
	case 0: c = count == 0 ? 0 : 1; break;
	case 1: c = 2; break;
	case 2: case 3: c = 3; elements += 0; break;
	case 4: case 5: case 6: case 7: c = 4; break;
	case 8: case 9: case 10: case 11: c = 5; break;
	case 12: case 13: case 14: case 15: c = 6; break;
	default: c = 7; break;
	}
	by_class[c]++;
	elements += count;
	keep = (depth > 8 ? 8 : depth) - 1;
	memcpy(shifted, recent + 1, (unsigned)keep * sizeof recent[0]);
	memcpy(recent, shifted, (unsigned)keep * sizeof recent[0]);
	recent[keep] = dest;
	return c;
}
