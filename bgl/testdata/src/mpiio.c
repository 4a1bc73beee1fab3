/* mpiio.c: MPI-IO on the simulated machine's CIOD file system, on 4 ranks. Each line it
 * prints is a fact the test (mpi_io_test.go) checks; the files it leaves in the working
 * directory are read back by the test from the host.
 *
 *   ordered.dat  write_ordered: rank r writes r+1 bytes of 'a'+r, in rank order
 *   strided.dat  write_all through a vector view: 4-byte blocks dealt round the ranks
 *   shared.dat   write_shared: one int per rank, each rank once
 *   darray.dat   write_all through a darray view of a 4x4 int array, 2x2 process grid */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void say(const char *what, int v)
{
	printf("%s: rank %d: %d\n", what, rank, v);
}

static void ordered(void)
{
	MPI_File fh;
	MPI_Offset pos;
	char buf[8];

	memset(buf, 'a' + rank, sizeof buf);
	MPI_File_open(MPI_COMM_WORLD, "ordered.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	MPI_File_write_ordered(fh, buf, rank + 1, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_get_position_shared(fh, &pos);
	say("ordered shared pointer", (int)pos);
	MPI_File_close(&fh);
}

/* strided: rank r owns blocks r, r+size, ... of 4 bytes; it writes 3 of them with one call,
 * then reads the whole file back through the default view. */
static void strided(void)
{
	MPI_File fh;
	MPI_Datatype vec, tile;
	MPI_Status st;
	int data[3], all[12], i, count, ok = 1;

	MPI_Type_vector(1, 1, 1, MPI_INT, &vec);
	MPI_Type_create_resized(vec, 0, (MPI_Aint)sizeof(int) * size, &tile);
	MPI_Type_commit(&tile);
	for (i = 0; i < 3; i++)
		data[i] = 100 * rank + i;
	MPI_File_open(MPI_COMM_WORLD, "strided.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
	MPI_File_set_view(fh, (MPI_Offset)sizeof(int) * rank, MPI_INT, tile, "native", MPI_INFO_NULL);
	MPI_File_write_all(fh, data, 3, MPI_INT, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	say("strided wrote ints", count);
	MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
	MPI_File_read_at_all(fh, 0, all, 12, MPI_INT, &st);
	for (i = 0; i < 12; i++)
		ok &= all[i] == 100 * (i % size) + i / size;
	say("strided read back in order", ok);
	MPI_File_close(&fh);
	MPI_Type_free(&vec);
	MPI_Type_free(&tile);
}

static void shared(void)
{
	MPI_File fh;
	MPI_Offset pos;
	int v = 1000 + rank;

	MPI_File_open(MPI_COMM_WORLD, "shared.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
	MPI_File_write_shared(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_File_get_position_shared(fh, &pos);
	say("shared pointer after one int each", (int)pos);
	MPI_File_seek_shared(fh, 1, MPI_SEEK_SET);
	MPI_File_get_position_shared(fh, &pos);
	say("shared pointer after seek_shared", (int)pos);
	MPI_File_close(&fh);
}

/* nonblocking: rank 0 starts a collective write before rank 1 can (rank 1 waits for its
 * message), so its request cannot be complete at the call or at a Test before then. */
static void nonblocking(void)
{
	MPI_File fh;
	MPI_Request rq;
	MPI_Status st;
	int data[4] = {rank, rank, rank, rank}, flag = -1, count, token = 0, back[4];

	MPI_File_open(MPI_COMM_WORLD, "nonblocking.dat", MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
		MPI_INFO_NULL, &fh);
	if (rank == 1)
		MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_File_iwrite_at_all(fh, (MPI_Offset)sizeof data * rank, data, 4, MPI_INT, &rq);
	if (rank == 0) {
		MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
		say("iwrite_at_all complete before rank 1 called", flag);
		MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	}
	MPI_Wait(&rq, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	say("iwrite_at_all wrote ints", count);
	MPI_File_iread_at(fh, (MPI_Offset)sizeof data * ((rank + 1) % size), back, 4, MPI_INT, &rq);
	MPI_Wait(&rq, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	say("iread_at of the next rank's ints", count == 4 && back[0] == (rank + 1) % size && back[3] == back[0]);
	MPI_File_close(&fh);
}

static void darray(void)
{
	int gsizes[2] = {4, 4}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
	int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 2}, local[4], i;
	MPI_Datatype da;
	MPI_File fh;

	MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &da);
	MPI_Type_commit(&da);
	for (i = 0; i < 4; i++)
		local[i] = 10 * rank + i;
	MPI_File_open(MPI_COMM_WORLD, "darray.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	MPI_File_set_view(fh, 0, MPI_INT, da, "native", MPI_INFO_NULL);
	MPI_File_write_all(fh, local, 4, MPI_INT, MPI_STATUS_IGNORE);
	MPI_File_close(&fh);
	MPI_Type_free(&da);
}

/* errors: files default to MPI_ERRORS_RETURN, so each misuse returns its class. */
static void errors(void)
{
	MPI_File fh;
	MPI_Datatype bad;
	int class, err, len, blens[2] = {1, 1}, displs[2] = {3, 0};
	char c, msg[MPI_MAX_ERROR_STRING];

	err = MPI_File_open(MPI_COMM_WORLD, "missing.dat", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
	MPI_Error_class(err, &class);
	say("error opening a missing file", class == MPI_ERR_NO_SUCH_FILE);
	err = MPI_File_open(MPI_COMM_WORLD, "x.dat", MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
	say("error with MPI_MODE_RDONLY|MPI_MODE_CREATE", err == MPI_ERR_AMODE);
	MPI_File_open(MPI_COMM_WORLD, "errors.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE,
		MPI_INFO_NULL, &fh);
	err = MPI_File_read(fh, &c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_Error_string(err, msg, &len);
	if (rank == 0)
		printf("error reading a write-only file: %d %s\n", err, msg);
	MPI_Type_indexed(2, blens, displs, MPI_INT, &bad);
	MPI_Type_commit(&bad);
	err = MPI_File_set_view(fh, 0, MPI_INT, bad, "native", MPI_INFO_NULL);
	say("error with a filetype of decreasing displacements", err == MPI_ERR_IO);
	MPI_Type_free(&bad);
	MPI_File_close(&fh);
}

/* cost: rank 0 writes 1 MiB with one call, which the CIOD moves at 1 byte per ns. */
static void cost(void)
{
	static char big[1 << 20];
	MPI_File fh;
	MPI_Offset sz;
	double t0, t1;

	MPI_File_open(MPI_COMM_SELF, "cost.dat", MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
		MPI_INFO_NULL, &fh);
	t0 = MPI_Wtime();
	MPI_File_write_at(fh, 0, big, sizeof big, MPI_BYTE, MPI_STATUS_IGNORE);
	t1 = MPI_Wtime();
	MPI_File_get_size(fh, &sz);
	printf("cost: writing %lld bytes took %.0f ns\n", sz, (t1 - t0) * 1e9);
	MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	ordered();
	strided();
	shared();
	nonblocking();
	darray();
	errors();
	if (rank == 0)
		cost();
	MPI_Finalize();
	return 0;
}
