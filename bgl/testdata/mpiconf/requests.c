/* requests: MPI_Cancel of receives no message matches (then Wait, Test and Waitall complete
 * them, MPI_Test_cancelled says so), MPI_Request_get_status polling a receive without
 * freeing it, on MPI_REQUEST_NULL too, and MPI_Isendrecv (a vector datatype sent) and
 * MPI_Isendrecv_replace (MPI_INT: MPICH 4.0.2's faults on a derived type) around the ring. */
#include <mpi.h>
#include <stdio.h>

static int rank, size;

int main(int argc, char **argv)
{
	static char outbuf[4096];
	MPI_Request req, reqs[2];
	MPI_Status st, sts[2];
	MPI_Datatype pairs;
	int buf[8], got[8], flag, n, polls, i, next, prev;

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	next = (rank + 1) % size;
	prev = (rank + size - 1) % size;

	/* A receive nobody sends to: get_status says not done, Cancel, Wait completes it. */
	MPI_Irecv(buf, 4, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &req);
	MPI_Request_get_status(req, &flag, &st);
	printf("rank %d: unmatched receive done %d\n", rank, flag);
	MPI_Cancel(&req);
	MPI_Wait(&req, &st);
	MPI_Test_cancelled(&st, &flag);
	printf("rank %d: cancelled %d, handle null %d\n", rank, flag, req == MPI_REQUEST_NULL);

	/* Two more, completed by Test and Waitall. */
	MPI_Irecv(buf, 1, MPI_INT, prev, 98, MPI_COMM_WORLD, &req);
	MPI_Cancel(&req);
	MPI_Test(&req, &flag, &st);
	MPI_Test_cancelled(&st, &n);
	printf("rank %d: test after cancel: flag %d cancelled %d\n", rank, flag, n);
	MPI_Irecv(buf, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[0]);
	MPI_Irecv(buf + 1, 1, MPI_INT, next, 97, MPI_COMM_WORLD, &reqs[1]);
	MPI_Cancel(&reqs[0]);
	MPI_Cancel(&reqs[1]);
	MPI_Waitall(2, reqs, sts);
	MPI_Test_cancelled(&sts[0], &flag);
	MPI_Test_cancelled(&sts[1], &n);
	printf("rank %d: waitall after cancel: %d %d\n", rank, flag, n);
	MPI_Barrier(MPI_COMM_WORLD);

	/* get_status polls a receive until its message arrives; the request stays valid. */
	MPI_Irecv(got, 2, MPI_INT, prev, 5, MPI_COMM_WORLD, &req);
	buf[0] = rank;
	buf[1] = rank * rank;
	MPI_Send(buf, 2, MPI_INT, next, 5, MPI_COMM_WORLD);
	polls = 0;
	do {
		MPI_Request_get_status(req, &flag, &st);
		polls++;
	} while (!flag);
	MPI_Test_cancelled(&st, &n);
	printf("rank %d: get_status: source %d tag %d cancelled %d, handle kept %d\n", rank, st.MPI_SOURCE, st.MPI_TAG,
		n, req != MPI_REQUEST_NULL);
	MPI_Wait(&req, &st);
	MPI_Get_count(&st, MPI_INT, &n);
	printf("rank %d: then Wait: %d ints %d %d\n", rank, n, got[0], got[1]);
	req = MPI_REQUEST_NULL;
	MPI_Request_get_status(req, &flag, &st);
	printf("rank %d: get_status of MPI_REQUEST_NULL: flag %d, source any %d, tag any %d\n", rank, flag,
		st.MPI_SOURCE == MPI_ANY_SOURCE, st.MPI_TAG == MPI_ANY_TAG);

	/* Isendrecv around the ring, a strided pair type on the send side. */
	MPI_Type_vector(2, 1, 2, MPI_INT, &pairs);
	MPI_Type_commit(&pairs);
	for (i = 0; i < 8; i++) {
		buf[i] = 10 * rank + i;
		got[i] = -1;
	}
	MPI_Isendrecv(buf, 2, pairs, next, 1, got, 4, MPI_INT, prev, 1, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, &st);
	/* No MPI_Get_count: MPICH 4.0.2's status counts the send's pairs, not the ints received. */
	printf("rank %d: isendrecv from %d: %d %d %d %d %d\n", rank, st.MPI_SOURCE, got[0], got[1], got[2], got[3], got[4]);
	MPI_Isendrecv_replace(buf, 3, MPI_INT, next, 2, prev, 2, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, &st);
	printf("rank %d: isendrecv_replace: %d %d %d %d %d %d %d %d\n", rank, buf[0], buf[1], buf[2], buf[3], buf[4], buf[5],
		buf[6], buf[7]);
	/* pairs is not freed: MPICH 4.0.2's Isendrecv loses count of the type's references and
	 * its MPI_Type_free then fails an internal assertion. */
	MPI_Finalize();
	return 0;
}
