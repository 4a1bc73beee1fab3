#include <stdio.h>
#include <sys/random.h>
#include <time.h>

int main(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	volatile double x = 0;
	for (int i = 0; i < 100000; i++)
		x += i * 0.5;
	clock_gettime(CLOCK_MONOTONIC, &b);
	long ns = (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
	unsigned r[2];
	getrandom(r, sizeof r, 0);
	struct timespec req = {0, 5000000};
	nanosleep(&req, NULL);
	struct timespec c;
	clock_gettime(CLOCK_MONOTONIC, &c);
	printf("loop %ld ns, random %08x%08x, slept %ld ns, time %ld\n", ns, r[0], r[1],
	       (c.tv_sec - b.tv_sec) * 1000000000L + (c.tv_nsec - b.tv_nsec), (long)time(NULL));
	return 0;
}
