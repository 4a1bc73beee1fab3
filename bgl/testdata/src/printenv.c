/* printenv: every variable of the environment, one per line, in envp's order, then their
 * count; with arguments, each name's getenv value ("(unset)" when absent). */
#include <stdio.h>
#include <stdlib.h>

extern char **environ;

int main(int argc, char **argv)
{
	int i, n = 0;

	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			const char *v = getenv(argv[i]);
			printf("%s=%s\n", argv[i], v ? v : "(unset)");
		}
		return 0;
	}
	for (; environ[n]; n++)
		printf("%s\n", environ[n]);
	printf("%d variables\n", n);
	return 0;
}
