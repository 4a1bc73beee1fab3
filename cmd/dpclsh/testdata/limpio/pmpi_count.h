/* pmpi_count.h: a PMPI counting wrapper, the native reference for limpio's call counts.
 * Included after a C or C++ program's source in one translation unit (for a Fortran program,
 * compiled alone and linked in: MPICH's Fortran bindings call the C entries), it defines the
 * MPI functions the example programs call; each counts itself and the bytes it moves (count x
 * PMPI_Type_size of the buffer it sends or contributes, as limpio.message_bytes) and calls its
 * PMPI_ twin. MPI_Finalize prints one line per function called: "pmpi MPI_Name count bytes".
 * Each call is also counted at its callsite, the wrapper's return address, printed as an
 * offset from __executable_start: "pmpisite MPI_Name 0xOFFSET count", for addr2line. The
 * wrappers are never inlined into the program (one translation unit with it), so the
 * return address is the program's. */
#include <stdio.h>

#define PMPI_WRAP __attribute__((noinline))
#define PMPI_COUNT(i) pmpi_count(i, __builtin_return_address(0))

enum { C_Allreduce, C_Barrier, C_Bcast, C_Comm_rank, C_Comm_size, C_Finalize, C_Gather,
       C_Gatherv, C_Init, C_Irecv, C_Isend, C_Recv, C_Reduce, C_Send, C_Sendrecv, C_Wait,
       C_Waitall, C_Alltoallv, C_Ialltoallv, C_Alltoallw, C_Scatterv, C_Reduce_scatter,
       C_Comm_split, C_Comm_free, C_Type_contiguous, C_Type_commit, C_Type_free, C_N };
static const char *pmpi_names[C_N] = {"MPI_Allreduce", "MPI_Barrier", "MPI_Bcast",
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize", "MPI_Gather", "MPI_Gatherv", "MPI_Init",
    "MPI_Irecv", "MPI_Isend", "MPI_Recv", "MPI_Reduce", "MPI_Send", "MPI_Sendrecv", "MPI_Wait",
    "MPI_Waitall", "MPI_Alltoallv", "MPI_Ialltoallv", "MPI_Alltoallw", "MPI_Scatterv",
    "MPI_Reduce_scatter", "MPI_Comm_split", "MPI_Comm_free", "MPI_Type_contiguous",
    "MPI_Type_commit", "MPI_Type_free"};
static long pmpi_counts[C_N];
static long long pmpi_bytes[C_N];

extern char __executable_start;
enum { PMPI_SITES = 256 };
static struct { int fn; const char *ret; long n; } pmpi_sites[PMPI_SITES];
static int pmpi_nsites;

/* pmpi_count counts a call of function i and its callsite; past PMPI_SITES distinct
 * callsites the calls are still counted, under no site. */
static void pmpi_count(int i, const void *ret) {
    int k;
    pmpi_counts[i]++;
    for (k = 0; k < pmpi_nsites; k++) {
        if (pmpi_sites[k].fn == i && pmpi_sites[k].ret == (const char *)ret) {
            pmpi_sites[k].n++;
            return;
        }
    }
    if (pmpi_nsites < PMPI_SITES) {
        pmpi_sites[pmpi_nsites].fn = i;
        pmpi_sites[pmpi_nsites].ret = (const char *)ret;
        pmpi_sites[pmpi_nsites].n = 1;
        pmpi_nsites++;
    }
}

static void pmpi_moves(int i, int n, MPI_Datatype t) {
    int size;
    PMPI_Type_size(t, &size);
    pmpi_bytes[i] += (long long)n * size;
}

/* pmpi_peers is how many ranks a collective on c sends to: the remote group of an
 * intercommunicator, else the communicator's own. */
static int pmpi_peers(MPI_Comm c) {
    int inter, n;
    PMPI_Comm_test_inter(c, &inter);
    if (inter)
        PMPI_Comm_remote_size(c, &n);
    else
        PMPI_Comm_size(c, &n);
    return n;
}

/* pmpi_moves_v counts a counts array over n ranks in type t. */
static void pmpi_moves_v(int i, const int counts[], int n, MPI_Datatype t) {
    int k;
    for (k = 0; k < n; k++)
        pmpi_moves(i, counts[k], t);
}

PMPI_WRAP int MPI_Alltoallv(const void *s, const int sc[], const int sd[], MPI_Datatype st, void *r,
                  const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm c) {
    PMPI_COUNT(C_Alltoallv);
    pmpi_moves_v(C_Alltoallv, sc, pmpi_peers(c), st);
    return PMPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, c);
}
PMPI_WRAP int MPI_Ialltoallv(const void *s, const int sc[], const int sd[], MPI_Datatype st, void *r,
                   const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm c, MPI_Request *q) {
    PMPI_COUNT(C_Ialltoallv);
    pmpi_moves_v(C_Ialltoallv, sc, pmpi_peers(c), st);
    return PMPI_Ialltoallv(s, sc, sd, st, r, rc, rd, rt, c, q);
}
PMPI_WRAP int MPI_Alltoallw(const void *s, const int sc[], const int sd[], const MPI_Datatype st[],
                  void *r, const int rc[], const int rd[], const MPI_Datatype rt[], MPI_Comm c) {
    int k, n = pmpi_peers(c);
    PMPI_COUNT(C_Alltoallw);
    for (k = 0; k < n; k++)
        pmpi_moves(C_Alltoallw, sc[k], st[k]);
    return PMPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, c);
}
PMPI_WRAP int MPI_Scatterv(const void *s, const int sc[], const int sd[], MPI_Datatype st, void *r,
                 int rn, MPI_Datatype rt, int root, MPI_Comm c) {
    int inter, me;
    PMPI_COUNT(C_Scatterv);
    PMPI_Comm_test_inter(c, &inter);
    PMPI_Comm_rank(c, &me);
    if (root == MPI_ROOT || (!inter && root == me))
        pmpi_moves_v(C_Scatterv, sc, pmpi_peers(c), st);
    return PMPI_Scatterv(s, sc, sd, st, r, rn, rt, root, c);
}
PMPI_WRAP int MPI_Reduce_scatter(const void *s, void *r, const int rc[], MPI_Datatype t, MPI_Op op,
                       MPI_Comm c) {
    int n;
    PMPI_COUNT(C_Reduce_scatter);
    PMPI_Comm_size(c, &n);
    pmpi_moves_v(C_Reduce_scatter, rc, n, t);
    return PMPI_Reduce_scatter(s, r, rc, t, op, c);
}
PMPI_WRAP int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out) {
    PMPI_COUNT(C_Comm_split);
    return PMPI_Comm_split(c, color, key, out);
}
PMPI_WRAP int MPI_Comm_free(MPI_Comm *c) {
    PMPI_COUNT(C_Comm_free);
    return PMPI_Comm_free(c);
}
PMPI_WRAP int MPI_Type_contiguous(int n, MPI_Datatype t, MPI_Datatype *out) {
    PMPI_COUNT(C_Type_contiguous);
    return PMPI_Type_contiguous(n, t, out);
}
PMPI_WRAP int MPI_Type_commit(MPI_Datatype *t) {
    PMPI_COUNT(C_Type_commit);
    return PMPI_Type_commit(t);
}
PMPI_WRAP int MPI_Type_free(MPI_Datatype *t) {
    PMPI_COUNT(C_Type_free);
    return PMPI_Type_free(t);
}
PMPI_WRAP int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
    PMPI_COUNT(C_Allreduce);
    pmpi_moves(C_Allreduce, n, t);
    return PMPI_Allreduce(s, r, n, t, op, c);
}
PMPI_WRAP int MPI_Barrier(MPI_Comm c) {
    PMPI_COUNT(C_Barrier);
    return PMPI_Barrier(c);
}
PMPI_WRAP int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
    PMPI_COUNT(C_Bcast);
    pmpi_moves(C_Bcast, n, t);
    return PMPI_Bcast(b, n, t, root, c);
}
PMPI_WRAP int MPI_Comm_rank(MPI_Comm c, int *r) {
    PMPI_COUNT(C_Comm_rank);
    return PMPI_Comm_rank(c, r);
}
PMPI_WRAP int MPI_Comm_size(MPI_Comm c, int *s) {
    PMPI_COUNT(C_Comm_size);
    return PMPI_Comm_size(c, s);
}
PMPI_WRAP int MPI_Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
               int root, MPI_Comm c) {
    PMPI_COUNT(C_Gather);
    pmpi_moves(C_Gather, sn, st);
    return PMPI_Gather(s, sn, st, r, rn, rt, root, c);
}
PMPI_WRAP int MPI_Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[],
                const int d[], MPI_Datatype rt, int root, MPI_Comm c) {
    PMPI_COUNT(C_Gatherv);
    pmpi_moves(C_Gatherv, sn, st);
    return PMPI_Gatherv(s, sn, st, r, rn, d, rt, root, c);
}
PMPI_WRAP int MPI_Init(int *argc, char ***argv) {
    PMPI_COUNT(C_Init);
    return PMPI_Init(argc, argv);
}
PMPI_WRAP int MPI_Irecv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *q) {
    PMPI_COUNT(C_Irecv);
    return PMPI_Irecv(b, n, t, src, tag, c, q);
}
PMPI_WRAP int MPI_Isend(const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c,
              MPI_Request *q) {
    PMPI_COUNT(C_Isend);
    pmpi_moves(C_Isend, n, t);
    return PMPI_Isend(b, n, t, dst, tag, c, q);
}
PMPI_WRAP int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s) {
    PMPI_COUNT(C_Recv);
    return PMPI_Recv(b, n, t, src, tag, c, s);
}
PMPI_WRAP int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
    PMPI_COUNT(C_Reduce);
    pmpi_moves(C_Reduce, n, t);
    return PMPI_Reduce(s, r, n, t, op, root, c);
}
PMPI_WRAP int MPI_Send(const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c) {
    PMPI_COUNT(C_Send);
    pmpi_moves(C_Send, n, t);
    return PMPI_Send(b, n, t, dst, tag, c);
}
PMPI_WRAP int MPI_Sendrecv(const void *sb, int sn, MPI_Datatype st, int dst, int stag, void *rb, int rn,
                 MPI_Datatype rt, int src, int rtag, MPI_Comm c, MPI_Status *s) {
    PMPI_COUNT(C_Sendrecv);
    pmpi_moves(C_Sendrecv, sn, st);
    return PMPI_Sendrecv(sb, sn, st, dst, stag, rb, rn, rt, src, rtag, c, s);
}
PMPI_WRAP int MPI_Wait(MPI_Request *q, MPI_Status *s) {
    PMPI_COUNT(C_Wait);
    return PMPI_Wait(q, s);
}
PMPI_WRAP int MPI_Waitall(int n, MPI_Request q[], MPI_Status s[]) {
    PMPI_COUNT(C_Waitall);
    return PMPI_Waitall(n, q, s);
}
PMPI_WRAP int MPI_Finalize(void) {
    int i;
    PMPI_COUNT(C_Finalize);
    for (i = 0; i < C_N; i++) {
        if (pmpi_counts[i] > 0) {
            printf("pmpi %s %ld %lld\n", pmpi_names[i], pmpi_counts[i], pmpi_bytes[i]);
        }
    }
    for (i = 0; i < pmpi_nsites; i++) {
        printf("pmpisite %s 0x%lx %ld\n", pmpi_names[pmpi_sites[i].fn],
               (unsigned long)(pmpi_sites[i].ret - &__executable_start), pmpi_sites[i].n);
    }
    fflush(stdout);
    return PMPI_Finalize();
}
