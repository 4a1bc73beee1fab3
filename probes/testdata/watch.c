/* Watchpoints: x is written at iterations 3, 7 and 12 only (the "write:x" line) and read
 * on every iteration; noise shares x's page and is written on every iteration, which a
 * watch of x must not report. */
#include <stdio.h>

volatile int x;
volatile int noise[64];

int main(void)
{
	int sum = 0;
	for (int i = 0; i < 16; i++) {
		noise[i] = i;
		if (i == 3 || i == 7 || i == 12)
			x = x + i; /* write:x */
		sum += x;          /* read:x */
	}
	printf("x %d sum %d\n", x, sum);
	return 0;
}
