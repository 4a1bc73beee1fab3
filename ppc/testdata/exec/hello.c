/* hello: argv echo and an exit status other than zero. */
#include "sys.h"

int main(int argc, char **argv)
{
	puts_("hello, 440\n");
	for (int i = 0; i < argc; i++) {
		dec(i);
		puts_(" ");
		puts_(argv[i]);
		puts_("\n");
	}
	return 3;
}
