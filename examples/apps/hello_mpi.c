/* hello_mpi: every rank prints one line naming itself and the job size.
 *
 * Usage: hello_mpi
 * Output: "hello from rank R of N" once per rank. */
#include "apps.h"

int main(int argc, char **argv)
{
	int rank, size;

	MPI_Init(&argc, &argv);
	app_line_buffered();
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	printf("hello from rank %d of %d\n", rank, size);
	MPI_Finalize();
	return 0;
}
