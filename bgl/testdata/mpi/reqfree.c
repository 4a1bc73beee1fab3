/* reqfree: MPI_Request_free of active requests, which the standard allows: the request
 * is freed when its operation completes. A freed Isend's message is still delivered; an
 * Irecv freed before its message was sent still receives into its buffer (seen after a
 * later message on the same channel, which cannot overtake it, received by an Irecv
 * posted first so that a single rank sending to itself cannot block); a persistent request is
 * freed inactive and while its started operation is active; a request already complete
 * (a receive from MPI_PROC_NULL) is freed at once. Every freed handle becomes
 * MPI_REQUEST_NULL. */
#include "corpus.h"

enum { N = 4 };

/* freed_isend: each rank Isends N ints to its right neighbour and frees the request at
 * once; the neighbour receives and checks them. The send buffer is left alone until the
 * barrier, after which every receive, so every send, is complete. */
static void freed_isend(int right, int left)
{
	static int out[N], in[N];
	MPI_Request rq;
	int i, ok = 1;

	for (i = 0; i < N; i++)
		out[i] = 100 * corpus_rank + i;
	MPI_Isend(out, N, MPI_INT, right, 1, MPI_COMM_WORLD, &rq);
	MPI_Request_free(&rq);
	check(rq == MPI_REQUEST_NULL, "Request_free of an Isend sets MPI_REQUEST_NULL");
	MPI_Recv(in, N, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	for (i = 0; i < N; i++)
		ok &= in[i] == 100 * left + i;
	check(ok, "a freed Isend's message arrives intact");
	MPI_Barrier(MPI_COMM_WORLD);
	say("isend: got %d %d %d %d from rank %d", in[0], in[1], in[2], in[3], left);
}

/* freed_irecv: each rank posts an Irecv from its left neighbour and frees it before the
 * barrier, so before the neighbour sends; the neighbour then sends the data and a second
 * message on the same channel. Once the second is received the first has been matched
 * (messages do not overtake) and its data is in the freed receive's buffer. Needs two
 * ranks: MPICH never completes a send to self that a freed receive matches. */
static void freed_irecv(int right, int left)
{
	static int in[N], out[N];
	MPI_Request rq, next;
	int i, done = 0, ok = 1;

	if (corpus_size == 1) {
		say("irecv: needs two ranks");
		return;
	}
	for (i = 0; i < N; i++)
		in[i] = -1;
	MPI_Irecv(in, N, MPI_INT, left, 2, MPI_COMM_WORLD, &rq);
	MPI_Request_free(&rq);
	check(rq == MPI_REQUEST_NULL, "Request_free of an Irecv sets MPI_REQUEST_NULL");
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		out[i] = 1000 * corpus_rank + i;
	MPI_Irecv(&done, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &next);
	MPI_Send(out, N, MPI_INT, right, 2, MPI_COMM_WORLD);
	MPI_Send(&corpus_rank, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
	MPI_Wait(&next, MPI_STATUS_IGNORE);
	for (i = 0; i < N; i++)
		ok &= in[i] == 1000 * left + i;
	check(done == left && ok, "a freed Irecv receives into its buffer");
	say("irecv: got %d %d %d %d from rank %d", in[0], in[1], in[2], in[3], done);
}

/* freed_persistent: a persistent receive freed while its started operation is active
 * still takes its message; a persistent send freed while active still delivers; a
 * persistent request never started is freed at once. */
static void freed_persistent(int right, int left)
{
	static int in = -1, out;
	MPI_Request rq[3], next;
	int done = -1;

	out = 7 * corpus_rank + 1;
	MPI_Recv_init(&in, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &rq[0]);
	MPI_Send_init(&out, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &rq[1]);
	MPI_Recv_init(&in, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &rq[2]);
	MPI_Start(&rq[0]);
	MPI_Request_free(&rq[0]);
	MPI_Request_free(&rq[2]);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Start(&rq[1]);
	MPI_Request_free(&rq[1]);
	check(rq[0] == MPI_REQUEST_NULL && rq[1] == MPI_REQUEST_NULL && rq[2] == MPI_REQUEST_NULL,
		"Request_free of persistent requests sets MPI_REQUEST_NULL");
	MPI_Irecv(&done, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &next);
	MPI_Send(&corpus_rank, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
	MPI_Wait(&next, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	check(in == 7 * left + 1, "a freed active persistent receive takes its message");
	say("persistent: got %d from rank %d", in, done);
}

/* freed_complete: a receive from MPI_PROC_NULL is complete when posted; freeing it leaves
 * its buffer untouched. */
static void freed_complete(void)
{
	int x = 42;
	MPI_Request rq;

	MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq);
	MPI_Request_free(&rq);
	check(rq == MPI_REQUEST_NULL && x == 42, "Request_free of a complete receive");
	say("complete: buffer %d", x);
}

int main(int argc, char **argv)
{
	int right, left;

	corpus_init(&argc, &argv);
	right = (corpus_rank + 1) % corpus_size;
	left = (corpus_rank + corpus_size - 1) % corpus_size;
	freed_isend(right, left);
	freed_irecv(right, left);
	freed_persistent(right, left);
	freed_complete();
	return corpus_finish("reqfree");
}
