/* A call chain known by construction, for ustack: main -> down(n) -> up(n-1) -> down(n-1)
 * -> ... -> down(0) -> leaf. No call is a tail call and noipa keeps every function a
 * function of its own at -O2 (no inlining, cloning or recursion turned into a loop).
 * The "call:" markers name the line of each call; the test reads them. */
#include <stdio.h>

volatile int sink;

__attribute__((noipa)) int leaf(int d)
{
	sink += d;
	return d + 1;
}

__attribute__((noipa)) int down(int n);

__attribute__((noipa)) int up(int n)
{
	int r = down(n); /* call:up->down */
	sink ^= r;
	return r + 2;
}

__attribute__((noipa)) int down(int n)
{
	int r;
	if (n == 0)
		r = leaf(n); /* call:down->leaf */
	else
		r = up(n - 1); /* call:down->up */
	sink += r;
	return r * 3;
}

int main(void)
{
	int n;
	for (n = 0; n < 4; n++)
		printf("down(%d) = %d\n", n, down(n)); /* call:main->down */
	return 0;
}
