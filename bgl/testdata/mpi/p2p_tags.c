/* p2p_tags: point-to-point with tags and every datatype. Ranks pair up (0-1, 2-3, ...; a
 * last odd rank talks to itself); each sends its partner eight messages, one per datatype,
 * with tags 10..17 (Isend, so no ordering is needed), and receives them in reverse tag
 * order, which only tag matching can satisfy. */
#include "corpus.h"

struct msgs {
	char c[8];
	int i[3];
	long l[2];
	long long ll;
	unsigned u;
	float f[2];
	double d;
	unsigned char b[4];
};

static void fill(struct msgs *m, int r)
{
	int k;

	memset(m, 0, sizeof *m);
	snprintf(m->c, sizeof m->c, "r%03d", r);
	for (k = 0; k < 3; k++)
		m->i[k] = r * 100 - k;
	m->l[0] = -r;
	m->l[1] = 2000000000L - r;
	m->ll = 1000000000000LL * (r + 1) + r;
	m->u = 4000000000u - (unsigned)r;
	m->f[0] = 0.5f * r;
	m->f[1] = -1.25f;
	m->d = r + 0.125;
	for (k = 0; k < 4; k++)
		m->b[k] = (unsigned char)(r * 16 + k * 85);
}

int main(int argc, char **argv)
{
	struct msgs out, in;
	MPI_Request req[8];
	int partner, k;

	corpus_init(&argc, &argv);
	partner = corpus_rank ^ 1;
	if (partner >= corpus_size)
		partner = corpus_rank;
	fill(&out, corpus_rank);
	memset(&in, 0, sizeof in);
	MPI_Isend(out.c, 8, MPI_CHAR, partner, 10, MPI_COMM_WORLD, &req[0]);
	MPI_Isend(out.i, 3, MPI_INT, partner, 11, MPI_COMM_WORLD, &req[1]);
	MPI_Isend(out.l, 2, MPI_LONG, partner, 12, MPI_COMM_WORLD, &req[2]);
	MPI_Isend(&out.ll, 1, MPI_LONG_LONG, partner, 13, MPI_COMM_WORLD, &req[3]);
	MPI_Isend(&out.u, 1, MPI_UNSIGNED, partner, 14, MPI_COMM_WORLD, &req[4]);
	MPI_Isend(out.f, 2, MPI_FLOAT, partner, 15, MPI_COMM_WORLD, &req[5]);
	MPI_Isend(&out.d, 1, MPI_DOUBLE, partner, 16, MPI_COMM_WORLD, &req[6]);
	MPI_Isend(out.b, 4, MPI_BYTE, partner, 17, MPI_COMM_WORLD, &req[7]);
	MPI_Recv(in.b, 4, MPI_BYTE, partner, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(&in.d, 1, MPI_DOUBLE, partner, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(in.f, 2, MPI_FLOAT, partner, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(&in.u, 1, MPI_UNSIGNED, partner, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(&in.ll, 1, MPI_LONG_LONG, partner, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(in.l, 2, MPI_LONG, partner, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(in.i, 3, MPI_INT, partner, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Recv(in.c, 8, MPI_CHAR, partner, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Waitall(8, req, MPI_STATUSES_IGNORE);

	say("from %d: char \"%s\" int %d %d %d long %ld %ld", partner, in.c, in.i[0], in.i[1],
		in.i[2], in.l[0], in.l[1]);
	say("from %d: long long %lld unsigned %u float %g %g double %.3f byte %u %u %u %u",
		partner, in.ll, in.u, in.f[0], in.f[1], in.d, in.b[0], in.b[1], in.b[2], in.b[3]);
	fill(&out, partner);
	check(memcmp(&in.c, &out.c, sizeof in.c) == 0, "char message");
	for (k = 0; k < 3; k++)
		check(in.i[k] == out.i[k], "int message");
	check(in.l[0] == out.l[0] && in.l[1] == out.l[1], "long message");
	check(in.ll == out.ll && in.u == out.u && in.d == out.d, "scalar messages");
	check(in.f[0] == out.f[0] && in.f[1] == out.f[1], "float message");
	check(memcmp(in.b, out.b, 4) == 0, "byte message");
	return corpus_finish("p2p_tags");
}
