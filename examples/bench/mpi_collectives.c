/* mpi_collectives.c — counts the collectives a sharded dpclsh run makes and the host time
 * spent in them, through MPI's profiling interface: built as a shared object and
 * preloaded (LD_PRELOAD) into each process, it wraps MPI_Allreduce, MPI_Alltoall,
 * MPI_Alltoallv and MPI_Barrier and, at MPI_Finalize, writes one line per call to
 * $DPCL_COLLECTIVES.<rank>: "NAME CALLS SECONDS". shards.sh reads them for its table and
 * for the model of bgl/doc.go (collectives per window, seconds per collective).
 *
 *   mpicc -shared -fPIC -O2 -o mpi_collectives.so mpi_collectives.c
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ALLREDUCE, ALLTOALL, ALLTOALLV, BARRIER, NCALLS };

static const char *names[NCALLS] = {"allreduce", "alltoall", "alltoallv", "barrier"};
static long long calls[NCALLS];
static double seconds[NCALLS];

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int counted(int which, double start, int rc)
{
	calls[which]++;
	seconds[which] += now() - start;
	return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
	double start = now();
	return counted(ALLREDUCE, start, PMPI_Allreduce(sbuf, rbuf, n, t, op, comm));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype st, void *rbuf, int rcount,
		 MPI_Datatype rt, MPI_Comm comm)
{
	double start = now();
	return counted(ALLTOALL, start, PMPI_Alltoall(sbuf, scount, st, rbuf, rcount, rt, comm));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype st,
		  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm comm)
{
	double start = now();
	return counted(ALLTOALLV, start,
		       PMPI_Alltoallv(sbuf, scounts, sdispls, st, rbuf, rcounts, rdispls, rt, comm));
}

int MPI_Barrier(MPI_Comm comm)
{
	double start = now();
	return counted(BARRIER, start, PMPI_Barrier(comm));
}

int MPI_Finalize(void)
{
	const char *base = getenv("DPCL_COLLECTIVES");
	int rank = 0;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (base != NULL) {
		char path[4096];
		snprintf(path, sizeof path, "%s.%d", base, rank);
		FILE *f = fopen(path, "w");
		if (f != NULL) {
			for (int i = 0; i < NCALLS; i++)
				fprintf(f, "%s %lld %.6f\n", names[i], calls[i], seconds[i]);
			fclose(f);
		}
	}
	return PMPI_Finalize();
}
