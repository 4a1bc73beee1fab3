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
typedef int MPI_Group;
typedef int MPI_Errhandler;
typedef long MPI_Aint;
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *type);

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int count; /* bytes received */
} MPI_Status;

/* Communicators. */
#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD ((MPI_Comm)1)
#define MPI_COMM_SELF ((MPI_Comm)2)

/* Groups: lists of world ranks kept by the library. */
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY ((MPI_Group)1)

/* Results of MPI_Comm_compare and MPI_Group_compare. */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Topologies. */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3

/* Datatypes: (kind << 8) | element size in bytes (PowerPC 32-bit ABI). */
#define MPI__TYPE_SIZE(t) ((int)((t) & 0xff))
#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
/* Derived datatypes (MPI_Type_contiguous and the rest) have handles at MPI__DERIVED and
 * above; the library packs and unpacks them around the engine's calls. */
#define MPI__DERIVED 0x10000
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
#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-3)
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BOTTOM ((void *)0)
#define MPI_MAX_PROCESSOR_NAME 128
#define MPI_BSEND_OVERHEAD 0
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)1)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)2)

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
#define MPI_ERR_GROUP 8
#define MPI_ERR_DIMS 11
#define MPI_ERR_TOPOLOGY 10
#define MPI_ERR_NO_MEM 34

/* Environment. */
int MPI_Init(int *argc, char ***argv);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
double MPI_Wtime(void);
int MPI_Abort(MPI_Comm comm, int errorcode);
int MPI_Finalized(int *flag);
double MPI_Wtick(void);
int MPI_Pcontrol(const int level, ...);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);

/* Communicators and groups. */
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
	int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Group_free(MPI_Group *group);

/* Cartesian topologies: kept by the library over a communicator of the engine. */
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
	MPI_Comm *comm_cart);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Topo_test(MPI_Comm comm, int *status);

/* Datatypes and operations. */
int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int blocklengths[], const int displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displs[],
	const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *type);
int MPI_Type_free(MPI_Datatype *type);
int MPI_Type_size(MPI_Datatype type, int *size);
int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Get_address(const void *location, MPI_Aint *address);
int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);

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
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status *statuses);
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status);
int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
	MPI_Status *statuses);
int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
	MPI_Status *statuses);
/* Ready and buffered sends are eager sends here, as MPI_Send is: they return once the data
 * is copied. A synchronous send (MPI_Ssend, MPI_Issend's request) completes once the
 * matching receive has taken the message. */
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
/* Persistent requests: Start issues the saved operation; Wait and Test leave the handle
 * (inactive) for the next Start; MPI_Request_free frees it. */
int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request requests[]);
int MPI_Request_free(MPI_Request *request);
int MPI_Buffer_attach(void *buffer, int size);
int MPI_Buffer_detach(void *buffer_addr, int *size);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
	int source, int recvtag, MPI_Comm comm, MPI_Status *status);
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
int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
	MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
	MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm);

/* Fortran. The datatypes of mpif.h and the mpi module, usable from C as with MPICH: handles
 * follow the rule above, with kinds 0x40-0x51 of their own. A Fortran program calls
 * mpi_xxx_ (libmpi_f.c, a member of libmpi.a of its own), which calls the C function;
 * Fortran handles are these same integers. */
#define MPI_CHARACTER ((MPI_Datatype)0x4001)
#define MPI_INTEGER ((MPI_Datatype)0x4104)
#define MPI_REAL ((MPI_Datatype)0x4204)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)0x4308)
#define MPI_COMPLEX ((MPI_Datatype)0x4408)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)0x4510)
#define MPI_LOGICAL ((MPI_Datatype)0x4604)
#define MPI_2INTEGER ((MPI_Datatype)0x4708)
#define MPI_2REAL ((MPI_Datatype)0x4808)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)0x4910)
#define MPI_INTEGER1 ((MPI_Datatype)0x4a01)
#define MPI_INTEGER2 ((MPI_Datatype)0x4b02)
#define MPI_INTEGER4 ((MPI_Datatype)0x4c04)
#define MPI_INTEGER8 ((MPI_Datatype)0x4d08)
#define MPI_REAL4 ((MPI_Datatype)0x4e04)
#define MPI_REAL8 ((MPI_Datatype)0x4f08)
#define MPI_COMPLEX8 ((MPI_Datatype)0x5008)
#define MPI_COMPLEX16 ((MPI_Datatype)0x5110)

/* ---- Environment: versions, errors and error handlers, info, attributes, names (libmpi_err.c, libmpi_info.c, libmpi_attr.c). ---- */
#define MPI_VERSION 3
#define MPI_SUBVERSION 1
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_LIBRARY_VERSION_STRING 256

/* Thread levels: the CNK runs one thread per process, so MPI_THREAD_SINGLE is provided whatever is asked. */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* Address- and offset-sized integers as datatypes: integers of their size on the 32-bit
 * PowerPC, with handles of their own (as MPICH's): their names are their own and
 * external32 makes each 8 bytes. */
#define MPI_AINT ((MPI_Datatype)0x3c04)
#define MPI_OFFSET ((MPI_Datatype)0x3d08)
#define MPI_COUNT ((MPI_Datatype)0x3e08)
#if defined(__cplusplus) && __cplusplus < 201103L /* C++98 has no long long; glibc's int64_t is one */
#include <stdint.h>
typedef int64_t MPI_Offset; typedef int64_t MPI_Count;
#else
__extension__ typedef long long MPI_Offset;
__extension__ typedef long long MPI_Count;
#endif
/* ---- Datatypes: more constructors, envelopes and MPI_Pack (libmpi_dtcons.c). ---- */

/* MPI_PACKED: bytes written by MPI_Pack, sent and received like MPI_BYTE. */
#define MPI_PACKED ((MPI_Datatype)0x3f01)

/* Datatype constructors, as MPI_Type_get_envelope names them (MPICH's values). */
#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength, const int displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
	MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *true_lb, MPI_Aint *true_extent);
int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *true_lb, MPI_Count *true_extent);
int MPI_Type_get_envelope(MPI_Datatype type, int *num_integers, int *num_addresses,
	int *num_datatypes, int *combiner);
int MPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
	int max_datatypes, int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[]);
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
	int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
	MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size);

/* ---- end of datatypes: more constructors ---- */

/* ---- Group set operations and rank ranges (libmpi_groups.c). ---- */
int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
/* ---- end of group set operations ---- */

/* ---- Requests: cancel, status without freeing, Isendrecv (libmpi_requests.c). ---- */
int MPI_Cancel(MPI_Request *request);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Request *request);
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
	int source, int recvtag, MPI_Comm comm, MPI_Request *request);
/* ---- end of requests ---- */

/* ---- Nonblocking collectives (libmpi_icoll.c): predefined types and operations. ---- */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
	MPI_Request *request);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
	MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
	MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
	MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
	MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
	MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
	MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
/* Their blocking forms new with them (libmpi_coll.c). */
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm);
/* ---- end of nonblocking collectives ---- */

/* Error classes beyond the ones above (MPICH's numbers); MPI_Add_error_class and
 * MPI_Add_error_code make new ones above MPI_ERR_LASTCODE. */
#define MPI_ERR_UNKNOWN 13
#define MPI_ERR_IN_STATUS 17
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_BAD_FILE 22
#define MPI_ERR_CONVERSION 23
#define MPI_ERR_DUP_DATAREP 24
#define MPI_ERR_FILE_EXISTS 25
#define MPI_ERR_FILE_IN_USE 26
#define MPI_ERR_FILE 27
#define MPI_ERR_INFO 28
#define MPI_ERR_INFO_KEY 29
#define MPI_ERR_INFO_VALUE 30
#define MPI_ERR_INFO_NOKEY 31
#define MPI_ERR_IO 32
#define MPI_ERR_NAME 33
#define MPI_ERR_NOT_SAME 35
#define MPI_ERR_NO_SPACE 36
#define MPI_ERR_NO_SUCH_FILE 37
#define MPI_ERR_PORT 38
#define MPI_ERR_QUOTA 39
#define MPI_ERR_READ_ONLY 40
#define MPI_ERR_SERVICE 41
#define MPI_ERR_SPAWN 42
#define MPI_ERR_UNSUPPORTED_DATAREP 43
#define MPI_ERR_UNSUPPORTED_OPERATION 44
#define MPI_ERR_WIN 45
#define MPI_ERR_BASE 46
#define MPI_ERR_LOCKTYPE 47
#define MPI_ERR_KEYVAL 48
#define MPI_ERR_RMA_CONFLICT 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_SIZE 51
#define MPI_ERR_DISP 52
#define MPI_ERR_ASSERT 53
#define MPI_ERR_LASTCODE 63

/* Error handlers: MPI_ERRORS_ARE_FATAL (the default) and MPI_ERRORS_RETURN above, and user
 * handlers from MPI_Comm_create_errhandler. With MPI_ERRORS_RETURN a failing call returns
 * its error class; the errors libmpi itself detects in datatype and operation arguments
 * stay fatal. */
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);

/* Info objects: ordered lists of (key, value) strings kept by libmpi. MPI_INFO_ENV is
 * empty: the machine's launcher passes no hints. */
typedef int MPI_Info;
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_INFO_ENV ((MPI_Info)1)
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr);
int MPI_Free_mem(void *base);

/* Attributes on communicators: the predefined keys (read-only, on MPI_COMM_WORLD and
 * MPI_COMM_SELF) and keyvals with copy and delete callbacks, run by MPI_Comm_dup and
 * MPI_Comm_free. */
#define MPI_KEYVAL_INVALID 0
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int keyval, void *extra_state,
	void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *attribute_val,
	void *extra_state);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)1)
int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy_fn,
	MPI_Comm_delete_attr_function *delete_fn, int *keyval, void *extra_state);
int MPI_Comm_free_keyval(int *keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Comm_get_attr(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int keyval);
/* MPI-1's names for the same (deprecated, still in MPI 3.1). */
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
#define MPI_NULL_COPY_FN MPI_COMM_NULL_COPY_FN
#define MPI_NULL_DELETE_FN MPI_COMM_NULL_DELETE_FN
#define MPI_DUP_FN MPI_COMM_DUP_FN
int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
	void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);
int MPI_Comm_set_name(MPI_Comm comm, const char *name);
int MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen);

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Get_library_version(char *version, int *resultlen);
/* ---- end of the environment section ---- */

/* ---- intercommunicators and more communicator constructors (libmpi_inter.c) ---- */
/* An intercommunicator collective's root argument in the root's own group: MPI_ROOT at
 * the root, MPI_PROC_NULL at the others. */
#define MPI_ROOT (-4)
/* MPI_Comm_split_type: on Blue Gene/L a compute node's memory is one rank's own (each
 * rank runs on a node of its own), so MPI_COMM_TYPE_SHARED gives each rank a
 * communicator of itself. */
#define MPI_COMM_TYPE_SHARED 1
/* MPI 4.0's hardware splits: the one resource type is "mpi_shared_memory", the node. */
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
	int tag, MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request);
/* Attributes on datatypes (libmpi_tattr.c), and the basic elements a status counts. */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
	void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val,
	void *extra_state);
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)0)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)0)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)1)
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
	MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state);
int MPI_Type_free_keyval(int *type_keyval);
int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val);
int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag);
int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
/* ---- end of the intercommunicator section ---- */
/* One-sided communication (libmpi_win.c; the engine's mpi_win*.go). A window's handle is
 * that of a private duplicate of its communicator. Operations complete, and reach the
 * target's memory, at the synchronisation call that ends their epoch: fence, unlock,
 * flush, complete. A Blue Gene/L node's shared-memory domain is its one rank, so
 * MPI_Win_allocate_shared needs a communicator of one rank. */
typedef int MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)0)
#define MPI_REPLACE ((MPI_Op)13)
#define MPI_NO_OP ((MPI_Op)14)
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
#define MPI_ERR_RMA_RANGE 55
#define MPI_ERR_RMA_ATTACH 56
#define MPI_ERR_RMA_SHARED 57
#define MPI_ERR_RMA_FLAVOR 58
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int keyval, void *extra_state,
	void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int keyval, void *attribute_val,
	void *extra_state);
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)0)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)0)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function *)1)
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win);
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
	MPI_Win *win);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);
int MPI_Win_set_name(MPI_Win win, const char *name);
int MPI_Win_get_name(MPI_Win win, char *name, int *resultlen);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn, MPI_Win_delete_attr_function *delete_fn,
	int *keyval, void *extra_state);
int MPI_Win_free_keyval(int *keyval);
int MPI_Win_set_attr(MPI_Win win, int keyval, void *attribute_val);
int MPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag);
int MPI_Win_delete_attr(MPI_Win win, int keyval);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
	MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
	MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win);
int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
	MPI_Request *request);
int MPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
	MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
	MPI_Request *request);
int MPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Win_test(MPI_Win win, int *flag);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
/* ---- end of the one-sided section ---- */

/* ---- MPI-IO (libmpi_io.c; the engine's mpi_io.go) ---- */
/* Files live on the machine's CIOD file system: a rank's file I/O is the POSIX calls the
 * Compute Node Kernel ships to the job's I/O node, with their costs, and a file name is
 * relative to the job's working directory (a ROMIO prefix such as "ufs:" is dropped). A
 * file's handle is that of a private duplicate of its communicator; the collective calls
 * sync its group, and the shared file pointer is kept by the engine. Files start with
 * MPI_FILE_NULL's error handler, MPI_ERRORS_RETURN unless the program changes it. The data
 * representations are "native", "internal" and "external32", which on the big-endian
 * PowerPC are the same bytes for every type whose size agrees. The data semantics are a
 * POSIX file's: MPI_File_set_atomicity is recorded, and each contiguous piece of an access
 * is one call the CIOD serves whole. */
typedef int MPI_File;
#define MPI_FILE_NULL ((MPI_File)0)
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT (-54278278)
#define MPI_MAX_DATAREP_STRING 128
typedef void MPI_File_errhandler_function(MPI_File *file, int *code, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn;
int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh);
int MPI_File_close(MPI_File *fh);
int MPI_File_delete(const char *filename, MPI_Info info);
int MPI_File_set_size(MPI_File fh, MPI_Offset size);
int MPI_File_preallocate(MPI_File fh, MPI_Offset size);
int MPI_File_get_size(MPI_File fh, MPI_Offset *size);
int MPI_File_get_group(MPI_File fh, MPI_Group *group);
int MPI_File_get_amode(MPI_File fh, int *amode);
int MPI_File_set_info(MPI_File fh, MPI_Info info);
int MPI_File_get_info(MPI_File fh, MPI_Info *info_used);
int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
	const char *datarep, MPI_Info info);
int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
	char *datarep);
int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status);
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status);
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status);
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
	MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request);
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request);
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request);
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
	MPI_Datatype datatype, MPI_Request *request);
int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request);
int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position(MPI_File fh, MPI_Offset *offset);
int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp);
int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status);
int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request);
int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request);
int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status);
int MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status);
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence);
int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset);
int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype);
int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
	MPI_Datatype datatype);
int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype);
int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype);
int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype);
int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status);
int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype);
int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status);
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent);
int MPI_File_set_atomicity(MPI_File fh, int flag);
int MPI_File_get_atomicity(MPI_File fh, int *flag);
int MPI_File_sync(MPI_File fh);
int MPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler);
int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler);
int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler);
int MPI_File_call_errhandler(MPI_File fh, int errorcode);
MPI_File MPI_File_f2c(int file);
int MPI_File_c2f(MPI_File file);
/* Array datatypes, what file views of distributed arrays are made of (libmpi_darray.c). */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[],
	int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
	const int dargs[], const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
/* ROMIO's names from before MPI-2 had requests for I/O: they are MPI's. */
#define MPIO_USES_MPI_REQUEST
#define MPIO_Request MPI_Request
#define MPIO_REQUEST_NULL MPI_REQUEST_NULL
#define MPIO_Wait MPI_Wait
#define MPIO_Test MPI_Test
/* ---- end of the MPI-IO section ---- */

/* ---- Graph topologies and topology maps (libmpi_graph.c). ---- */
/* A distributed graph's weights: none at all, or weighted with no edge to give here.
 * Each is the address of an object of libmpi's, as with MPICH, so no array of weights
 * can be mistaken for one and compilers see an object where they expect an array. */
extern int MPI__unweighted[1], MPI__weights_empty[1];
#define MPI_UNWEIGHTED (MPI__unweighted)
#define MPI_WEIGHTS_EMPTY (MPI__weights_empty)
int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
	MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);
int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
	const int sourceweights[], int outdegree, const int destinations[], const int destweights[],
	MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
	const int destinations[], const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
	int maxoutdegree, int destinations[], int destweights[]);
/* ---- end of graph topologies ---- */

/* ---- Matched probes (libmpi_mprobe.c). ---- */
typedef int MPI_Message;
typedef int MPI_Fint;
#define MPI_MESSAGE_NULL ((MPI_Message)0)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)-1)
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request);
MPI_Message MPI_Message_f2c(MPI_Fint message);
MPI_Fint MPI_Message_c2f(MPI_Message message);
MPI_Message PMPI_Message_f2c(MPI_Fint message);
MPI_Fint PMPI_Message_c2f(MPI_Message message);
/* ---- end of matched probes ---- */

/* ---- More predefined datatypes: C99, C++ and long double (bgl/mpi_types_c99.go). ---- */
/* long double is the PowerPC's 16-byte IBM double-double: sent and received, never
 * reduced (the engine refuses a reduction on it with MPI_ERR_OP). */
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x1510)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)0x1620)
#define MPI_WCHAR ((MPI_Datatype)0x1704)
#define MPI_C_BOOL ((MPI_Datatype)0x1801)
#define MPI_CXX_BOOL ((MPI_Datatype)0x1901)
#define MPI_INT8_T ((MPI_Datatype)0x1a01)
#define MPI_INT16_T ((MPI_Datatype)0x1b02)
#define MPI_INT32_T ((MPI_Datatype)0x1c04)
#define MPI_INT64_T ((MPI_Datatype)0x1d08)
#define MPI_UINT8_T ((MPI_Datatype)0x1e01)
#define MPI_UINT16_T ((MPI_Datatype)0x1f02)
#define MPI_UINT32_T ((MPI_Datatype)0x2004)
#define MPI_UINT64_T ((MPI_Datatype)0x2108)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)0x2208)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x2310)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x2420)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)0x2508)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)0x2610)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x2720)
/* MPI_Type_match_size's classes (MPICH's values). */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
int MPI_Type_set_name(MPI_Datatype type, const char *name);
int MPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen);
/* ---- end of more predefined datatypes ---- */

/* ---- Local reductions (libmpi_collmore.c). ---- */
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type, MPI_Op op);
int MPI_Op_commutative(MPI_Op op, int *commute);
/* ---- end of local reductions ---- */

/* ---- external32 packing (libmpi_packext.c): MPI_Pack's bytes, the PowerPC being
 * big-endian; long double is refused. ---- */
int MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype type,
	void *outbuf, MPI_Aint outsize, MPI_Aint *position);
int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
	void *outbuf, int outcount, MPI_Datatype type);
int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type, MPI_Aint *size);
/* ---- end of external32 packing ---- */

/* ---- datatype, this stop: MPI 4.0's large-count (_c) datatype calls
 * (libmpi_dtlarge.c); every MPI_Count must fit 32 bits on this machine (else
 * MPI_ERR_COUNT). ---- */
int MPI_Type_size_c(MPI_Datatype type, MPI_Count *size);
int MPI_Type_get_extent_c(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_get_true_extent_c(MPI_Datatype type, MPI_Count *true_lb, MPI_Count *true_extent);
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype);
int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
	MPI_Datatype *newtype);
int MPI_Type_indexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displs[],
	MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displs[],
	const MPI_Datatype types[], MPI_Datatype *newtype);
int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype);
int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype type, MPI_Comm comm, MPI_Count *size);
int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype type, void *outbuf, MPI_Count outsize,
	MPI_Count *position, MPI_Comm comm);
int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
	MPI_Datatype type, MPI_Comm comm);
int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype type, MPI_Count *size);
int MPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype type,
	void *outbuf, MPI_Count outsize, MPI_Count *position);
int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
	void *outbuf, MPI_Count outcount, MPI_Datatype type);
/* ---- end of datatype, this stop ---- */

/* ---- pt2pt and sessions, this stop (libmpi_session.c, libmpi_pt2pt_c.c, libmpi_greq.c). ---- */
/* MPI 4 sessions: the process sets are "mpi://WORLD" and "mpi://SELF". A session's
 * thread_level is the level asked for: the CNK runs one thread per process, so no two MPI
 * calls of a process overlap. The machine's MPI runs once per job: a program without
 * MPI_Init starts it with its first session and ends it with its last. */
typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
#define MPI_ERR_SESSION 59
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
int MPI_Session_finalize(MPI_Session *session);
int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name);
int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info);
int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup);
int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
	MPI_Errhandler errhandler, MPI_Comm *newcomm);
/* Large-count point-to-point calls: a count above INT_MAX is refused (MPI_ERR_COUNT), as a
 * node's 32-bit address space cannot hold such a buffer. */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Status *status);
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
	MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	MPI_Request *request);
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype type, int dest, int sendtag,
	int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count);
/* Generalized requests: the callbacks run in the calling rank, from Wait, Test and their
 * forms (query, then free), MPI_Request_free (free), MPI_Cancel (cancel) and
 * MPI_Request_get_status (query). */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
	MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
int MPI_Grequest_complete(MPI_Request request);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count);
/* ---- end of pt2pt and sessions ---- */

/* ---- collectives, this stop: the neighbourhood collectives (libmpi_neighbor.c) ---- */
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
	MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
	int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
	MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
	MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
/* ---- end of collectives, this stop ---- */

#ifdef __cplusplus
}
#endif

#endif /* DPCL_MPI_H */
