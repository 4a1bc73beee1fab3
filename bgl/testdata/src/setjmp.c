#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static int depth;

static void dive(int n)
{
	depth = n;
	if (n < 0)
		return;
	if (n == 0)
		longjmp(env, 7);
	dive(n - 1);
}

int main(void)
{
	volatile int rounds = 0;
	int r = setjmp(env);
	printf("setjmp returned %d (round %d, depth %d)\n", r, rounds, depth);
	if (rounds++ < 3)
		dive(10 * rounds);
	jmp_buf inner;
	volatile double d = 1.25;
	if (setjmp(inner) == 0) {
		d *= 3;
		longjmp(inner, 0);
	}
	printf("inner: d=%g\n", d);
	return 0;
}
