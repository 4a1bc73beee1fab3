/* selflock.c: a normal mutex locked twice by its only thread. Linux blocks it forever in
 * futex(FUTEX_WAIT); the CNK ends the rank instead (bgl's TestFutexSelfDeadlock). */
#include <pthread.h>
#include <stdio.h>

int main(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&m);
	printf("locked once\n");
	fflush(stdout);
	pthread_mutex_lock(&m);
	printf("locked twice\n");
	return 0;
}
