/* mpiwin.c: one-sided communication on the simulated machine (bgl/mpi_win_test.go).
 * Each section prints what it saw; the test compares the lines. Runs on 3 ranks.
 *
 *   visible:  a Put lands at the target at the fence or the unlock that completes it,
 *             not before (the target looks in between, told by a message);
 *   pscw:     Post/Start/Complete/Wait, the target reads after Wait;
 *   atomics:  Accumulate, Get_accumulate, Fetch_and_op and Compare_and_swap from every
 *             rank under shared locks, derived datatypes on both sides;
 *   errors:   with MPI_ERRORS_RETURN on the window, a Put past the window, an unlock
 *             without a lock and a shared window over 3 ranks return their classes;
 *   dynamic:  a Put across two adjacent regions attached to a dynamic window lands; one
 *             past them returns MPI_ERR_RMA_RANGE;
 *   cost:     the virtual time an unlock completing a 4096-byte Put takes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void visible(void)
{
	int buf[4] = {0}, src[4] = {1, 2, 3, 4}, flag = 0;
	MPI_Win win;

	MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	if (rank == 0)
		MPI_Put(src, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1)
		printf("visible: rank 1 before the fence: %d\n", buf[0]);
	MPI_Win_fence(0, win);
	if (rank == 1)
		printf("visible: rank 1 after the fence: %d %d %d %d\n", buf[0], buf[1], buf[2], buf[3]);
	MPI_Win_fence(0, win);
	if (rank == 0) {
		src[0] = 40;
		MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, win);
		MPI_Put(src, 1, MPI_INT, 2, 3, 1, MPI_INT, win);
		MPI_Send(&flag, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
		MPI_Recv(&flag, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Win_unlock(2, win);
	}
	if (rank == 2) {
		MPI_Recv(&flag, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("visible: rank 2 before the unlock: %d\n", buf[3]);
		MPI_Send(&flag, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 2)
		printf("visible: rank 2 after the unlock: %d\n", buf[3]);
	MPI_Win_free(&win);
}

static void pscw(void)
{
	int buf[2] = {0}, v[2] = {rank + 7, rank + 8}, peers[2];
	MPI_Group world, g;
	MPI_Win win;

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (rank == 0) {
		peers[0] = 1, peers[1] = 2;
		MPI_Group_incl(world, 2, peers, &g);
		MPI_Win_post(g, 0, win);
		MPI_Win_wait(win);
		printf("pscw: rank 0 after wait: %d %d\n", buf[0], buf[1]);
	} else {
		peers[0] = 0;
		MPI_Group_incl(world, 1, peers, &g);
		MPI_Win_start(g, 0, win);
		MPI_Put(&v[rank - 1], 1, MPI_INT, 0, rank - 1, 1, MPI_INT, win);
		MPI_Win_complete(win);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&world);
	MPI_Win_free(&win);
}

static void atomics(void)
{
	int *base, one = 1, old = -1, cmp, nv, res[2] = {-1, -1}, inc[2] = {10, 100}, i;
	MPI_Datatype strided;
	MPI_Win win;

	MPI_Win_allocate(6 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	for (i = 0; i < 6; i++)
		base[i] = 0;
	MPI_Type_vector(2, 1, 3, MPI_INT, &strided);
	MPI_Type_commit(&strided);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock_all(0, win);
	MPI_Accumulate(inc, 2, MPI_INT, 0, 1, 1, strided, MPI_SUM, win);
	MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win);
	MPI_Win_flush(0, win);
	cmp = 0, nv = rank + 1;
	MPI_Compare_and_swap(&nv, &cmp, &res[0], MPI_INT, 0, 5, win);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	res[0] = res[1] = -1;
	if (rank == 0)
		printf("atomics: counter %d, strided sums %d %d, swapped in %d\n", base[0], base[1], base[4], base[5]);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
	MPI_Get_accumulate(NULL, 0, MPI_INT, res, 2, MPI_INT, 0, 1, 1, strided, MPI_NO_OP, win);
	MPI_Win_unlock(0, win);
	printf("atomics: rank %d fetched %d, read back %d %d\n", rank, old, res[0], res[1]);
	MPI_Type_free(&strided);
	MPI_Win_free(&win);
}

static void errors(void)
{
	int buf[2], rc, cls, *shared;
	MPI_Win win;

	MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
	rc = MPI_Put(buf, 2, MPI_INT, 0, 1, 2, MPI_INT, win);
	MPI_Error_class(rc, &cls);
	printf("errors: rank %d put past the window: %d\n", rank, cls);
	MPI_Win_unlock(0, win);
	rc = MPI_Win_unlock(1, win);
	printf("errors: rank %d unlock without a lock: %d\n", rank, rc);
	MPI_Win_free(&win);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	rc = MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &shared, &win);
	printf("errors: rank %d shared window over %d ranks: %d\n", rank, size, rc);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void dynamic(void)
{
	int buf[4] = {0}, src[5] = {5, 6, 7, 8, 9}, rc;
	MPI_Aint at;
	MPI_Win win;

	MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
	MPI_Win_attach(win, buf, 2 * sizeof(int));
	MPI_Win_attach(win, buf + 2, 2 * sizeof(int));
	MPI_Get_address(buf, &at);
	MPI_Bcast(&at, 1, MPI_AINT, 0, MPI_COMM_WORLD);
	if (rank == 1) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Put(src, 4, MPI_INT, 0, at, 4, MPI_INT, win);
		rc = MPI_Put(src, 5, MPI_INT, 0, at, 5, MPI_INT, win);
		MPI_Win_unlock(0, win);
		printf("dynamic: rank 1 put past the regions: %d\n", rc);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("dynamic: rank 0 regions hold %d %d %d %d\n", buf[0], buf[1], buf[2], buf[3]);
	MPI_Win_detach(win, buf);
	MPI_Win_detach(win, buf + 2);
	MPI_Win_free(&win);
}

static void cost(void)
{
	static char buf[4096], src[4096];
	double t0, t1;
	MPI_Win win;

	MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
		MPI_Put(src, sizeof src, MPI_BYTE, 1, 0, sizeof src, MPI_BYTE, win);
		t0 = MPI_Wtime();
		MPI_Win_unlock(1, win);
		t1 = MPI_Wtime();
		printf("cost: unlock of 4096 bytes took %.0f ns\n", (t1 - t0) * 1e9);
	}
	MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	visible();
	pscw();
	atomics();
	errors();
	dynamic();
	cost();
	MPI_Finalize();
	return 0;
}
