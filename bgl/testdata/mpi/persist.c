/* persist: persistent requests. A ring halo exchange set up once with MPI_Send_init and
 * MPI_Recv_init (one receive of a vector datatype, one send to MPI_PROC_NULL) and run for
 * several rounds with MPI_Startall and MPI_Waitall; the handles stay valid and inactive
 * between rounds (MPI_Test on them answers at once with an empty status); the other send
 * modes' init calls; MPI_Waitany over persistent and ordinary requests; MPI_Request_free. */
#include "corpus.h"

enum { ROUNDS = 3, N = 4 };

static void halo(void)
{
	int right = (corpus_rank + 1) % corpus_size, left = (corpus_rank + corpus_size - 1) % corpus_size;
	int out = 0, in = -1, col[N][2], outcol[N], r, i, flag = 0, sum = 0;
	MPI_Datatype column;
	MPI_Request rq[5];
	MPI_Status st;

	MPI_Type_vector(N, 1, 2, MPI_INT, &column);
	MPI_Type_commit(&column);
	MPI_Send_init(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &rq[0]);
	MPI_Recv_init(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &rq[1]);
	MPI_Send_init(outcol, N, MPI_INT, left, 2, MPI_COMM_WORLD, &rq[2]);
	MPI_Recv_init(col, 1, column, right, 2, MPI_COMM_WORLD, &rq[3]);
	MPI_Send_init(&out, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &rq[4]);
	MPI_Test(&rq[0], &flag, &st);
	check(flag == 1 && st.MPI_SOURCE == MPI_ANY_SOURCE && rq[0] != MPI_REQUEST_NULL, "Test on an inactive request");
	for (r = 0; r < ROUNDS; r++) {
		out = 100 * r + corpus_rank;
		for (i = 0; i < N; i++) {
			outcol[i] = 1000 * r + 10 * corpus_rank + i;
			col[i][0] = col[i][1] = -1;
		}
		MPI_Startall(5, rq);
		MPI_Waitall(5, rq, MPI_STATUSES_IGNORE);
		check(rq[0] != MPI_REQUEST_NULL && rq[3] != MPI_REQUEST_NULL, "handles survive Waitall");
		check(in == 100 * r + left, "halo value");
		for (i = 0; i < N; i++)
			check(col[i][0] == 1000 * r + 10 * right + i && col[i][1] == -1, "vector halo");
		sum += in + col[N - 1][0];
	}
	say("halo: %d rounds, last %d, column %d %d %d %d, sum %d", ROUNDS, in, col[0][0], col[1][0], col[2][0],
		col[3][0], sum);
	for (i = 0; i < 5; i++)
		MPI_Request_free(&rq[i]);
	check(rq[4] == MPI_REQUEST_NULL, "Request_free sets MPI_REQUEST_NULL");
	MPI_Type_free(&column);
}

static void modes(void)
{
	int right = (corpus_rank + 1) % corpus_size, left = (corpus_rank + corpus_size - 1) % corpus_size;
	int x = corpus_rank * 7, got[3] = {-1, -1, -1}, i, idx, seen = 0, order = 0;
	MPI_Request rq[6];
	MPI_Status st;
	char *bbuf = malloc(1024);
	void *back;
	int size;

	MPI_Buffer_attach(bbuf, 1024);
	for (i = 0; i < 3; i++)
		MPI_Irecv(&got[i], 1, MPI_INT, left, 10 + i, MPI_COMM_WORLD, &rq[3 + i]);
	MPI_Ssend_init(&x, 1, MPI_INT, right, 10, MPI_COMM_WORLD, &rq[0]);
	MPI_Bsend_init(&x, 1, MPI_INT, right, 11, MPI_COMM_WORLD, &rq[1]);
	MPI_Rsend_init(&x, 1, MPI_INT, right, 12, MPI_COMM_WORLD, &rq[2]);
	MPI_Barrier(MPI_COMM_WORLD); /* the receives are posted: the ready send is correct */
	MPI_Start(&rq[0]);
	MPI_Startall(2, &rq[1]);
	for (i = 0; i < 6; i++) {
		MPI_Waitany(6, rq, &idx, &st);
		check(idx != MPI_UNDEFINED, "Waitany finds an active request");
		if (idx >= 3) {
			seen++;
			order += 1 << (idx - 3);
			check(st.MPI_SOURCE == left && st.MPI_TAG == 10 + idx - 3, "Waitany status");
		}
	}
	MPI_Waitany(6, rq, &idx, &st);
	check(idx == MPI_UNDEFINED, "Waitany with nothing active");
	say("modes: got %d %d %d from %d receives (mask %d)", got[0], got[1], got[2], seen, order);
	for (i = 0; i < 3; i++)
		MPI_Request_free(&rq[i]);
	MPI_Buffer_detach(&back, &size);
	free(bbuf);
}

int main(int argc, char **argv)
{
	corpus_init(&argc, &argv);
	halo();
	modes();
	return corpus_finish("persist");
}
