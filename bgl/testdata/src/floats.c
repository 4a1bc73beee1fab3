#include <stdio.h>

int main(void)
{
	double x = 1.5;
	for (int i = 0; i < 12; i++) {
		printf("%f %e %g %.10f %a\n", x, x, x, x / 3, x);
		x *= -3.25;
	}
	float f = 0.1f;
	double sum = 0;
	for (int i = 0; i < 1000; i++) {
		sum += f * i;
		f += 0.001f;
	}
	printf("sum=%.6f f=%.9g\n", sum, f);
	double h = 1.0;
	for (int i = 0; i < 30; i++)
		h = h / 2 + 1.0 / (i + 1);
	printf("h=%.17g int=%d neg=%d\n", h, (int)(h * 1e6), (int)(-h * 1e6));
	printf("%.3f %.0f %g %g %g\n", 2.5, 2.5, 1e300 * 10, 1e-320, -0.0);
	printf("%8.3e|%-12.4g|%+.2f\n", 123456.789, 0.000123456, 3.14159);
	return 0;
}
