#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned sum(const unsigned char *p, size_t n)
{
	unsigned s = 0;
	for (size_t i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

int main(void)
{
	void *small[100];
	for (int i = 0; i < 100; i++) {
		small[i] = malloc(16 + i * 24);
		memset(small[i], i, 16 + i * 24);
	}
	unsigned s = 0;
	for (int i = 0; i < 100; i += 2) {
		s += sum(small[i], 16 + i * 24);
		free(small[i]);
	}
	printf("small: %u\n", s);
	size_t sizes[] = {200 << 10, 1 << 20, 130 << 10, 4 << 20};
	for (int i = 0; i < 4; i++) {
		unsigned char *big = malloc(sizes[i]);
		if (!big) {
			printf("malloc %zu failed\n", sizes[i]);
			return 1;
		}
		for (size_t k = 0; k < sizes[i]; k += 4096)
			big[k] = (unsigned char)(k / 4096 + i);
		printf("big %zu: %u\n", sizes[i], sum(big, sizes[i]));
		big = realloc(big, sizes[i] * 2);
		printf("realloc %zu: %u\n", sizes[i] * 2, sum(big, sizes[i]));
		free(big);
	}
	int *z = calloc(50000, sizeof(int));
	long t = 0;
	for (int i = 0; i < 50000; i++)
		t += z[i] + i;
	printf("calloc: %ld\n", t);
	free(z);
	for (int i = 1; i < 100; i += 2)
		free(small[i]);
	char *str = strdup("the end");
	printf("%s\n", str);
	free(str);
	return 0;
}
