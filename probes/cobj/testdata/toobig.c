/* toobig: 32 MiB of zero-filled data, more than the 16 MiB instrumentation region. */
char huge[32 << 20];

int touch(int i)
{
	return huge[i];
}
