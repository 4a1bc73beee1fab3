/* Three functions with known shares of the instructions: hot runs 7 times as many
 * iterations of the same loop as cool, warm twice as many, so 70 %, 20 % and 10 % of the
 * program's time is in them. mix is inlined into each, for profiles' inlined frames. */
#include <stdio.h>

volatile unsigned sink;
volatile unsigned rounds = 200000;

static inline __attribute__((always_inline)) unsigned mix(unsigned acc, unsigned i, unsigned k)
{
	acc ^= i * k;
	return acc + (acc >> 3);
}

__attribute__((noinline)) unsigned hot(unsigned n)
{
	unsigned acc = 1;
	for (unsigned i = 0; i < n; i++)
		acc = mix(acc, i, 3);
	return acc;
}

__attribute__((noinline)) unsigned warm(unsigned n)
{
	unsigned acc = 2;
	for (unsigned i = 0; i < n; i++)
		acc = mix(acc, i, 5);
	return acc;
}

__attribute__((noinline)) unsigned cool(unsigned n)
{
	unsigned acc = 3;
	for (unsigned i = 0; i < n; i++)
		acc = mix(acc, i, 7);
	return acc;
}

int main(void)
{
	unsigned n = rounds;
	sink = hot(7 * n);
	sink += warm(2 * n);
	sink += cool(n);
	printf("hotspots %u\n", sink);
	return 0;
}
