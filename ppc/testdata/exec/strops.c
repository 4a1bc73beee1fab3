/* strops: lmw/stmw, lswi/lswx/stswi/stswx, byte-reversed loads and stores, dcbz, unaligned
   accesses. */
#include "sys.h"

static unsigned char buf[96] __attribute__((aligned(32)));

static void dump(const char *name)
{
	puts_(name);
	for (int i = 0; i < 96; i++) {
		if (i % 32 == 0)
			puts_("\n ");
		char h[3] = {"0123456789abcdef"[buf[i] >> 4], "0123456789abcdef"[buf[i] & 15], 0};
		puts_(h);
	}
	puts_("\n");
}

int main(int argc, char **argv)
{
	for (int i = 0; i < 96; i++)
		buf[i] = i * 7 + 1;
	u32 r[4];
	__asm__ volatile("lswi 5,%4,11\nmr %0,5\nmr %1,6\nmr %2,7\nmr %3,8"
			 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "b"(buf + 3) : "r5", "r6", "r7", "r8");
	for (int i = 0; i < 4; i++)
		kv("lswi", r[i]);
	__asm__ volatile("li 9,6\nmtxer 9\nlswx 5,%4,%5\nmr %0,5\nmr %1,6\nmr %2,7\nmr %3,8"
			 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "b"(buf), "r"(9) : "r5", "r6", "r7", "r8", "r9", "xer");
	for (int i = 0; i < 4; i++)
		kv("lswx", r[i]);
	__asm__ volatile("lis 5,0x1122\nori 5,5,0x3344\nlis 6,0x5566\nori 6,6,0x7788\nstswi 5,%0,7"
			 : : "b"(buf + 40) : "r5", "r6", "memory");
	__asm__ volatile("li 9,5\nmtxer 9\nli 9,60\nlis 5,0xaabb\nori 5,5,0xccdd\nlis 6,0xeeff\nstswx 5,%0,9"
			 : : "b"(buf) : "r5", "r6", "r9", "xer", "memory");
	dump("strings");
	__asm__ volatile("dcbz 0,%0" : : "r"(buf + 37) : "memory");
	dump("dcbz");
	static u32 save[4], src[4] = {0xa1a2a3a4, 0xb1b2b3b4, 0xc1c2c3c4, 0xd1d2d3d4};
	register u32 *ps __asm__("r9") = save, *pv __asm__("r10") = src;
	register unsigned char *pd __asm__("r11") = buf + 66;
	__asm__ volatile("stmw 28,0(%0)\nlmw 28,0(%1)\nstmw 28,0(%2)\nlmw 28,0(%0)"
			 : : "b"(ps), "b"(pv), "b"(pd) : "memory");
	u32 lo, br, hb;
	__asm__ volatile("lwzx %0,0,%1" : "=r"(lo) : "r"(buf + 67));
	kv("unaligned", lo);
	__asm__ volatile("lwbrx %0,0,%1" : "=r"(br) : "r"(buf + 1));
	kv("lwbrx", br);
	__asm__ volatile("lhbrx %0,0,%1" : "=r"(hb) : "r"(buf + 5));
	kv("lhbrx", hb);
	__asm__ volatile("stwbrx %0,0,%1\nsthbrx %0,0,%2" : : "r"(0x01020304), "r"(buf + 9), "r"(buf + 17) : "memory");
	static u32 out[4];
	register u32 *po __asm__("r10") = out;
	register unsigned char *pb __asm__("r11") = buf + 8;
	__asm__ volatile("stmw 28,0(%0)\nlmw 28,0(%2)\nstmw 28,0(%1)\nlmw 28,0(%0)"
			 : : "b"(ps), "b"(po), "b"(pb) : "memory");
	for (int i = 0; i < 4; i++)
		kv("lmw", out[i]);
	return 0;
}
