/* mprobe: matched probes. Every rank sends two messages of one tag to rank 0, which takes
 * them with MPI_Mprobe and MPI_Improbe from MPI_ANY_SOURCE and receives them with MPI_Mrecv and MPI_Imrecv (ints,
 * and a vector type); MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. Statuses keep the
 * MPI_ERROR a program put there. Then types freed while operations still use them: a
 * persistent send of a duplicated MPI_INT and a receive of a vector type, each freed
 * before the operation runs or completes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size;

static void proc_null(void)
{
	MPI_Message msg = MPI_MESSAGE_NULL;
	MPI_Status st;
	MPI_Request req;
	int flag = 0, buf = 7, count;

	st.MPI_ERROR = MPI_ERR_DIMS;
	MPI_Improbe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &flag, &msg, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	printf("rank %d: improbe proc null flag %d no_proc %d source null %d any tag %d error kept %d count %d\n", rank,
		flag, msg == MPI_MESSAGE_NO_PROC, st.MPI_SOURCE == MPI_PROC_NULL, st.MPI_TAG == MPI_ANY_TAG,
		st.MPI_ERROR == MPI_ERR_DIMS, count);
	MPI_Mrecv(&buf, 1, MPI_INT, &msg, &st);
	printf("rank %d: mrecv proc null buf %d message null %d\n", rank, buf, msg == MPI_MESSAGE_NULL);
	MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
	MPI_Imrecv(&buf, 1, MPI_INT, &msg, &req);
	flag = 0;
	MPI_Test(&req, &flag, &st);
	printf("rank %d: imrecv proc null done %d source null %d\n", rank, flag, st.MPI_SOURCE == MPI_PROC_NULL);
	{
		MPI_Datatype none;

		MPI_Type_contiguous(0, MPI_INT, &none);
		MPI_Type_commit(&none);
		MPI_Sendrecv(&buf, 0, MPI_INT, 0, 8, &buf, 1, none, 0, 8, MPI_COMM_SELF, &st);
		count = -1;
		MPI_Get_count(&st, none, &count);
		printf("rank %d: count of an empty message in a type of no data: %d\n", rank, count);
		MPI_Type_free(&none);
	}
	printf("rank %d: message handles through Fortran and back: %d %d\n", rank,
		MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC,
		PMPI_Message_f2c(PMPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL);
}

static void matched(void)
{
	MPI_Datatype vec;
	int data[8], i, k, n = 2 * (size - 1), flag, count;
	MPI_Message msg;
	MPI_Status st;
	MPI_Request req;

	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	if (rank != 0) {
		for (k = 0; k < 2; k++) {
			for (i = 0; i < 4; i++)
				data[i] = 100 * rank + 10 * k + i;
			MPI_Send(data, 4, MPI_INT, 0, 9, MPI_COMM_WORLD);
		}
		MPI_Type_free(&vec);
		return;
	}
	/* Messages from different ranks arrive in an order of the network's; each rank's two
	 * come in order. How each is received depends on its source and place only, and the
	 * lines are printed by source, so the output does not depend on the arrival order. */
	char (*line)[160] = calloc(size * 2, sizeof *line);
	int *nth = calloc(size, sizeof(int));
	for (k = 0; k < n; k++) {
		int got[8] = {0}, which, mode;

		st.MPI_ERROR = MPI_ERR_TOPOLOGY;
		if (k % 2 == 0) {
			MPI_Mprobe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &msg, &st);
		} else {
			do
				MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
			while (!flag);
		}
		MPI_Get_count(&st, MPI_INT, &count);
		i = st.MPI_SOURCE;
		which = nth[i]++;
		mode = (i + which) % 3;
		if (mode == 0) {
			MPI_Mrecv(got, count, MPI_INT, &msg, &st);
		} else if (mode == 1) {
			MPI_Imrecv(got, 2, vec, &msg, &req);
			MPI_Wait(&req, &st);
		} else {
			MPI_Imrecv(got, count, MPI_INT, &msg, &req);
			MPI_Wait(&req, &st);
		}
		snprintf(line[2 * i + which], sizeof line[0],
			"rank 0: message %d from %d (mode %d): count %d error kept %d null after %d got %d %d %d %d", which,
			st.MPI_SOURCE, mode, count, st.MPI_ERROR == MPI_ERR_TOPOLOGY, msg == MPI_MESSAGE_NULL, got[0],
			got[1], got[2], got[3]);
	}
	for (i = 2; i < 2 * size; i++)
		printf("%s\n", line[i]);
	free(line);
	free(nth);
	MPI_Type_free(&vec);
}

static void freed_types(void)
{
	MPI_Datatype dup, vec;
	MPI_Request req;
	int v = 40 + rank, got[4] = {0, 0, 0, 0}, i;

	if (size < 2)
		return;
	if (rank == 0) {
		MPI_Type_dup(MPI_INT, &dup);
		MPI_Send_init(&v, 1, dup, 1, 4, MPI_COMM_WORLD, &req);
		MPI_Type_free(&dup);
		for (i = 0; i < 3; i++) {
			v = 40 + i;
			MPI_Start(&req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
		MPI_Request_free(&req);
		MPI_Send(got, 4, MPI_INT, 1, 5, MPI_COMM_WORLD);
	} else if (rank == 1) {
		for (i = 0; i < 3; i++) {
			MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			printf("rank 1: persistent send of a freed type brought %d\n", v);
		}
		MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
		MPI_Type_commit(&vec);
		got[1] = got[3] = -1;
		MPI_Irecv(got, 1, vec, 0, 5, MPI_COMM_WORLD, &req);
		MPI_Type_free(&vec);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		printf("rank 1: receive of a freed vector: %d %d %d %d\n", got[0], got[1], got[2], got[3]);
	}
}

int main(int argc, char **argv)
{
	static char outbuf[8192];

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	proc_null();
	matched();
	freed_types();
	MPI_Finalize();
	return 0;
}
