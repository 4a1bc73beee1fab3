/* mpimisuse.c: MPI calls with bad arguments, one per mode (argv[1]); run on 2 or more ranks.
 * MPI's default error handler (MPI_ERRORS_ARE_FATAL) must end the job with an error that
 * names the rank, the call and what is wrong; the other ranks must not hang.
 *   rank      send to rank == size          tag       send with tag -5
 *   count     send with count -1             comm      send on communicator 12345
 *   type      send with datatype 0x7777      root      broadcast from root == size
 *   truncate  receive 1 int of a 4-int message
 *   collcount MPI_Allreduce of 2 ints on rank 0 and of 1 int on the others
 *   bcastcount  MPI_Bcast of 4 ints from rank 0 into 1-int buffers
 *   collkind  rank 0 calls MPI_Barrier where the others call MPI_Bcast
 *   freedcomm a barrier on a communicator after MPI_Comm_free
 *   splitcomm a send to rank 0 on MPI_COMM_NULL (the colour MPI_UNDEFINED got)
 *   request   wait on a request never started
 *   freebad   MPI_Request_free of a request never started
 *   freetwice MPI_Request_free of an Isend's request, then of a copy of its handle
 *   freenull  MPI_Request_free of MPI_REQUEST_NULL (an error, as in MPICH)
 *   noinit    send before MPI_Init
 *   init2     MPI_Init a second time
 *   afterfin  a barrier after MPI_Finalize
 *   unreceived  rank 0 sends 4 ints and an Isend that rank 1 never receives; both finalize
 *             (MPICH finishes: the job ends normally, with a warning naming the messages)
 *   isendflood  rank 1 posts 16 KiB MPI_Isends to rank 0 that nobody receives, without end
 *   irecvflood  rank 1 posts MPI_Irecvs from rank 0 that nothing matches, without end
 *             (both must end with MPI_ERR_NO_MEM once the node's memory is used up)
 *   churn     ranks 0 and 1 exchange 64 MiB in 16 KiB messages (Isend/Wait, Irecv/Wait,
 *             Send/Recv) in lockstep: a correct run that must fit in 16 MiB per node
 *   freechurn as churn, but every Isend and Irecv is freed with MPI_Request_free while
 *             active instead of waited for (an acknowledgement shows the data arrived)
 */
#include <stdio.h>
#include <string.h>
#include "mpi.h"

enum { FLOOD_BYTES = 16384, CHURN_ROUNDS = 2048 };
static char big[FLOOD_BYTES];

/* flood never returns: it posts requests nobody completes until the engine ends the job. */
static void flood(const char *mode)
{
	MPI_Request r;
	int one;

	for (;;) {
		if (!strcmp(mode, "isendflood"))
			MPI_Isend(big, FLOOD_BYTES, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &r);
		else
			MPI_Irecv(&one, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
	}
}

/* churn moves CHURN_ROUNDS * 2 * FLOOD_BYTES bytes from rank 1 to rank 0, one round at a
 * time (rank 0 acknowledges each), completing every request, or (freed) freeing each
 * while active: the tag-2 message, which cannot overtake the tag-1 one, shows that the
 * freed receive took its message. */
static void churn(int rank, int freed)
{
	MPI_Request r;
	int i, ack = 0;

	for (i = 0; i < CHURN_ROUNDS; i++) {
		if (rank == 1) {
			big[0] = (char)i;
			MPI_Isend(big, FLOOD_BYTES, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &r);
			if (freed)
				MPI_Request_free(&r);
			else
				MPI_Wait(&r, MPI_STATUS_IGNORE);
			MPI_Send(big, FLOOD_BYTES, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
			MPI_Recv(&ack, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 0) {
			MPI_Irecv(big, FLOOD_BYTES, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &r);
			if (freed)
				MPI_Request_free(&r);
			else
				MPI_Wait(&r, MPI_STATUS_IGNORE);
			MPI_Recv(big, FLOOD_BYTES, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			ack += big[0] == (char)i;
			MPI_Send(&ack, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		printf("churn: %d of %d rounds intact\n", ack, CHURN_ROUNDS);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int rank = 0, size = 1, buf[4] = {1, 2, 3, 4};
	if (!strcmp(mode, "noinit"))
		return MPI_Send(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(mode, "init2"))
		MPI_Init(&argc, &argv);
	if (rank == 0 && !strcmp(mode, "unreceived")) {
		MPI_Request r;
		MPI_Send(buf, 4, MPI_INT, 1, 7, MPI_COMM_WORLD);
		MPI_Isend(buf, 2, MPI_INT, 1, 8, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	}
	if (rank == 0) {
		if (!strcmp(mode, "rank"))
			MPI_Send(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
		else if (!strcmp(mode, "tag"))
			MPI_Send(buf, 1, MPI_INT, 1, -5, MPI_COMM_WORLD);
		else if (!strcmp(mode, "count"))
			MPI_Send(buf, -1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		else if (!strcmp(mode, "comm"))
			MPI_Send(buf, 1, MPI_INT, 1, 0, (MPI_Comm)12345);
		else if (!strcmp(mode, "type"))
			MPI_Send(buf, 1, (MPI_Datatype)0x7777, 1, 0, MPI_COMM_WORLD);
		else if (!strcmp(mode, "truncate"))
			MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
		else if (!strcmp(mode, "request")) {
			MPI_Request r = (MPI_Request)4242;
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
	} else if (rank == 1 && !strcmp(mode, "truncate")) {
		MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	if (rank == 1 && (!strcmp(mode, "isendflood") || !strcmp(mode, "irecvflood")))
		flood(mode);
	if (!strcmp(mode, "churn") || !strcmp(mode, "freechurn"))
		churn(rank, !strcmp(mode, "freechurn"));
	if (rank == 0 && !strcmp(mode, "freebad")) {
		MPI_Request r = (MPI_Request)4242;
		MPI_Request_free(&r);
	}
	if (rank == 0 && !strcmp(mode, "freetwice")) {
		MPI_Request r, copy;
		MPI_Isend(buf, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &r);
		copy = r;
		MPI_Request_free(&r);
		MPI_Request_free(&copy);
	}
	if (rank == 0 && !strcmp(mode, "freenull")) {
		MPI_Request r = MPI_REQUEST_NULL;
		MPI_Request_free(&r);
	}
	if (!strcmp(mode, "root"))
		MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD);
	if (!strcmp(mode, "collcount")) {
		int out[4];
		MPI_Allreduce(buf, out, rank == 0 ? 2 : 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
	if (!strcmp(mode, "bcastcount"))
		MPI_Bcast(buf, rank == 0 ? 4 : 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!strcmp(mode, "collkind")) {
		if (rank == 0)
			MPI_Barrier(MPI_COMM_WORLD);
		else
			MPI_Bcast(buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
	if (!strcmp(mode, "freedcomm")) {
		MPI_Comm dup, copy;
		MPI_Comm_dup(MPI_COMM_WORLD, &dup);
		copy = dup;
		MPI_Comm_free(&dup);
		MPI_Barrier(copy);
	}
	if (!strcmp(mode, "splitcomm")) {
		MPI_Comm none;
		MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &none);
		if (rank == 1)
			MPI_Send(buf, 1, MPI_INT, 0, 0, none);
	}
	printf("rank %d: %s returned\n", rank, mode);
	MPI_Finalize();
	if (!strcmp(mode, "afterfin"))
		MPI_Barrier(MPI_COMM_WORLD);
	return 0;
}
