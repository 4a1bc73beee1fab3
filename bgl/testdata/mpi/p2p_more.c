/* p2p_more: MPI_Iprobe (polled until the message is there, so the output does not depend
 * on timing), MPI_Testall, MPI_Testany, MPI_Waitany and MPI_Waitsome over a set of
 * receives (what completed is printed once all have), MPI_Get_count for every datatype,
 * the synchronous, ready and buffered send modes, MPI_Sendrecv_replace and MPI_PROC_NULL
 * in sends, receives, probes and Sendrecv. */
#include "corpus.h"

enum { K = 4 };

static void iprobe(void)
{
	int flag = 0, v = 0, count = 0, polls = 0;
	MPI_Status st;

	if (corpus_size < 2 || corpus_rank > 1)
		return;
	if (corpus_rank == 0) {
		double d[5] = {1, 2, 3, 4, 5};

		MPI_Send(d, 5, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD);
		return;
	}
	while (!flag) {
		MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		polls++;
	}
	MPI_Get_count(&st, MPI_DOUBLE, &count);
	say("iprobe: source %d tag %d count %d (polled %s)", st.MPI_SOURCE, st.MPI_TAG, count, polls > 0 ? "yes" : "no");
	{
		double d[5];

		MPI_Recv(d, 5, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
		v = (int)(d[0] + d[4]);
	}
	MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	say("iprobe: sum of ends %d, nothing left %d", v, !flag);
}

/* completions: every rank receives K messages from its left neighbour and completes them
 * with a different call each round. */
static void completions(void)
{
	int left = (corpus_rank + corpus_size - 1) % corpus_size, right = (corpus_rank + 1) % corpus_size;
	int round, k, got[K], out[K], flag, idx, n, indices[K], done[K], seen, sum;
	MPI_Request req[K];
	MPI_Status sts[K];

	for (round = 0; round < 4; round++) {
		for (k = 0; k < K; k++) {
			MPI_Irecv(&got[k], 1, MPI_INT, left, k, MPI_COMM_WORLD, &req[k]);
			done[k] = 0;
		}
		for (k = K - 1; k >= 0; k--) {
			out[k] = corpus_rank * 100 + round * 10 + k;
			MPI_Send(&out[k], 1, MPI_INT, right, k, MPI_COMM_WORLD);
		}
		seen = 0;
		switch (round) {
		case 0:
			for (flag = 0; !flag;)
				MPI_Testall(K, req, &flag, sts);
			seen = K;
			break;
		case 1:
			while (seen < K) {
				MPI_Testany(K, req, &idx, &flag, &sts[0]);
				if (flag && idx != MPI_UNDEFINED) {
					done[idx]++;
					seen++;
				}
			}
			break;
		case 2:
			while (seen < K) {
				MPI_Waitany(K, req, &idx, &sts[0]);
				done[idx]++;
				seen++;
			}
			MPI_Waitany(K, req, &idx, &sts[0]);
			check(idx == MPI_UNDEFINED, "Waitany over null requests");
			break;
		default:
			while (seen < K) {
				MPI_Waitsome(K, req, &n, indices, sts);
				for (k = 0; k < n; k++)
					done[indices[k]]++;
				seen += n;
			}
			MPI_Waitsome(K, req, &n, indices, sts);
			check(n == MPI_UNDEFINED, "Waitsome over null requests");
		}
		for (sum = 0, k = 0; k < K; k++) {
			sum += got[k];
			check(req[k] == MPI_REQUEST_NULL, "request freed");
			check(round == 0 || done[k] == 1, "each request completed once");
		}
		say("completions: round %d sum %d", round, sum);
	}
}

static void counts(void)
{
	char buf[64];
	int peer = corpus_size - 1 - corpus_rank, c[6];
	MPI_Status st;
	MPI_Datatype types[6] = {MPI_CHAR, MPI_SHORT, MPI_INT, MPI_LONG_LONG, MPI_FLOAT, MPI_DOUBLE};
	int k;

	memset(buf, corpus_rank, sizeof buf);
	MPI_Sendrecv(buf, 24, MPI_BYTE, peer, 1, buf + 32, 32, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st);
	for (k = 0; k < 6; k++)
		MPI_Get_count(&st, types[k], &c[k]);
	if (corpus_rank == 0)
		say("counts: 24 bytes are %d chars %d shorts %d ints %d long longs %d floats %d doubles",
			c[0], c[1], c[2], c[3], c[4], c[5]);
	MPI_Sendrecv(buf, 5, MPI_SHORT, peer, 2, buf + 32, 16, MPI_SHORT, peer, 2, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, MPI_INT, &c[0]);
	if (corpus_rank == 0)
		say("counts: 5 shorts as ints: %s", c[0] == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined");
}

static void modes(void)
{
	int right = (corpus_rank + 1) % corpus_size, left = (corpus_rank + corpus_size - 1) % corpus_size;
	int v[4] = {-1, -1, -1, -1}, y[3] = {-1, -1, -1}, x, tok = corpus_rank, size;
	MPI_Request rq[7];
	char *bbuf = malloc(1024);
	void *back;
	int i;

	MPI_Buffer_attach(bbuf, 1024);
	for (i = 0; i < 4; i++)
		MPI_Irecv(&v[i], 1, MPI_INT, left, 20 + i, MPI_COMM_WORLD, &rq[i]);
	for (i = 0; i < 3; i++)
		MPI_Irecv(&y[i], 1, MPI_INT, left, 24 + i, MPI_COMM_WORLD, &rq[4 + i]);
	MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: MPI_Rsend is correct */
	x = corpus_rank + 1;
	MPI_Ssend(&x, 1, MPI_INT, right, 20, MPI_COMM_WORLD);
	MPI_Rsend(&x, 1, MPI_INT, right, 21, MPI_COMM_WORLD);
	MPI_Bsend(&x, 1, MPI_INT, right, 22, MPI_COMM_WORLD);
	{
		MPI_Request sreq, sq[3];
		int n = 0, idx[3], done = 0;

		MPI_Ibsend(&x, 1, MPI_INT, right, 23, MPI_COMM_WORLD, &sreq);
		MPI_Wait(&sreq, MPI_STATUS_IGNORE);
		/* The receives are posted, so these sends complete: Testsome frees all three. */
		MPI_Issend(&x, 1, MPI_INT, right, 24, MPI_COMM_WORLD, &sq[0]);
		MPI_Irsend(&x, 1, MPI_INT, right, 25, MPI_COMM_WORLD, &sq[1]);
		MPI_Isend(&x, 1, MPI_INT, right, 26, MPI_COMM_WORLD, &sq[2]);
		while (n != MPI_UNDEFINED) {
			MPI_Testsome(3, sq, &n, idx, MPI_STATUSES_IGNORE);
			if (n != MPI_UNDEFINED)
				done += n;
		}
		check(done == 3 && sq[0] == MPI_REQUEST_NULL && sq[1] == MPI_REQUEST_NULL && sq[2] == MPI_REQUEST_NULL,
			"Testsome frees sends");
	}
	MPI_Waitall(7, rq, MPI_STATUSES_IGNORE);
	check(y[0] == v[0] && y[1] == v[0] && y[2] == v[0], "Issend, Irsend, Isend");
	MPI_Buffer_detach(&back, &size);
	check(back == bbuf && size == 1024, "Buffer_detach returns the buffer");
	MPI_Sendrecv_replace(&tok, 1, MPI_INT, right, 30, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	say("modes: got %d %d %d %d, token %d", v[0], v[1], v[2], v[3], tok);
	free(bbuf);
}

static void proc_null(void)
{
	int x = 5, y = 7, flag = 0;
	MPI_Status st;
	MPI_Request rq;

	MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
	MPI_Recv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
	check(y == 7 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "Recv from MPI_PROC_NULL");
	MPI_Get_count(&st, MPI_INT, &x);
	check(x == 0, "count 0 from MPI_PROC_NULL");
	MPI_Irecv(&y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq);
	MPI_Test(&rq, &flag, &st);
	/* The standard gives it MPI_PROC_NULL's status; MPICH leaves the source 0: only the
	 * completion is compared. */
	check(flag, "Irecv from MPI_PROC_NULL completes");
	MPI_Sendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &y, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
	MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
	check(st.MPI_SOURCE == MPI_PROC_NULL, "Probe of MPI_PROC_NULL");
	if (corpus_rank == 0)
		say("proc_null: y %d", y);
}

int main(int argc, char **argv)
{
	corpus_init(&argc, &argv);
	iprobe();
	completions();
	counts();
	modes();
	proc_null();
	return corpus_finish("p2p_more");
}
