/* Test program for line points. Every line whose comment reads "runs N" executes exactly N
 * times with no argument (the default n = 10), by construction: the tests resolve each such
 * line with Program.LinePoints and check that probes there fire N times. Lines marked
 * "no code" have none, so resolving them is an error naming the nearest lines with code. */
#include <stdio.h>
#include <stdlib.h>

static int total;
static int depth_sum;

__attribute__((noinline)) int square(int x)
{
	int y = x * x; /* runs 10 */
	return y; /* runs 10 */
}

/* fib(n) calls itself; fib(10) makes 177 calls, 89 of them with n < 2. */
__attribute__((noinline)) int fib(int n)
{
	depth_sum++; /* runs 177 */
	if (n < 2) /* runs 177 */
		return n; /* runs 89 */
	return fib(n - 1) + fib(n - 2); /* runs 88 */
}

__attribute__((noinline)) int classify(int x)
{
	switch (x % 4) { /* runs 10 */
	case 0:
		return 100; /* runs 3 */
	case 1:
		return 200; /* runs 3 */
	default:
		break; /* runs 4 */
	}
	/* no code */
	return x; /* runs 4 */
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10; /* runs 1 */
	int k;
	for (int i = 0; i < n; i++) {
		total += square(i); /* runs 10 */
		if (i % 3 == 0) /* runs 10 */
			total -= 1; /* runs 4 */
		else
			total += 2; /* runs 6 */
		total += classify(i); /* runs 10 */
	}

	k = 0; /* runs 1 */
	while (k < 25)
		k += 3; /* runs 9 */
	total += fib(n) + k; /* runs 1 */
	printf("total %d depth %d\n", total, depth_sum); /* runs 1 */
	return 0;
}
