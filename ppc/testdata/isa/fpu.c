/* Floating point and varargs code for the disassembler corpus. */
#include <stdarg.h>
#include <stdio.h>

static double sum(int n, ...)
{
	va_list ap;
	double s = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

static float poly(float x) { return ((3.5f * x - 2.25f) * x + 1.0f) * x - 0.5f; }

static double newton(double a)
{
	double x = a > 1 ? a / 2 : 1;
	for (int i = 0; i < 30; i++)
		x = 0.5 * (x + a / x);
	return x;
}

int main(int argc, char **argv)
{
	double d = argc * 1.5;
	float f = poly((float)d);
	long iv = (long)(d * 1000.0);
	double m = d > f ? d : f;
	double fabsv = m < 0 ? -m : m;
	printf("%g %g %ld %g %g %d\n", sum(4, 1.0, 2.5, d, (double)f), newton(2.0 + d),
	       iv, fabsv, (double)(unsigned)(iv * 3) / 7.0, (int)(f * 100.0f));
	return argv[0] == 0;
}
