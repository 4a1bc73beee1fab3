#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	printf("about to abort\n");
	fflush(stdout);
	abort();
}
