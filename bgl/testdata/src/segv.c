#include <stdio.h>

int main(void)
{
	printf("before the fault\n");
	fflush(stdout);
	volatile unsigned long addr = 0x10;
	*(volatile int *)addr = 1;
	printf("not reached\n");
	return 0;
}
