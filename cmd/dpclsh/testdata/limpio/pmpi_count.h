/* pmpi_count.h: a PMPI counting wrapper, the native reference for limpio's call counts.
 * Included after a C or C++ program's source in one translation unit (for a Fortran program,
 * compiled alone and linked in: MPICH's Fortran bindings call the C entries), it defines the
 * MPI functions the example programs call; each counts itself and the bytes it moves (count x
 * PMPI_Type_size of the buffer it sends or contributes, as limpio.message_bytes) and calls its
 * PMPI_ twin. MPI_Finalize prints one line per function called: "pmpi MPI_Name count bytes". */
#include <stdio.h>

enum { C_Allreduce, C_Barrier, C_Bcast, C_Comm_rank, C_Comm_size, C_Finalize, C_Gather,
       C_Gatherv, C_Init, C_Irecv, C_Isend, C_Recv, C_Reduce, C_Send, C_Sendrecv, C_Wait,
       C_Waitall, C_N };
static const char *pmpi_names[C_N] = {"MPI_Allreduce", "MPI_Barrier", "MPI_Bcast",
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize", "MPI_Gather", "MPI_Gatherv", "MPI_Init",
    "MPI_Irecv", "MPI_Isend", "MPI_Recv", "MPI_Reduce", "MPI_Send", "MPI_Sendrecv", "MPI_Wait",
    "MPI_Waitall"};
static long pmpi_counts[C_N];
static long long pmpi_bytes[C_N];

static void pmpi_moves(int i, int n, MPI_Datatype t) {
    int size;
    PMPI_Type_size(t, &size);
    pmpi_bytes[i] += (long long)n * size;
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
    pmpi_counts[C_Allreduce]++;
    pmpi_moves(C_Allreduce, n, t);
    return PMPI_Allreduce(s, r, n, t, op, c);
}
int MPI_Barrier(MPI_Comm c) {
    pmpi_counts[C_Barrier]++;
    return PMPI_Barrier(c);
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
    pmpi_counts[C_Bcast]++;
    pmpi_moves(C_Bcast, n, t);
    return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Comm_rank(MPI_Comm c, int *r) {
    pmpi_counts[C_Comm_rank]++;
    return PMPI_Comm_rank(c, r);
}
int MPI_Comm_size(MPI_Comm c, int *s) {
    pmpi_counts[C_Comm_size]++;
    return PMPI_Comm_size(c, s);
}
int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
               int root, MPI_Comm c) {
    pmpi_counts[C_Gather]++;
    pmpi_moves(C_Gather, sn, st);
    return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[],
                const int d[], MPI_Datatype rt, int root, MPI_Comm c) {
    pmpi_counts[C_Gatherv]++;
    pmpi_moves(C_Gatherv, sn, st);
    return PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c);
}
int MPI_Init(int *argc, char ***argv) {
    pmpi_counts[C_Init]++;
    return PMPI_Init(argc, argv);
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *q) {
    pmpi_counts[C_Irecv]++;
    return PMPI_Irecv(b, n, t, src, tag, c, q);
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c,
              MPI_Request *q) {
    pmpi_counts[C_Isend]++;
    pmpi_moves(C_Isend, n, t);
    return PMPI_Isend(b, n, t, dst, tag, c, q);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s) {
    pmpi_counts[C_Recv]++;
    return PMPI_Recv(b, n, t, src, tag, c, s);
}
int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
    pmpi_counts[C_Reduce]++;
    pmpi_moves(C_Reduce, n, t);
    return PMPI_Reduce(s, r, n, t, op, root, c);
}
int MPI_Send(const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c) {
    pmpi_counts[C_Send]++;
    pmpi_moves(C_Send, n, t);
    return PMPI_Send(b, n, t, dst, tag, c);
}
int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dst, int stag, void *rb, int rn,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm c, MPI_Status *s) {
    pmpi_counts[C_Sendrecv]++;
    pmpi_moves(C_Sendrecv, sn, st);
    return PMPI_Sendrecv(sb, sn, st, dst, stag, rb, rn, rt, src, rtag, c, s);
}
int MPI_Wait(MPI_Request *q, MPI_Status *s) {
    pmpi_counts[C_Wait]++;
    return PMPI_Wait(q, s);
}
int MPI_Waitall(int n, MPI_Request q[], MPI_Status s[]) {
    pmpi_counts[C_Waitall]++;
    return PMPI_Waitall(n, q, s);
}
int MPI_Finalize(void) {
    int i;
    pmpi_counts[C_Finalize]++;
    for (i = 0; i < C_N; i++) {
        if (pmpi_counts[i] > 0) {
            printf("pmpi %s %ld %lld\n", pmpi_names[i], pmpi_counts[i], pmpi_bytes[i]);
        }
    }
    fflush(stdout);
    return PMPI_Finalize();
}
