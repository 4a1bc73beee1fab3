/* Line points on loops: a line marked "runs N" executes exactly N times. Loop bodies sit on
 * lines of their own; -O2 moves loop tests below bodies, unrolls, splits a line's code into
 * several blocks and inlines scale (only) and twice (also kept out of line for others). */
#include <stdio.h>

static volatile int sink;
static int data[64];
int twice(int v); /* also inlined into main at -O2 */

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
		total += twice(sum(64)) + steps(27 + r); /* runs 10 */
	}
	printf("total %d\n", total); /* runs 1 */
	return 0;
}

int twice(int v)
{
	return 2 * v;
}
