/* Test program for probe points and trampolines: functions with conditional returns, tail
 * calls, recursion, a loop head at a function's first instruction, a switch dispatched
 * through bctr, a call through a function pointer, and an atomic lwarx..stwcx. loop. Each
 * function counts its own calls so instrumented runs can be checked against the output. */
#include <stdio.h>
#include <stdlib.h>

static unsigned calls[8];
enum { C_CLAMP, C_TWICE, C_TAIL, C_FACT, C_GCD, C_CLASSIFY, C_APPLY, C_BUMP };

__attribute__((noinline)) int clamp_pos(int x)
{
	calls[C_CLAMP]++;
	if (x < 0)
		return 0;
	return x;
}

__attribute__((noinline)) int twice(int x)
{
	calls[C_TWICE]++;
	return 2 * x;
}

/* A tail call: at -O2 the call to twice becomes a branch out of the function. */
__attribute__((noinline)) int tail(int x)
{
	calls[C_TAIL]++;
	return twice(x + 1);
}

__attribute__((noinline)) int fact(int n)
{
	calls[C_FACT]++;
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

/* Self tail recursion becomes a loop whose head is the first instruction at -O2; the call
 * counter is kept outside so the entry is not a store. */
__attribute__((noinline)) int gcd(int a, int b)
{
	while (b != 0) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

__attribute__((noinline)) int classify(int x)
{
	calls[C_CLASSIFY]++;
	switch (x & 7) {
	case 0: return 10;
	case 1: return clamp_pos(x) + 11;
	case 2: return 12 + x;
	case 3: return twice(x) - 13;
	case 4: return 14 * x;
	case 5: return 15 ^ x;
	case 6: return 16 | x;
	default: return -x;
	}
}

__attribute__((noinline)) int apply(int (*f)(int), int x)
{
	calls[C_APPLY]++;
	return f(x);
}

/* A tail call through a pointer: with no frame and no globals, f(x) becomes mtctr; bctr. */
__attribute__((noinline)) int dispatch(int (*f)(int), int x)
{
	return f(x);
}

static int counter;

__attribute__((noinline)) int bump(int by)
{
	calls[C_BUMP]++;
	return __atomic_add_fetch(&counter, by, __ATOMIC_SEQ_CST);
}

/* A do-while loop with no prologue: the backward branch targets the first instruction. */
__attribute__((noinline)) unsigned spin(unsigned x)
{
	do {
		x = x * 5 + 1; /* the low byte cycles through all 256 values */
	} while ((x & 0xff) != 0x3f);
	return x;
}

__attribute__((noinline)) long long widen(long long a, double d)
{
	return a * 3 + (long long)d;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	long sum = 0;
	for (int i = -n; i < n; i++) {
		sum += clamp_pos(i) + tail(i) + classify(i) + apply(i & 1 ? twice : clamp_pos, i);
		sum += bump(i) + gcd(i * 7 + 100, 35);
		if (i >= 0 && i < 10)
			sum += fact(i);
	}
	sum += spin(n * 12345u) + dispatch(twice, n);
	sum += (long)widen(1LL << 33, 2.5);
	printf("sum %ld\n", sum);
	const char *names[] = {"clamp_pos", "twice", "tail", "fact", "gcd", "classify", "apply", "bump"};
	for (int i = 0; i < 8; i++)
		if (i != C_GCD)
			printf("%s %u\n", names[i], calls[i]);
	return 0;
}
