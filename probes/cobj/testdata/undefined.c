/* undefined: a module calling a function neither it nor the program defines. */
int no_such_function_anywhere(int);

int uses_missing(int x)
{
	return no_such_function_anywhere(x) + 1;
}
