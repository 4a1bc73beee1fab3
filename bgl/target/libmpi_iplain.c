/* libmpi_iplain.c: derived datatypes a nonblocking collective can take as they are. A
 * committed type that is one run of a predefined type from its start, with no holes
 * (MPI_Type_dup or MPI_Type_contiguous of one, for instance), moves the same bytes as
 * that predefined type, so the call's block names the predefined type instead, its count
 * scaled; other derived types are still refused (libmpi_icoll.c). Included by libmpi.c
 * before the nonblocking collectives. */

/* iplain_of is the predefined type derived type t is a run of, and the run's length per
 * element of t, or MPI_DATATYPE_NULL. */
static MPI_Datatype iplain_of(const char *call, MPI_Datatype t, int *per)
{
	struct dtype *d = dt_use(call, t);
	long at = 0;
	int i;

	if (d->nblk < 1 || d->lb != 0 || d->size != d->extent)
		return MPI_DATATYPE_NULL;
	*per = 0;
	for (i = 0; i < d->nblk; i++) {
		if (d->blk[i].basic != d->blk[0].basic || d->blk[i].off != at)
			return MPI_DATATYPE_NULL;
		at += (long)d->blk[i].count * MPI__TYPE_SIZE(d->blk[i].basic);
		*per += d->blk[i].count;
	}
	return d->blk[0].basic;
}

/* iplain rewrites word tslot of block b (a type) to its predefined run, and the count at
 * word cslot by the run's length; cslot -1 is a counts array, taken only for a run of
 * one. It refuses the other derived types. */
static void iplain(const char *call, unsigned long *b, int cslot, int tslot)
{
	MPI_Datatype t = (MPI_Datatype)b[tslot], basic;
	int per = 1;

	if (!is_derived(t))
		return;
	basic = iplain_of(call, t, &per);
	if (basic == MPI_DATATYPE_NULL || (cslot < 0 && per != 1))
		lib_error(call, MPI_ERR_TYPE, "derived datatype %d: nonblocking collectives take predefined types "
			"and derived types that are one run of a predefined type", t);
	b[tslot] = W(basic);
	if (cslot >= 0)
		b[cslot] = W((int)b[cslot] * per);
}
