/* crash: a C probe module whose poke(p) reads through p two calls deep: a probe that
 * passes a bad address faults inside the module. */
static __attribute__((noinline)) int peek(const int *p)
{
	return *p + 1;
}

int poke(const int *p)
{
	return peek(p) * 2;
}
