/* sys.h: the whole runtime of the freestanding test programs: _start, raw Linux system
   calls through sc, and a few output helpers. No libc. */
#ifndef SYS_H
#define SYS_H

typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;

__asm__(".globl _start\n"
	"_start:\n"
	"	mr 3,1\n"
	"	stwu 1,-16(1)\n"
	"	bl cmain\n"
	"	li 0,1\n"
	"	sc\n");

static inline long sys3(long n, long a, long b, long c)
{
	register long r0 __asm__("r0") = n;
	register long r3 __asm__("r3") = a;
	register long r4 __asm__("r4") = b;
	register long r5 __asm__("r5") = c;
	__asm__ volatile("sc" : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
			 : : "cr0", "memory", "r6", "r7", "r8", "r9", "r10", "r11", "r12");
	return r3;
}

static inline void sys_exit(int code) { sys3(1, code, 0, 0); }
static inline long sys_write(int fd, const void *p, unsigned long n) { return sys3(4, fd, (long)p, n); }

static unsigned long slen(const char *s)
{
	unsigned long n = 0;
	while (s[n])
		n++;
	return n;
}

static void puts_(const char *s) { sys_write(1, s, slen(s)); }

static void hex32(u32 v)
{
	char b[9];
	for (int i = 0; i < 8; i++)
		b[i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15];
	b[8] = 0;
	puts_(b);
}

static void hex64(u64 v) { hex32((u32)(v >> 32)); hex32((u32)v); }

static void dec(s32 v)
{
	char b[12];
	int i = 11;
	u32 u = v < 0 ? -(u32)v : (u32)v;
	b[i] = 0;
	do {
		b[--i] = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		b[--i] = '-';
	puts_(b + i);
}

static void kv(const char *k, u32 v) { puts_(k); puts_(" "); hex32(v); puts_("\n"); }

int main(int argc, char **argv);

void cmain(long *sp)
{
	sys_exit(main((int)sp[0], (char **)(sp + 1)));
}

#endif
