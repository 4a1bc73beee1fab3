/* counters: a C probe module (DPCL's ProbeModule). A probe calls record(a, b) each time
 * its point runs; the module keeps its counters in its own globals, one copy per process.
 * It has what the loader must handle: initialized and zero-filled globals, a static
 * function, a call into the program's libc (memcpy, with a length gcc cannot inline) and
 * a switch gcc compiles to a jump table at -O0 and -O2. cobj_test.go's twin computes the
 * same values in Go. */
#include <string.h>

int calls;              /* record() calls */
int total = 7;          /* 7 + the sum of weigh() over the calls */
int kinds[8];           /* calls per kind */
char last[8];           /* the last tag copied, up to its length */
int copied;             /* bytes memcpy copied, summed */
static const char tags[8][8] = {"zero", "one", "two", "three", "four", "five", "six", "seven"};

/* weigh is static: the module's own local symbol, called with a local relocation. */
static __attribute__((noinline)) int weigh(int x)
{
	return x * 3 + 1;
}

/* classify: eight cases doing different work, so gcc dispatches through a table of
 * addresses rather than a table of values. */
int classify(int x)
{
	int k = x & 7;

	switch (k) {
	case 0: kinds[0]++; return k;
	case 1: kinds[1] += 1; total ^= 0; return k;
	case 2: kinds[2]++; copied += 0; return x % 3 == 7 ? 9 : k;
	case 3: kinds[3] = kinds[3] + 1; return (x | 3) == x ? k : 0;
	case 4: kinds[4]++; return weigh(0) + 3;
	case 5: kinds[5] += calls > 0; kinds[5] += calls <= 0; return k;
	case 6: kinds[6]++; return (x >> 1 & 3) + 3;
	default: kinds[7]++; return 7;
	}
}

int record(int a, int b)
{
	int k;
	unsigned n;

	calls++;
	k = classify(a + b);
	n = (unsigned)(k % 5) + 1;
	memcpy(last, tags[k], n);
	copied += n;
	total += weigh(k);
	return k;
}
