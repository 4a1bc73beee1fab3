/* libmpi_groups.c: group set operations and rank ranges over libmpi_topo.c's groups
 * (lists of world ranks). Included by libmpi.c after libmpi_topo.c.
 *
 * Orders follow the standard: a union is the first group then the second's members not in
 * the first; an intersection and a difference keep the first group's order; a range
 * (first, last, stride) lists first, first+stride, ... up to last inclusive. */

static int group_has(const int *w, int n, int world)
{
	int i;

	for (i = 0; i < n; i++)
		if (w[i] == world)
			return 1;
	return 0;
}

/* group_set builds the group of group1's members kept by want (1: in group2, 0: not in
 * group2), followed, for a union, by group2's members not in group1. */
static int group_set(const char *call, MPI_Group group1, MPI_Group group2, int want, int uni, MPI_Group *newgroup)
{
	int n1, n2, *w1, *w2, *out, m = 0, i;

	group_get(call, group1, &n1, &w1);
	group_get(call, group2, &n2, &w2);
	if (newgroup == NULL)
		lib_error(call, MPI_ERR_ARG, "newgroup is NULL");
	out = (int *)dt_alloc(call, sizeof(int) * (long)(n1 + n2));
	for (i = 0; i < n1; i++)
		if (uni || group_has(w2, n2, w1[i]) == want)
			out[m++] = w1[i];
	for (i = 0; uni && i < n2; i++)
		if (!group_has(w1, n1, w2[i]))
			out[m++] = w2[i];
	return group_new(call, m, out, newgroup);
}

MPI_FN int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return group_set("MPI_Group_union", group1, group2, 0, 1, newgroup);
}

MPI_FN int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return group_set("MPI_Group_intersection", group1, group2, 1, 0, newgroup);
}

MPI_FN int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
	return group_set("MPI_Group_difference", group1, group2, 0, 0, newgroup);
}

/* group_ranges lists the group ranks the n ranges name, in order, into *out (checked:
 * in the group, a nonzero stride, no rank twice); it returns how many. */
static int group_ranges(const char *call, int size, int n, int ranges[][3], int **out)
{
	int i, r, m = 0, *list, *seen;

	if (n < 0)
		lib_error(call, MPI_ERR_ARG, "invalid n %d", n);
	seen = (int *)dt_alloc(call, sizeof(int) * (long)size);
	memset(seen, 0, sizeof(int) * size);
	list = (int *)dt_alloc(call, sizeof(int) * (long)size);
	for (i = 0; i < n; i++) {
		int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];

		if (stride == 0)
			lib_error(call, MPI_ERR_ARG, "ranges[%d] has stride 0", i);
		if (first < 0 || first >= size || last < 0 || last >= size)
			lib_error(call, MPI_ERR_RANK, "ranges[%d] = (%d, %d, %d) leaves the group of %d", i, first, last, stride, size);
		for (r = first; stride > 0 ? r <= last : r >= last; r += stride) {
			if (seen[r])
				lib_error(call, MPI_ERR_RANK, "ranges[%d] names rank %d twice", i, r);
			seen[r] = 1;
			list[m++] = r;
		}
	}
	free(seen);
	*out = list;
	return m;
}

MPI_FN int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
	int size, *w, *list, m, i;

	group_get("MPI_Group_range_incl", group, &size, &w);
	m = group_ranges("MPI_Group_range_incl", size, n, ranges, &list);
	for (i = 0; i < m; i++)
		list[i] = w[list[i]];
	return group_new("MPI_Group_range_incl", m, list, newgroup);
}

MPI_FN int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
	int size, *w, *list, m, i, k = 0, *out;

	group_get("MPI_Group_range_excl", group, &size, &w);
	m = group_ranges("MPI_Group_range_excl", size, n, ranges, &list);
	out = (int *)dt_alloc("MPI_Group_range_excl", sizeof(int) * (long)size);
	for (i = 0; i < size; i++)
		if (!group_has(list, m, i))
			out[k++] = w[i];
	free(list);
	return group_new("MPI_Group_range_excl", k, out, newgroup);
}
