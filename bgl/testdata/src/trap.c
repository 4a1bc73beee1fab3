#include <stdio.h>

int main(void)
{
	printf("trapping\n");
	fflush(stdout);
	__builtin_trap();
}
