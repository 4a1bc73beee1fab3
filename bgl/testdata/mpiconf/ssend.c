/* ssend: synchronous sends complete only once the matching receive has taken the
 * message. Rank 0 MPI_Issends to the last rank, which has posted nothing: MPI_Test says
 * not done, across a barrier too; once the last rank has received (and a barrier says
 * so), the Issend completes. MPI_Ssend to a posted MPI_Irecv: after a barrier,
 * MPI_Request_get_status of the receive is done (the Ssend could only return once it had
 * matched), as MPICH's rqstatus test expects. A ring of Irecv then Ssend of a vector type,
 * MPI_Ssend_init started twice, an Issend matched by MPI_Mprobe, and MPI_PROC_NULL. */
#include <mpi.h>
#include <stdio.h>

static char outbuf[4096];

int main(int argc, char **argv)
{
	int rank, size, last, flag = -1, i, buf[2] = {0, 0}, got[12], ring[12], count;
	MPI_Request req;
	MPI_Status st;
	MPI_Datatype vec;
	MPI_Message msg;

	MPI_Init(&argc, &argv);
	/* Whole lines, so mpiexec never splits one: after MPI_Init, which may set stdout's
	 * buffering itself. */
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	last = size - 1;

	if (size > 1) {
		/* An Issend is not complete before its receive starts. */
		if (rank == 0) {
			buf[0] = 41;
			MPI_Issend(buf, 1, MPI_INT, last, 1, MPI_COMM_WORLD, &req);
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
			printf("rank %d: issend done before any receive %d\n", rank, flag);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
			printf("rank %d: issend done after a barrier, no receive yet %d\n", rank, flag);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == last) {
			MPI_Recv(got, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
			printf("rank %d: received %d from %d\n", rank, got[0], st.MPI_SOURCE);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			flag = 0;
			while (!flag)
				MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
			printf("rank %d: issend done once received %d\n", rank, flag);
		}
	}

	/* rqstatus: the Ssend returns only once the posted receive matched (alone, rank 0
	 * would wait for its own receive). */
	if (size > 1 && rank == 0) {
		buf[0] = size;
		buf[1] = 3;
		MPI_Ssend(buf, 2, MPI_INT, last, 10, MPI_COMM_WORLD);
	}
	if (size > 1 && rank == last)
		MPI_Irecv(got, 2, MPI_INT, 0, 10, MPI_COMM_WORLD, &req);
	MPI_Barrier(MPI_COMM_WORLD);
	if (size > 1 && rank == last) {
		MPI_Request_get_status(req, &flag, &st);
		MPI_Get_count(&st, MPI_INT, &count);
		printf("rank %d: receive done after the barrier %d (tag %d, count %d)\n", rank, flag, st.MPI_TAG,
			count);
		MPI_Wait(&req, &st);
		printf("rank %d: got %d %d\n", rank, got[0], got[1]);
	}

	/* A ring of a vector type: every receive is posted first. */
	MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (i = 0; i < 12; i++) {
		ring[i] = rank * 100 + i;
		got[i] = -1;
	}
	MPI_Irecv(got, 1, vec, (rank + size - 1) % size, 2, MPI_COMM_WORLD, &req);
	MPI_Ssend(ring, 1, vec, (rank + 1) % size, 2, MPI_COMM_WORLD);
	MPI_Wait(&req, &st);
	printf("rank %d: ring got %d %d %d %d %d %d (untouched %d)\n", rank, got[0], got[1], got[4], got[5], got[8],
		got[9], got[2]);
	MPI_Type_free(&vec);

	/* A persistent synchronous send, started twice, to a receiver that posts late. */
	if (size > 1) {
		if (rank == 0) {
			MPI_Ssend_init(buf, 1, MPI_INT, last, 3, MPI_COMM_WORLD, &req);
			for (i = 0; i < 2; i++) {
				buf[0] = 50 + i;
				MPI_Start(&req);
				MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
				MPI_Barrier(MPI_COMM_WORLD);
				MPI_Wait(&req, MPI_STATUS_IGNORE);
				printf("rank %d: ssend_init start %d done at once %d\n", rank, i, flag);
			}
			MPI_Request_free(&req);
		} else {
			for (i = 0; i < 2; i++) {
				MPI_Barrier(MPI_COMM_WORLD);
				if (rank == last) {
					MPI_Recv(got, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
					printf("rank %d: persistent ssend brought %d\n", rank, got[0]);
				}
			}
		}

		/* A matched probe is the match. */
		if (rank == 0) {
			buf[0] = 77;
			MPI_Issend(buf, 1, MPI_INT, last, 4, MPI_COMM_WORLD, &req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
			printf("rank %d: issend matched by a probe done\n", rank);
		}
		if (rank == last) {
			MPI_Mprobe(0, 4, MPI_COMM_WORLD, &msg, &st);
			MPI_Mrecv(got, 1, MPI_INT, &msg, &st);
			printf("rank %d: mprobe brought %d\n", rank, got[0]);
		}
	}

	MPI_Ssend(buf, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD);
	MPI_Issend(buf, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &req);
	MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
	printf("rank %d: to MPI_PROC_NULL done %d\n", rank, flag);
	MPI_Finalize();
	return 0;
}
