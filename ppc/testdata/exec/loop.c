/* loop: a tight integer loop (a multiply-xorshift hash), the throughput benchmark.
   Runs argv[1] thousand iterations... of the inner loop body, printing the hash. */
#include "sys.h"

static int atoi_(const char *s)
{
	int v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + *s++ - '0';
	return v;
}

int main(int argc, char **argv)
{
	u32 n = argc > 1 ? atoi_(argv[1]) : 1000;
	u32 h = 2166136261u, a = 0;
	for (u32 i = 0; i < n; i++) {
		h = (h ^ i) * 16777619u;
		a += h >> 7;
		h ^= a << 3;
	}
	kv("hash", h);
	kv("acc", a);
	return 0;
}
