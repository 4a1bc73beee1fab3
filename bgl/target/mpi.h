/* mpi.h: the MPI interface of the simulated Blue Gene/L (PowerPC 440 build).
 *
 * This is the subset of MPI-1 that the simulated machine's libmpi provides: MPI_COMM_WORLD
 * only, the basic datatypes, the pair types of MPI_MINLOC and MPI_MAXLOC, the predefined
 * reduction operations, blocking and non-blocking point-to-point, probe, and the common collectives. Programs written against
 * it compile unchanged with MPICH's mpicc, which is how they are checked natively.
 *
 * Handles are plain ints. A datatype handle carries its element size in the low byte
 * (MPI__TYPE_SIZE), so the library needs no table to size a buffer; the other bits keep
 * types of equal size apart. A request handle is an index chosen by the library;
 * MPI_REQUEST_NULL is what a completed or never-started request holds.
 *
 * MPI_Status carries the source, the tag and the error of a completed receive, and `count`,
 * the number of bytes received; MPI_Get_count divides it by the datatype's size. */
#ifndef DPCL_MPI_H
#define DPCL_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Request;

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int count; /* bytes received */
} MPI_Status;

/* Communicators. */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)1)

/* Datatypes: (kind << 8) | element size in bytes (PowerPC 32-bit ABI). */
#define MPI__TYPE_SIZE(t) ((int)((t) & 0xff))
#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_CHAR ((MPI_Datatype)0x0101)
#define MPI_INT ((MPI_Datatype)0x0204)
#define MPI_LONG ((MPI_Datatype)0x0304)
#define MPI_LONG_LONG ((MPI_Datatype)0x0408)
#define MPI_UNSIGNED ((MPI_Datatype)0x0504)
#define MPI_FLOAT ((MPI_Datatype)0x0604)
#define MPI_DOUBLE ((MPI_Datatype)0x0708)
#define MPI_BYTE ((MPI_Datatype)0x0801)
#define MPI_SHORT ((MPI_Datatype)0x0902)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)0x0a02)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x0b01)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)0x0c04)
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x0d08)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x0e01)
#define MPI_LONG_LONG_INT MPI_LONG_LONG

/* Pair types for MPI_MINLOC and MPI_MAXLOC: the low byte is the C struct's size with its
 * padding ({double, int} is 16 bytes), which is what the library strides by. */
#define MPI_FLOAT_INT ((MPI_Datatype)0x1008)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x1110)
#define MPI_LONG_INT ((MPI_Datatype)0x1208)
#define MPI_2INT ((MPI_Datatype)0x1308)
#define MPI_SHORT_INT ((MPI_Datatype)0x1408)

/* Reduction operations. */
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_SUM ((MPI_Op)1)
#define MPI_PROD ((MPI_Op)2)
#define MPI_MIN ((MPI_Op)3)
#define MPI_MAX ((MPI_Op)4)
#define MPI_LAND ((MPI_Op)5)
#define MPI_LOR ((MPI_Op)6)
#define MPI_BAND ((MPI_Op)7)
#define MPI_BOR ((MPI_Op)8)
#define MPI_LXOR ((MPI_Op)9)
#define MPI_BXOR ((MPI_Op)10)
#define MPI_MINLOC ((MPI_Op)11)
#define MPI_MAXLOC ((MPI_Op)12)

/* Wildcards and sentinels. */
#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-3)
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)

/* Error classes; every function returns MPI_SUCCESS or one of these. The default error
 * handler is MPI_ERRORS_ARE_FATAL, so a program normally never sees a failure code. */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_ROOT 7
#define MPI_ERR_OP 9
#define MPI_ERR_ARG 12
#define MPI_ERR_TRUNCATE 14
#define MPI_ERR_OTHER 15
#define MPI_ERR_INTERN 16
#define MPI_ERR_PENDING 18
#define MPI_ERR_REQUEST 19

/* Environment. */
int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
double MPI_Wtime(void);
int MPI_Abort(MPI_Comm comm, int errorcode);

/* Point-to-point. */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request *requests, MPI_Status *statuses);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count);

/* Collectives. */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
	MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* DPCL_MPI_H */
