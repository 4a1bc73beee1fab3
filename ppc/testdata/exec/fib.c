/* fib: recursive Fibonacci, the call-heavy benchmark. Prints fib(n) for n = argv[1]. */
#include "sys.h"

static int atoi_(const char *s)
{
	int v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + *s++ - '0';
	return v;
}

__attribute__((noinline)) static u32 fib(u32 n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	u32 n = argc > 1 ? atoi_(argv[1]) : 30;
	puts_("fib ");
	dec(n);
	puts_(" = ");
	dec(fib(n));
	puts_("\n");
	return 0;
}
