/* globals: program globals of every type a probe reads by name (app:global). */
#include <stdio.h>

struct grid {
	int n;
	double h;
	short s[3];
	unsigned char flag;
	long long big;
	float f;
	int *p;
};

int table[5] = {10, 20, 30, 40, 50};
struct grid grid = {7, 0.25, {1, -2, 3}, 200, -5000000000LL, 1.5f, &table[1]};
int counter = -42;
unsigned ucount = 4000000000u;
long long ll = 1LL << 40;
float fl = 2.75f;
double dbl = -3.5;
int *ptr = &table[2];
struct grid *gp = &grid;
int matrix[2][3] = {{1, 2, 3}, {4, 5, 6}};
union u {
	int i;
	float f;
} un = {3};
struct bits {
	int a : 3;
	int b : 5;
} bits = {1, 2};

__attribute__((noinline)) void probe_here(int step) { __asm__ volatile("" ::: "memory"); }

int main(void) {
	for (int step = 0; step < 3; step++) {
		probe_here(step);
		counter += step;
		grid.n++;
		table[step] *= 2;
	}
	printf("counter %d grid.n %d table %d %d %d un %d bits %d\n", counter, grid.n, table[0], table[1], table[2], un.i, bits.b);
	return 0;
}
