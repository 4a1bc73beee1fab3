/* upper.c: copies stdin to stdout in upper case, counting lines. */
#include <ctype.h>
#include <stdio.h>

int main(void)
{
	int c, lines = 0;
	while ((c = getchar()) != EOF) {
		putchar(toupper(c));
		lines += c == '\n';
	}
	printf("%d lines\n", lines);
	return 0;
}
