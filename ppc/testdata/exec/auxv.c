/* auxv (static glibc): prints what the loader put on the initial stack -- argc, argv,
   envp, every auxv entry and where argv starts -- to compare with qemu-ppc's. */
#include <stdio.h>

int main(int argc, char **argv, char **envp)
{
	char **p = envp;
	unsigned long *a;

	printf("argc %d\n", argc);
	for (int i = 0; i < argc; i++)
		printf("argv %d %s\n", i, argv[i]);
	while (*p)
		printf("env %s\n", *p++);
	for (a = (unsigned long *)(p + 1); a[0] != 0; a += 2)
		printf("auxv %lu 0x%lx\n", a[0], a[1]);
	printf("argv@ 0x%lx\n", (unsigned long)argv);
	return 0;
}
