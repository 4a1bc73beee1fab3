/* faults: one fault per run, chosen by argv[1]; the status is 128 + the signal. */
#include "sys.h"

static int eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static u32 data[4] = {0x60000000, 0x4e800020};

int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "";
	puts_("fault ");
	puts_(k);
	puts_("\n");
	if (eq(k, "illegal"))
		__asm__ volatile(".long 0");
	if (eq(k, "segv"))
		*(volatile u32 *)16 = 1;
	if (eq(k, "trap"))
		__asm__ volatile("li 9,5\ntwi 4,9,5" : : : "r9");
	if (eq(k, "priv")) {
		u32 msr;
		__asm__ volatile("mfmsr %0" : "=r"(msr));
	}
	if (eq(k, "wx"))
		*(volatile u32 *)main = 0;
	if (eq(k, "align")) {
		u32 v;
		__asm__ volatile("lwarx %0,0,%1" : "=r"(v) : "r"((char *)data + 2));
	}
	if (eq(k, "nx"))
		((void (*)(void))data)();
	puts_("no fault\n");
	return 0;
}
