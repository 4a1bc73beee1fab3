/* Integer, 64-bit and switch-table code for the disassembler corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static int classify(int c)
{
	switch (c) {
	case 0: return 11;
	case 1: return 23;
	case 2: return 37;
	case 3: return 41;
	case 4: return 59;
	case 5: return 67;
	case 6: return 73;
	case 7: return 89;
	default: return -1;
	}
}

static uint64_t mix64(uint64_t a, uint64_t b)
{
	a ^= b >> 7;
	a *= 0x9e3779b97f4a7c15ull;
	a += b << 13;
	return a / (b | 1) + a % 1000003;
}

static int64_t sdiv64(int64_t a, int64_t b) { return b ? a / b : 0; }

static unsigned rotl(unsigned x, int n) { return (x << n) | (x >> (32 - n)); }

int main(int argc, char **argv)
{
	unsigned acc = argc;
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; i < 100; i++) {
		acc = rotl(acc * 2654435761u, i & 31) ^ (unsigned)classify(i % 10);
		acc += (acc >> 3) & 0xff00ff;
		h = mix64(h, acc);
		if ((int)acc < 0)
			acc = -acc;
		acc /= (unsigned)(i + 1);
	}
	short s = (short)acc;
	signed char c = (signed char)h;
	printf("%u %llu %lld %d %d %ld\n", acc, (unsigned long long)h,
	       (long long)sdiv64((int64_t)h, -7), s, c, labs((long)acc - 100000));
	return argv[0] == NULL;
}
