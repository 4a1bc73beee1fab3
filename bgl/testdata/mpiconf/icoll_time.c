/* icoll_time: a nonblocking collective is not complete at its call and completes at the
 * blocking form's virtual time. Prints the first MPI_Test's flag after an MPI_Iallreduce
 * and an MPI_Ibcast of N ints (long enough on the collective network to outlast the calls
 * between), and the virtual nanoseconds the blocking and the nonblocking Allreduce take
 * from a barrier (the simulated machine's only: MPICH's timing is the host's). */
#include <mpi.h>
#include <stdio.h>

enum { N = 4096 };

static int in[N], out[N];

int main(int argc, char **argv)
{
	MPI_Request req;
	int rank, i, flag;
	double t0, blocking, nonblocking;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < N; i++)
		in[i] = rank + i;
	MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
	MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
	printf("rank %d: iallreduce first test %d\n", rank, flag);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	printf("rank %d: iallreduce out[0] %d out[%d] %d\n", rank, out[0], N - 1, out[N - 1]);
	MPI_Ibcast(in, N, MPI_INT, 0, MPI_COMM_WORLD, &req);
	MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
	printf("rank %d: ibcast first test %d\n", rank, flag);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	printf("rank %d: ibcast in[1] %d\n", rank, in[1]);

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	blocking = MPI_Wtime() - t0;
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	nonblocking = MPI_Wtime() - t0;
	printf("rank %d: allreduce %.0f ns, iallreduce+wait %.0f ns\n", rank, blocking * 1e9, nonblocking * 1e9);
	MPI_Finalize();
	return 0;
}
