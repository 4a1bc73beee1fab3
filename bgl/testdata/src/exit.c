#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 3;
	printf("exiting with %d\n", code);
	exit(code);
}
