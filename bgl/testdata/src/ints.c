#include <limits.h>
#include <stdio.h>

int main(void)
{
	int v[] = {0, 1, -1, 42, -42, 1000000, INT_MAX, INT_MIN};
	for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++)
		printf("%d|%5i|%-6d|%u|%x|%X|%o|%+d|%08d\n", v[i], v[i], v[i], (unsigned)v[i],
		       v[i], v[i], v[i], v[i], v[i]);
	long long big = 1;
	for (int i = 0; i < 64; i += 7, big *= 131)
		printf("%lld %llx %llu\n", big, big, (unsigned long long)-big);
	unsigned long long f = 1;
	for (int i = 1; i <= 20; i++) {
		f *= i;
		printf("%2d! = %llu, /7 = %llu, %%13 = %llu\n", i, f, f / 7, f % 13);
	}
	printf("%hhd %hd %ld %zu %p\n", (signed char)200, (short)70000, -5L, sizeof(long), (void *)0x1234);
	return 0;
}
