#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmpint(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	int v[1000];
	unsigned seed = 12345;
	for (int i = 0; i < 1000; i++) {
		seed = seed * 1103515245 + 12345;
		v[i] = (int)(seed >> 8) % 100000 - 50000;
	}
	qsort(v, 1000, sizeof v[0], cmpint);
	for (int i = 0; i < 1000; i += 97)
		printf("v[%d]=%d\n", i, v[i]);
	int key = v[500];
	int *hit = bsearch(&key, v, 1000, sizeof v[0], cmpint);
	printf("bsearch: %td\n", hit ? hit - v : -1);
	char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date", "kiwi", "grape"};
	qsort(words, 8, sizeof words[0], cmpstr);
	for (int i = 0; i < 8; i++)
		printf("%s%c", words[i], i == 7 ? '\n' : ' ');
	return 0;
}
