/* String functions and setjmp/longjmp for the disassembler corpus. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf env;

static void fail(int code) { longjmp(env, code); }

static size_t count_words(const char *s)
{
	size_t n = 0;
	for (const char *p = strtok(strdup(s), " "); p; p = strtok(NULL, " "))
		n++;
	return n;
}

int main(int argc, char **argv)
{
	char buf[256];
	int r = setjmp(env);
	if (r == 0) {
		strcpy(buf, "the quick brown fox");
		strcat(buf, " jumps over the lazy dog");
		memmove(buf + 4, buf, strlen(buf) / 2);
		if (strchr(buf, 'z') && memcmp(buf, "the ", 4) == 0)
			fail(argc + 1);
	}
	memset(buf + 40, 'x', 16);
	buf[60] = 0;
	printf("%d %zu %zu %s %d\n", r, strlen(buf), count_words(buf), strrchr(buf, ' '),
	       strncmp(argv[0], "strs", 4));
	return 0;
}
