/* fpops: floating-point results and FPSCR bits for edge-case operands: every arithmetic
   form (double and single), the fused multiply-adds, frsp, fctiw/fctiwz saturation,
   compares, single loads and stores of NaNs and denormals. FPSCR is cleared before each. */
#include "sys.h"

static const u64 vals[] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, /* 0 -0 1 */
	0xbff8000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, /* -1.5 inf -inf */
	0x7ff8000000000000ull, 0x7ff4000000000001ull, 0x0000000000000001ull, /* qnan snan denorm */
	0x7fefffffffffffffull, 0x41dfffffffc00000ull, 0xc1e0000000200000ull, /* max 2^31-1 -2^31-1 */
	0x3fb999999999999aull, 0x36a0000000000001ull, 0x47efffffe0000001ull, /* 0.1 tiny bigsingle */
	0x3ff0000010000000ull, 0x400921fb54442d18ull, 0xc3e0000000000000ull, /* tie pi -2^63 */
};
#define NV (sizeof vals / sizeof vals[0])


static u32 fs, cr;



static u64 tmp;

static void show(const char *name, u64 a, u64 b, u64 c)
{
	puts_(name); puts_(" "); hex64(a); puts_(" "); hex64(b); puts_(" "); hex64(c);
}

static u32 fpscr(void)
{
	double f;
	__asm__ volatile("mffs %0\nstfd %0,%1" : "=f"(f), "=m"(tmp));
	return (u32)tmp;
}

static void clear(void)
{
	double z = 0;
	__asm__ volatile("mtfsf 0xff,%0" : : "f"(z));
}

#define ARITH3(insn) static u64 op_##insn(u64 a, u64 b, u64 c) { \
	double x = *(double *)&a, y = *(double *)&b, w = *(double *)&c, z; u64 r; \
	__asm__ volatile(#insn ". %0,%1,%2,%3\nmfcr %4" : "=f"(z) : "f"(x), "f"(w), "f"(y), "r"(cr) : "cr1"); \
	__asm__ volatile("mfcr %0" : "=r"(cr)); \
	*(double *)&r = z; return r; }
#define ARITH2(insn) static u64 op_##insn(u64 a, u64 b, u64 c) { \
	double x = *(double *)&a, y = *(double *)&b, z; u64 r; (void)c; \
	__asm__ volatile(#insn ". %0,%1,%2" : "=f"(z) : "f"(x), "f"(y) : "cr1"); \
	__asm__ volatile("mfcr %0" : "=r"(cr)); \
	*(double *)&r = z; return r; }
#define ARITH1(insn) static u64 op_##insn(u64 a, u64 b, u64 c) { \
	double y = *(double *)&b, z; u64 r; (void)a; (void)c; \
	__asm__ volatile(#insn ". %0,%1" : "=f"(z) : "f"(y) : "cr1"); \
	__asm__ volatile("mfcr %0" : "=r"(cr)); \
	*(double *)&r = z; return r; }

ARITH2(fadd) ARITH2(fsub) ARITH2(fdiv) ARITH2(fadds) ARITH2(fsubs) ARITH2(fdivs)
ARITH3(fmadd) ARITH3(fmsub) ARITH3(fnmadd) ARITH3(fnmsub) ARITH3(fmadds) ARITH3(fnmsubs)
ARITH1(frsp) ARITH1(fctiw) ARITH1(fctiwz) ARITH1(fneg) ARITH1(fabs) ARITH1(fnabs)

static u64 op_fmul(u64 a, u64 b, u64 c)
{
	double x = *(double *)&a, y = *(double *)&b, z; u64 r; (void)c;
	__asm__ volatile("fmul. %0,%1,%2" : "=f"(z) : "f"(x), "f"(y) : "cr1");
	__asm__ volatile("mfcr %0" : "=r"(cr));
	*(double *)&r = z; return r;
}

static u64 op_fmuls(u64 a, u64 b, u64 c)
{
	double x = *(double *)&a, y = *(double *)&b, z; u64 r; (void)c;
	__asm__ volatile("fmuls. %0,%1,%2" : "=f"(z) : "f"(x), "f"(y) : "cr1");
	__asm__ volatile("mfcr %0" : "=r"(cr));
	*(double *)&r = z; return r;
}

static u64 op_cmp(u64 a, u64 b, u64 c)
{
	double x = *(double *)&a, y = *(double *)&b; (void)c;
	__asm__ volatile("fcmpu 2,%1,%2\nfcmpo 6,%2,%1\nmfcr %0" : "=r"(cr) : "f"(x), "f"(y) : "cr2", "cr6");
	return 0;
}

static u64 op_single(u64 a, u64 b, u64 c)
{
	double x = *(double *)&b, y; u32 s; u64 r; (void)a; (void)c;
	__asm__ volatile("stfs %2,%1\nlfs %0,%1" : "=f"(y), "=m"(s) : "f"(x));
	*(double *)&r = y;
	return r ^ ((u64)s << 1);
}

static const struct { const char *name; u64 (*fn)(u64, u64, u64); int nargs; } ops[] = {
	{"fadd", op_fadd, 2}, {"fsub", op_fsub, 2}, {"fmul", op_fmul, 2}, {"fdiv", op_fdiv, 2},
	{"fadds", op_fadds, 2}, {"fsubs", op_fsubs, 2}, {"fmuls", op_fmuls, 2}, {"fdivs", op_fdivs, 2},
	{"fmadd", op_fmadd, 3}, {"fmsub", op_fmsub, 3}, {"fnmadd", op_fnmadd, 3}, {"fnmsub", op_fnmsub, 3},
	{"fmadds", op_fmadds, 3}, {"fnmsubs", op_fnmsubs, 3},
	{"frsp", op_frsp, 1}, {"fctiw", op_fctiw, 1}, {"fctiwz", op_fctiwz, 1},
	{"fneg", op_fneg, 1}, {"fabs", op_fabs, 1}, {"fnabs", op_fnabs, 1},
	{"fcmp", op_cmp, 2}, {"stfs/lfs", op_single, 1},
};

int main(int argc, char **argv)
{
	for (u32 o = 0; o < sizeof ops / sizeof ops[0]; o++)
		for (u32 i = 0; i < NV; i++)
			for (u32 j = 0; j < (ops[o].nargs > 1 ? NV : 1); j++) {
				u32 k = (i * 7 + j * 3) % NV;
				u64 a = vals[i], b = ops[o].nargs == 1 ? vals[i] : vals[j], c = vals[k];
				clear();
				u64 r = ops[o].fn(a, b, c);
				show(ops[o].name, a, b, c);
				puts_(" -> ");
				hex64(r);
				puts_(" fpscr ");
				hex32(fpscr());
				puts_(" cr ");
				hex32(cr);
				puts_("\n");
			}
	return 0;
}
