/* dt_cons: the datatype constructors beyond vector and indexed (hvector, hindexed,
 * indexed_block, hindexed_block, resized, dup) with their sizes, extents and true
 * extents, envelopes and contents, MPI_Pack/Unpack/Pack_size with an MPI_PACKED message,
 * and each new type carrying data in a Sendrecv around the ring. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 24 };

static int rank, size;

static void describe(const char *name, MPI_Datatype t)
{
	MPI_Aint lb, ext, tlb, text, addrs[8];
	MPI_Count sx, lbx, extx;
	MPI_Datatype types[4];
	int sz, ni, na, nd, comb, ints[16], i;
	char line[512];
	int len;

	MPI_Type_size(t, &sz);
	MPI_Type_get_extent(t, &lb, &ext);
	MPI_Type_get_true_extent(t, &tlb, &text);
	MPI_Type_size_x(t, &sx);
	MPI_Type_get_extent_x(t, &lbx, &extx);
	MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
	len = snprintf(line, sizeof line, "rank %d: %s: size %d lb %ld extent %ld true %ld %ld x %lld %lld %lld combiner %d (%d %d %d)",
		rank, name, sz, (long)lb, (long)ext, (long)tlb, (long)text, (long long)sx, (long long)lbx, (long long)extx, comb, ni, na, nd);
	if (comb != MPI_COMBINER_NAMED && ni <= 16 && na <= 8 && nd <= 4) {
		MPI_Type_get_contents(t, 16, 8, 4, ints, addrs, types);
		len += snprintf(line + len, sizeof line - len, " ints");
		for (i = 0; i < ni; i++)
			len += snprintf(line + len, sizeof line - len, " %d", ints[i]);
		len += snprintf(line + len, sizeof line - len, " addrs");
		for (i = 0; i < na; i++)
			len += snprintf(line + len, sizeof line - len, " %ld", (long)addrs[i]);
		for (i = 0; i < nd; i++) {
			int c2, a, b, d;

			MPI_Type_get_envelope(types[i], &a, &b, &d, &c2);
			len += snprintf(line + len, sizeof line - len, " type[%d] %s", i,
				types[i] == MPI_INT ? "MPI_INT" : types[i] == MPI_DOUBLE ? "MPI_DOUBLE" : c2 == MPI_COMBINER_NAMED ? "named" : "derived");
			if (c2 != MPI_COMBINER_NAMED)
				MPI_Type_free(&types[i]);
		}
	}
	printf("%s\n", line);
}

/* ring sends count elements of t from a buffer of ints 100*rank+i to the next rank and
 * prints what arrived from the previous one (untouched ints stay -1). */
static void ring(const char *name, MPI_Datatype t, int count)
{
	int s[N], r[N], i;
	char line[512];
	int len;

	for (i = 0; i < N; i++) {
		s[i] = 100 * rank + i;
		r[i] = -1;
	}
	MPI_Sendrecv(s, count, t, (rank + 1) % size, 0, r, count, t, (rank + size - 1) % size, 0,
		MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	len = snprintf(line, sizeof line, "rank %d: %s ring:", rank, name);
	for (i = 0; i < N; i++)
		len += snprintf(line + len, sizeof line - len, " %d", r[i]);
	printf("%s\n", line);
}

int main(int argc, char **argv)
{
	static char outbuf[4096];
	MPI_Datatype hvec, hidx, iblk, hblk, resized, dup, vec, pair;
	int bl[3] = {2, 1, 3}, disp[3] = {0, 5, 9}, pos, psize, i, a[4], got[4];
	MPI_Aint hd[3] = {4, 20, 40}, lb;
	double d[2];
	char packed[256];

	MPI_Init(&argc, &argv);
	setvbuf(stdout, outbuf, _IOLBF, sizeof outbuf);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	MPI_Type_create_hvector(3, 2, 16, MPI_INT, &hvec);
	MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &hidx);
	MPI_Type_create_indexed_block(3, 2, disp, MPI_INT, &iblk);
	MPI_Type_create_hindexed_block(3, 1, hd, MPI_INT, &hblk);
	MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
	MPI_Type_create_resized(vec, -4, 20, &resized);
	MPI_Type_dup(hvec, &dup);
	MPI_Type_create_hvector(2, 1, 8, MPI_DOUBLE, &pair);
	MPI_Type_commit(&hvec);
	MPI_Type_commit(&hidx);
	MPI_Type_commit(&iblk);
	MPI_Type_commit(&hblk);
	MPI_Type_commit(&resized);
	MPI_Type_commit(&dup);
	MPI_Type_commit(&pair);

	describe("MPI_INT", MPI_INT);
	describe("vector", vec);
	describe("hvector", hvec);
	describe("hindexed", hidx);
	describe("indexed_block", iblk);
	describe("hindexed_block", hblk);
	describe("resized", resized);
	describe("dup", dup);
	ring("hvector", hvec, 1);
	ring("hindexed", hidx, 1);
	ring("indexed_block", iblk, 1);
	ring("hindexed_block", hblk, 2);
	ring("resized", resized, 2);
	ring("dup", dup, 1);

	/* Pack a double pair and four ints, send the packed bytes, unpack them in order. */
	MPI_Pack_size(1, pair, MPI_COMM_WORLD, &psize);
	MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &i);
	psize += i;
	d[0] = rank + 0.5;
	d[1] = -rank;
	for (i = 0; i < 4; i++)
		a[i] = rank * 10 + i;
	pos = 0;
	MPI_Pack(d, 1, pair, packed, sizeof packed, &pos, MPI_COMM_WORLD);
	MPI_Pack(a, 4, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD);
	printf("rank %d: pack size %d position %d\n", rank, psize, pos);
	if (rank == 0 && size > 1) {
		MPI_Send(packed, pos, MPI_PACKED, size - 1, 7, MPI_COMM_WORLD);
	} else if (rank == size - 1 && size > 1) {
		MPI_Status st;
		int n;

		MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 7, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_PACKED, &n);
		pos = 0;
		d[0] = d[1] = 0;
		MPI_Unpack(packed, n, &pos, d, 1, pair, MPI_COMM_WORLD);
		MPI_Unpack(packed, n, &pos, got, 4, MPI_INT, MPI_COMM_WORLD);
		printf("rank %d: unpacked %d bytes: %.1f %.1f %d %d %d %d\n", rank, n, d[0], d[1], got[0], got[1], got[2], got[3]);
	}
	MPI_Type_get_extent(resized, &lb, &hd[0]);
	printf("rank %d: resized lb %ld extent %ld\n", rank, (long)lb, (long)hd[0]);

	MPI_Type_free(&hvec);
	MPI_Type_free(&hidx);
	MPI_Type_free(&iblk);
	MPI_Type_free(&hblk);
	MPI_Type_free(&resized);
	MPI_Type_free(&dup);
	MPI_Type_free(&vec);
	MPI_Type_free(&pair);
	MPI_Finalize();
	return 0;
}
