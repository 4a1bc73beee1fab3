/* Function replacement and skip: work and spin are replaced by their _fast twins (whose
 * results differ on purpose, so the output shows which ran), wide and half are skipped
 * with values of their return types. At -O2 spin's first instruction is its loop's head. */
#include <stdio.h>

__attribute__((noipa)) int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noipa)) int work_fast(int n)
{
	return n * (n - 1) / 2 + 1000000;
}

__attribute__((noipa)) unsigned spin(unsigned x)
{
	do {
		x = x * 5 + 1;
	} while ((x & 0xff) != 0x3f);
	return x;
}

__attribute__((noipa)) unsigned spin_fast(unsigned x)
{
	return x + 7;
}

__attribute__((noipa)) long long wide(long long a)
{
	return a * 3;
}

__attribute__((noipa)) double half(double d)
{
	return d / 2;
}

int main(void)
{
	for (int i = 1; i <= 3; i++)
		printf("work(%d) = %d spin(%d) = %u\n", 10 * i, work(10 * i), i, spin(i));
	printf("wide %lld half %g\n", wide(5), half(3.0));
	return 0;
}
