/* libmpi_collmore.c: what the engine's collectives leave to the library: reduce-scatters
 * with a user operation, MPI_Alltoallw with derived types, MPI_Reduce_local and
 * MPI_Op_commutative. Included by libmpi_coll.c.
 *
 * A reduce-scatter with a user operation is the user reduction of the whole vector
 * (libmpi_types.c's user_reduce), of which each rank keeps its block. MPI_Alltoallw with
 * derived types packs each peer's block into bytes, lets the engine exchange them with
 * MPI_BYTE and unpacks each received block, so the network cost is the same as with
 * predefined types of those sizes. */

/* user_reduce_scatter: recvcounts[i] elements of the reduction go to rank i. */
static int user_reduce_scatter(const char *call, const void *sendbuf, void *recvbuf, const int recvcounts[],
	MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	int rank, size, i, total = 0, before = 0, rc;
	long ext = dt_extent(type);
	char *all;

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	for (i = 0; i < size; i++) {
		if (recvcounts[i] < 0)
			lib_error(call, MPI_ERR_COUNT, "invalid recvcounts[%d] = %d", i, recvcounts[i]);
		if (i < rank)
			before += recvcounts[i];
		total += recvcounts[i];
	}
	all = dt_alloc(call, ext * total + 1);
	/* In place, the input is the whole vector in recvbuf. */
	rc = user_reduce(call, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, all, total, type, op, comm, 0, 0);
	memcpy(recvbuf, all + ext * before, ext * recvcounts[rank]);
	free(all);
	return rc;
}

static int user_reduce_scatter_block(const char *call, const void *sendbuf, void *recvbuf, int recvcount,
	MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	int size = dtc_size(comm), i, rc;
	int *counts = (int *)dt_alloc(call, sizeof(int) * (long)size);

	for (i = 0; i < size; i++)
		counts[i] = recvcount;
	rc = user_reduce_scatter(call, sendbuf, recvbuf, counts, type, op, comm);
	free(counts);
	return rc;
}

/* alltoallw_packed runs MPI_Alltoallw of derived types as one of bytes. */
static int alltoallw_packed(const void *sendbuf, const int sendcounts[], const int sdispls[],
	const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
	const MPI_Datatype recvtypes[], MPI_Comm comm)
{
	static const char call[] = "MPI_Alltoallw";
	int n = dtc_size(comm), i, sbytes = 0, rbytes = 0, rc, seg;
	int *sc = (int *)dt_alloc(call, sizeof(int) * 4 * (long)n), *sd = sc + n, *rc_ = sc + 2 * n, *rd = sc + 3 * n;
	MPI_Datatype *bytes = (MPI_Datatype *)dt_alloc(call, sizeof(MPI_Datatype) * (long)n);
	char *sb, *rb;
	unsigned long b[9];

	if (sendbuf == MPI_IN_PLACE) {
		/* The data to send is in recvbuf, laid out as what is received. */
		sendbuf = recvbuf;
		sendcounts = recvcounts;
		sdispls = rdispls;
		sendtypes = recvtypes;
	}
	for (i = 0; i < n; i++) {
		sc[i] = (int)(dt_size(sendtypes[i]) * sendcounts[i]);
		sd[i] = sbytes;
		sbytes += sc[i];
		rc_[i] = (int)(dt_size(recvtypes[i]) * recvcounts[i]);
		rd[i] = rbytes;
		rbytes += rc_[i];
		bytes[i] = MPI_BYTE;
	}
	sb = dt_alloc(call, sbytes + 1);
	rb = dt_alloc(call, rbytes + 1);
	for (i = 0; i < n; i++) {
		char *p;

		if (!is_derived(sendtypes[i])) {
			memcpy(sb + sd[i], (const char *)sendbuf + sdispls[i], sc[i]);
			continue;
		}
		p = dt_pack(call, (const char *)sendbuf + sdispls[i], sendcounts[i], sendtypes[i], &seg);
		memcpy(sb + sd[i], p, seg);
		free(p);
	}
	b[0] = W(sb);
	b[1] = W(sc);
	b[2] = W(sd);
	b[3] = W(bytes);
	b[4] = W(rb);
	b[5] = W(rc_);
	b[6] = W(rd);
	b[7] = W(bytes);
	b[8] = W(comm);
	rc = dpcl_mpi_alltoallw((long)b);
	for (i = 0; rc == MPI_SUCCESS && i < n; i++)
		dt_unpack(rb + rd[i], rc_[i], (char *)recvbuf + rdispls[i], recvcounts[i], recvtypes[i]);
	free(sb);
	free(rb);
	free(sc);
	free(bytes);
	return rc;
}

/* local_combine folds n elements of in into inout for a predefined operation on the C and
 * Fortran integer and floating types (MPI's table; MINLOC and MAXLOC are refused). */
#define LOCAL_ARITH(T)                                                                              \
	do {                                                                                            \
		const T *a = (const T *)in;                                                                 \
		T *b = (T *)inout;                                                                          \
		for (i = 0; i < n; i++)                                                                     \
			switch (op) {                                                                           \
			case MPI_SUM: b[i] = a[i] + b[i]; break;                                                \
			case MPI_PROD: b[i] = a[i] * b[i]; break;                                               \
			case MPI_MIN: b[i] = a[i] < b[i] ? a[i] : b[i]; break;                                  \
			case MPI_MAX: b[i] = a[i] > b[i] ? a[i] : b[i]; break;                                  \
			case MPI_LAND: b[i] = a[i] && b[i]; break;                                              \
			case MPI_LOR: b[i] = a[i] || b[i]; break;                                               \
			case MPI_LXOR: b[i] = !a[i] != !b[i]; break;                                            \
			default: return 0;                                                                      \
			}                                                                                       \
	} while (0)
#define LOCAL_INT(T)                                                                                \
	do {                                                                                            \
		const T *a = (const T *)in;                                                                 \
		T *b = (T *)inout;                                                                          \
		if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) {                                    \
			for (i = 0; i < n; i++)                                                                 \
				b[i] = op == MPI_BAND ? (a[i] & b[i]) : op == MPI_BOR ? (a[i] | b[i]) : (a[i] ^ b[i]); \
			return 1;                                                                               \
		}                                                                                           \
		LOCAL_ARITH(T);                                                                             \
	} while (0)

static int local_combine(const void *in, void *inout, int n, MPI_Datatype t, MPI_Op op)
{
	int i;

	switch (t) {
	case MPI_INT: case MPI_LONG: case MPI_INTEGER: case MPI_INTEGER4: case MPI_INT32_T: case MPI_WCHAR: case MPI_AINT:
		LOCAL_INT(int);
		break;
	case MPI_UNSIGNED: case MPI_UNSIGNED_LONG: case MPI_UINT32_T:
		LOCAL_INT(unsigned);
		break;
	case MPI_SHORT: case MPI_INT16_T: case MPI_INTEGER2:
		LOCAL_INT(short);
		break;
	case MPI_UNSIGNED_SHORT: case MPI_UINT16_T:
		LOCAL_INT(unsigned short);
		break;
	case MPI_SIGNED_CHAR: case MPI_INT8_T: case MPI_INTEGER1:
		LOCAL_INT(signed char);
		break;
	case MPI_UNSIGNED_CHAR: case MPI_UINT8_T: case MPI_BYTE:
		if (t == MPI_BYTE && op != MPI_BAND && op != MPI_BOR && op != MPI_BXOR)
			return 0;
		LOCAL_INT(unsigned char);
		break;
	case MPI_LONG_LONG: case MPI_INT64_T: case MPI_INTEGER8: case MPI_OFFSET: case MPI_COUNT:
		LOCAL_INT(long long);
		break;
	case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T:
		LOCAL_INT(unsigned long long);
		break;
	case MPI_FLOAT: case MPI_REAL: case MPI_REAL4:
		if (op > MPI_MAX)
			return 0;
		LOCAL_ARITH(float);
		break;
	case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8:
		if (op > MPI_MAX)
			return 0;
		LOCAL_ARITH(double);
		break;
	default:
		return 0;
	}
	return 1;
}

MPI_FN int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type, MPI_Op op)
{
	if (count < 0)
		lib_error("MPI_Reduce_local", MPI_ERR_COUNT, "invalid count %d", count);
	if (is_user_op(op)) {
		if (op - MPI__USER_OP >= MAX_OPS || user_ops[op - MPI__USER_OP].fn == NULL)
			lib_error("MPI_Reduce_local", MPI_ERR_OP, "invalid operation %d", op);
		user_ops[op - MPI__USER_OP].fn((void *)inbuf, inoutbuf, &count, &type);
		return MPI_SUCCESS;
	}
	if (!local_combine(inbuf, inoutbuf, count, type, op))
		lib_error("MPI_Reduce_local", MPI_ERR_OP, "operation %d on datatype %d is not one MPI_Reduce_local combines", op, type);
	return MPI_SUCCESS;
}

MPI_FN int MPI_Op_commutative(MPI_Op op, int *commute)
{
	if (op == MPI_OP_NULL || (is_user_op(op) && (op - MPI__USER_OP >= MAX_OPS || user_ops[op - MPI__USER_OP].fn == NULL)))
		lib_error("MPI_Op_commutative", MPI_ERR_OP, "invalid operation %d", op);
	*commute = is_user_op(op) ? user_ops[op - MPI__USER_OP].commute != 0 : 1;
	return MPI_SUCCESS;
}
