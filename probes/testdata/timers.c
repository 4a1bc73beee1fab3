/* timers: nested timed regions for the timer-stack test. fib is recursive and timed at
 * its entry and exits; timer_start/timer_stop mark nested regions by id, as a program
 * annotated for DynTG's timer module would; outer calls inner twice. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) void timer_start(int id) { sink += id; }
__attribute__((noinline)) void timer_stop(int id) { sink -= id; }

__attribute__((noinline)) static int work(int n) {
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i * (i ^ n);
	sink = s;
	return s;
}

__attribute__((noinline)) int fib(int n) {
	work(20);
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) int inner(int n) {
	timer_start(3);
	int s = work(n);
	timer_stop(3);
	return s;
}

__attribute__((noinline)) int outer(int n) {
	int s = work(n);
	s += inner(2 * n);
	s += inner(n);
	return s + work(n / 2);
}

int main(int argc, char **argv) {
	int reps = argc > 1 ? atoi(argv[1]) : 4;
	long total = 0;
	for (int r = 0; r < reps; r++) {
		timer_start(1);
		total += outer(50 + 10 * r);
		timer_start(2);
		total += fib(6 + r % 2);
		timer_stop(2);
		timer_stop(1);
	}
	printf("timers: %d reps, total %ld\n", reps, total);
	return 0;
}
