/* Test program for line points on loops: every line whose comment reads "runs N" executes
 * exactly N times, by construction. Loop bodies sit on lines of their own, after their
 * for/while header, as a user writes them; the optimizer moves the loop test below the body, unrolls it,
 * splits the line's code into several basic blocks and inlines the helper. */
#include <stdio.h>

static volatile int sink;
static int data[64];

static inline int scale(int v)
{
	return v * 3 + 1; /* runs 640 */
}

__attribute__((noinline)) int sum(int n)
{
	int s = 0; /* runs 10 */
	for (int i = 0; i < n; i++)
		s += data[i]; /* runs 640 */
	return s; /* runs 10 at -O0 (-O2 folds it into the epilogue) */
}

__attribute__((noinline)) void fill(int n)
{
	for (int i = 0; i < n; i++)
		data[i] = scale(i) + (i & 1 ? sink : 0); /* runs 640 */
}

__attribute__((noinline)) int steps(int x)
{
	int k = 0; /* runs 10 */
	while (x != 1) {
		if (x & 1) /* runs 349 */
			x = 3 * x + 1; /* runs 115 */
		else
			x /= 2; /* runs 234 */
		k++; /* runs 349 */
	}
	return k; /* runs 10 */
}

int main(void)
{
	int total = 0;
	for (int r = 0; r < 10; r++) {
		fill(64); /* runs 10 */
		total += sum(64) + steps(27 + r); /* runs 10 */
	}
	printf("total %d\n", total); /* runs 1 */
	return 0;
}
