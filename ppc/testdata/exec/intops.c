/* intops: integer edge cases through inline assembly: carries, overflow and CR0, division
   by zero, rotates, the 440 multiply-accumulate unit (unsigned MAC forms with OE or
   saturation and the multiplies only: qemu-ppc 7.2 gets signed MAC overflow wrong and
   drops the result of MAC forms without OE or saturation; TestMAC covers those against
   the PPC440 manual), dlmzb, lwarx/stwcx. */
#include "sys.h"

#define OP2(name, insn, a, b) do { u32 r, x, c; \
	__asm__ volatile("mtxer %5\n" insn " %0,%3,%4\nmfxer %1\nmfcr %2" \
		: "=&r"(r), "=&r"(x), "=&r"(c) : "r"(a), "r"(b), "r"(0) : "cr0", "xer"); \
	puts_(name); puts_(" "); hex32(a); puts_(" "); hex32(b); puts_(" -> "); \
	hex32(r); puts_(" xer "); hex32(x); puts_(" cr "); hex32(c); puts_("\n"); } while (0)

#define OP2CA(name, insn, a, b) do { u32 r, x, c; \
	__asm__ volatile("mtxer %5\n" insn " %0,%3,%4\nmfxer %1\nmfcr %2" \
		: "=&r"(r), "=&r"(x), "=&r"(c) : "r"(a), "r"(b), "r"(0x20000000) : "cr0", "xer"); \
	puts_(name); puts_(" ca "); hex32(a); puts_(" "); hex32(b); puts_(" -> "); \
	hex32(r); puts_(" xer "); hex32(x); puts_(" cr "); hex32(c); puts_("\n"); } while (0)

#define MAC(name, insn, t, a, b) do { u32 r = t, x, c; \
	__asm__ volatile("mtxer %5\n" insn " %0,%3,%4\nmfxer %1\nmfcr %2" \
		: "+r"(r), "=&r"(x), "=&r"(c) : "r"(a), "r"(b), "r"(0) : "cr0", "xer"); \
	puts_(name); puts_(" "); hex32(t); puts_(" "); hex32(a); puts_(" "); hex32(b); \
	puts_(" -> "); hex32(r); puts_(" xer "); hex32(x); puts_(" cr "); hex32(c); puts_("\n"); } while (0)

static const u32 vals[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678, 0xfffe0001};
#define NV (sizeof vals / sizeof vals[0])

int main(int argc, char **argv)
{
	for (u32 i = 0; i < NV; i++)
		for (u32 j = 0; j < NV; j++) {
			u32 a = vals[i], b = vals[j];
			OP2("addo.", "addo.", a, b);
			OP2("addco.", "addco.", a, b);
			OP2CA("addeo.", "addeo.", a, b);
			OP2("subfo.", "subfo.", a, b);
			OP2("subfco.", "subfco.", a, b);
			OP2CA("subfeo.", "subfeo.", a, b);
			OP2("mullwo.", "mullwo.", a, b);
			OP2("mulhw.", "mulhw.", a, b);
			OP2("mulhwu.", "mulhwu.", a, b);
			OP2("divwo.", "divwo.", a, b);
			OP2("divwuo.", "divwuo.", a, b);
			OP2("slw.", "slw.", a, b);
			OP2("srw.", "srw.", a, b);
			OP2("sraw.", "sraw.", a, b);
			OP2("rlwnm.", "rlwnm. %0,%3,%4,5,27 #", a, b);
			MAC("machhwsuo.", "machhwsuo.", a, b, vals[(i + j) % NV]);
			MAC("mulchw.", "mulchw.", a, b, vals[(i + j) % NV]);
			MAC("maclhwsuo.", "maclhwsuo.", a, b, vals[(i + j) % NV]);
			MAC("maclhwuo.", "maclhwuo.", a, b, vals[(i + j) % NV]);
			MAC("macchwuo.", "macchwuo.", a, b, vals[(i + j) % NV]);
			MAC("mulhhw.", "mulhhw.", a, b, 0);
			MAC("mullhwu.", "mullhwu.", a, b, 0);
			MAC("dlmzb.", "dlmzb. %0,%3,%4 #", a, b, 0);
		}
	for (u32 i = 0; i < NV; i++) {
		u32 a = vals[i], r, x, c;
		__asm__ volatile("mtxer %4\naddmeo. %0,%3\nmfxer %1\nmfcr %2" : "=&r"(r), "=&r"(x), "=&r"(c) : "r"(a), "r"(0x20000000) : "cr0", "xer");
		kv("addmeo.", r); kv(" xer", x); kv(" cr", c);
		__asm__ volatile("mtxer %4\nsubfzeo. %0,%3\nmfxer %1\nmfcr %2" : "=&r"(r), "=&r"(x), "=&r"(c) : "r"(a), "r"(0) : "cr0", "xer");
		kv("subfzeo.", r); kv(" xer", x); kv(" cr", c);
		__asm__ volatile("mtxer %4\nnego. %0,%3\nmfxer %1\nmfcr %2" : "=&r"(r), "=&r"(x), "=&r"(c) : "r"(a), "r"(0) : "cr0", "xer");
		kv("nego.", r); kv(" xer", x); kv(" cr", c);
		__asm__ volatile("srawi. %0,%2,31\nmfxer %1" : "=&r"(r), "=&r"(x) : "r"(a) : "cr0", "xer");
		kv("srawi.", r); kv(" xer", x);
		__asm__ volatile("rlwimi %0,%1,7,3,20" : "=r"(r) : "r"(a), "0"(0x5a5a5a5a));
		kv("rlwimi", r);
		__asm__ volatile("cntlzw. %0,%1\nmfcr %2" : "=r"(r) : "r"(a), "r"(0) : "cr0");
		kv("cntlzw", r);
		__asm__ volatile("subfic %0,%2,-5\nmfxer %1" : "=&r"(r), "=&r"(x) : "r"(a) : "xer");
		kv("subfic", r); kv(" xer", x);
		__asm__ volatile("addic. %0,%2,-1\nmfxer %1" : "=&r"(r), "=&r"(x) : "r"(a) : "cr0", "xer");
		kv("addic.", r); kv(" xer", x);
		__asm__ volatile("cmpwi 3,%1,0\ncmplwi 5,%1,2\nmfcr %0" : "=r"(r) : "r"(a) : "cr3", "cr5");
		kv("cmp", r);
	}
	static u32 word = 41;
	u32 got, ok;
	__asm__ volatile("1: lwarx %0,0,%2\naddi %0,%0,1\nstwcx. %0,0,%2\nbne- 1b\nmfcr %1"
			 : "=&r"(got), "=&r"(ok) : "r"(&word) : "cr0", "memory");
	kv("lwarx", got);
	kv(" cr", ok);
	__asm__ volatile("stwcx. %1,0,%2\nmfcr %0" : "=r"(ok) : "r"(7), "r"(&word) : "cr0", "memory");
	kv("stwcx.nores", ok);
	kv(" word", word);
	return 0;
}
