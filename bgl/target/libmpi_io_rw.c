/* libmpi_io_rw.c: MPI-IO's reads and writes. Included by libmpi_io.c.
 *
 * Every access goes one way (io_call): where it starts in the view (an explicit offset,
 * the individual pointer, the shared pointer, or its place in rank order for _ordered),
 * then io_move maps the view's bytes to the file's contiguous ranges and moves each with
 * one _llseek and one read or write through the CIOD. A read of many small ranges close
 * together reads their whole span in one call and picks the ranges out (data sieving, as
 * ROMIO does); a write never touches bytes it does not own, so it moves range by range.
 * Memory of a derived datatype is packed before a write and unpacked after a read.
 *
 * A collective access (_all) syncs the group with a barrier after its own I/O, so when it
 * returns every member's data has reached the file. Nonblocking accesses do their I/O at
 * the call and return the engine's request: complete for an independent one, an Ibarrier
 * of the group for a collective one. A split collective's begin does the I/O and its end
 * the sync. */

/* Reads whose ranges span at most this many bytes are sieved. */
enum { SIEVE_MAX = 4 << 20 };

/* io_pieces lists the file ranges view bytes [v, v+n) map to, in order, ranges that
 * touch merged; NULL when memory runs out. */
static struct io_piece *io_pieces(const struct io_view *w, MPI_Offset v, long n, int *np)
{
	struct io_piece *p = NULL;
	long done = 0;
	int cap = 0;

	*np = 0;
	while (done < n) {
		long run;
		MPI_Offset off = view_map(w, v + done, &run);

		if (run > n - done)
			run = n - done;
		if (*np > 0 && p[*np - 1].off + p[*np - 1].len == off) {
			p[*np - 1].len += run;
		} else {
			if (*np == cap) {
				struct io_piece *more = realloc(p, sizeof *p * (cap = cap * 2 + 16));

				if (more == NULL) {
					free(p);
					return NULL;
				}
				p = more;
			}
			p[(*np)++] = (struct io_piece){off, run};
		}
		done += run;
	}
	return p;
}

/* io_pread reads up to len bytes at off: the bytes read (fewer at the end of the file),
 * or -1 with errno set. */
static long io_pread(int fd, char *buf, long len, MPI_Offset off)
{
	long done = 0;

	if (lseek64(fd, off, SEEK_SET) < 0)
		return -1;
	while (done < len) {
		long n = read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* io_pwrite writes len bytes at off: 0, or -1 with errno set. */
static int io_pwrite(int fd, const char *buf, long len, MPI_Offset off)
{
	long done = 0;

	if (lseek64(fd, off, SEEK_SET) < 0)
		return -1;
	while (done < len) {
		long n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/* io_read_pieces reads the ranges into data, contiguous, sieving when they lie close
 * together; it returns the bytes read up to the end of the file, or -1 with errno set. */
static long io_read_pieces(int fd, const struct io_piece *p, int np, long bytes, char *data)
{
	long span = p[np - 1].off + p[np - 1].len - p[0].off, done = 0, got;
	int i;

	if (np > 1 && span <= SIEVE_MAX && span <= 4 * bytes + 65536) {
		char *all = malloc(span + 1);

		if (all != NULL) {
			got = io_pread(fd, all, span, p[0].off);
			for (i = 0; i < np && got >= 0; i++) {
				long avail = p[0].off + got - p[i].off, n = avail < p[i].len ? avail : p[i].len;

				if (n <= 0)
					break;
				memcpy(data + done, all + (p[i].off - p[0].off), n);
				done += n;
				if (n < p[i].len)
					break;
			}
			free(all);
			return got < 0 ? -1 : done;
		}
	}
	for (i = 0; i < np; i++) {
		if ((got = io_pread(fd, data + done, p[i].len, p[i].off)) < 0)
			return -1;
		done += got;
		if (got < p[i].len)
			break;
	}
	return done;
}

/* io_check is the class of what is wrong with an access of count elements of type at
 * etype pos (NULL when nothing is), with its description in what. */
static int io_check(struct file *f, int write, int count, MPI_Datatype type, char *what, int size)
{
	if (count < 0)
		return snprintf(what, size, "invalid count %d", count), MPI_ERR_COUNT;
	if (!valid_type(type))
		return snprintf(what, size, "datatype %d is not a committed datatype", type), MPI_ERR_TYPE;
	if (write && (f->amode & MPI_MODE_RDONLY))
		return snprintf(what, size, "writing a file opened MPI_MODE_RDONLY"), MPI_ERR_READ_ONLY;
	if (!write && (f->amode & MPI_MODE_WRONLY))
		return snprintf(what, size, "reading a file opened MPI_MODE_WRONLY"), MPI_ERR_ACCESS;
	if (dt_size(type) * count % f->view.esize != 0)
		return snprintf(what, size, "%d elements of datatype %d are not a whole number of etypes (%ld bytes)",
			count, type, f->view.esize), MPI_ERR_ARG;
	if (f->view.tsize == 0 && count > 0 && dt_size(type) > 0)
		return snprintf(what, size, "the view's filetype has no data"), MPI_ERR_ARG;
	return MPI_SUCCESS;
}

/* io_move moves count elements of type between buf and the view from etype pos; *moved
 * gets the bytes moved (a read stops at the end of the file). */
static int io_move(const char *call, struct file *f, int write, MPI_Offset pos, void *buf, int count,
	MPI_Datatype type, long *moved)
{
	long bytes = dt_size(type) * count, got = 0;
	struct io_piece *p;
	char *data = buf;
	int np, i, err = 0;

	*moved = 0;
	if (pos < 0)
		return file_return(call, f->h, MPI_ERR_ARG, "invalid offset %lld", pos);
	if (bytes == 0)
		return MPI_SUCCESS;
	p = io_pieces(&f->view, pos * f->view.esize, bytes, &np);
	if (p == NULL)
		return file_return(call, f->h, MPI_ERR_NO_MEM, "no memory for the file ranges of %ld bytes", bytes);
	if (is_derived(type)) {
		int packed;

		data = write ? dt_pack(call, buf, count, type, &packed) : dt_alloc(call, bytes);
	}
	if (write) {
		for (i = 0; i < np && !err; i++)
			if (io_pwrite(f->fd, data + got, p[i].len, p[i].off) != 0)
				err = errno;
			else
				got += p[i].len;
	} else if ((got = io_read_pieces(f->fd, p, np, bytes, data)) < 0) {
		err = errno;
		got = 0;
	} else if (is_derived(type)) {
		dt_unpack(data, (int)got, buf, count, type);
	}
	if (data != buf)
		free(data);
	free(p);
	*moved = got;
	if (err != 0)
		return file_return(call, f->h, io_class(err), "%s %ld bytes at etype %lld: %s",
			write ? "writing" : "reading", bytes, pos, strerror(err));
	return MPI_SUCCESS;
}

/* Where an access starts. */
enum io_where { IO_AT, IO_INDIVIDUAL, IO_SHARED, IO_ORDERED };

/* io_call is every read and write: it finds where the access starts, moves the data and,
 * for a collective (coll), syncs the group, which it joins even when its own part
 * failed, so the others do not wait for it. */
static int io_call(const char *call, MPI_File fh, int write, enum io_where where, int coll, MPI_Offset offset,
	void *buf, int count, MPI_Datatype type, long *moved)
{
	int rc = MPI_SUCCESS, class, rank, size, i;
	struct file *f = file_get(call, fh, &rc);
	MPI_Offset pos = offset, n = 0, base = 0, *all;
	char what[160];

	*moved = 0;
	if (f == NULL)
		return rc;
	class = io_check(f, write, count, type, what, sizeof what);
	if (class == MPI_SUCCESS && where == IO_AT && (f->amode & MPI_MODE_SEQUENTIAL))
		class = MPI_ERR_UNSUPPORTED_OPERATION, snprintf(what, sizeof what, "explicit offsets on a MPI_MODE_SEQUENTIAL file");
	if (class == MPI_SUCCESS)
		n = dt_size(type) * count / f->view.esize;
	switch (where) {
	case IO_AT:
		break;
	case IO_INDIVIDUAL:
		pos = f->pos;
		f->pos += n;
		break;
	case IO_SHARED:
		if (class == MPI_SUCCESS && (rc = file_pointer(fh, DPCL_FILEPTR_FETCH_ADD, n, &pos)) != MPI_SUCCESS)
			return rc;
		break;
	case IO_ORDERED:
		/* Each member's part follows those of the lower ranks, from the shared pointer. */
		MPI_Comm_rank(fh, &rank);
		MPI_Comm_size(fh, &size);
		all = malloc(sizeof *all * size);
		if (all == NULL)
			return file_return(call, fh, MPI_ERR_NO_MEM, "no memory for %d counts", size);
		if ((rc = MPI_Allgather(&n, 1, MPI_OFFSET, all, 1, MPI_OFFSET, fh)) != MPI_SUCCESS) {
			free(all);
			return rc;
		}
		for (pos = 0, i = 0; i < size; i++) {
			if (i == rank)
				offset = pos;
			pos += all[i];
		}
		free(all);
		if (rank == 0)
			rc = file_pointer(fh, DPCL_FILEPTR_FETCH_ADD, pos, &base);
		MPI_Bcast(&base, 1, MPI_OFFSET, 0, fh);
		if (rc != MPI_SUCCESS)
			return rc;
		pos = base + offset;
		break;
	}
	if (class != MPI_SUCCESS)
		rc = file_return(call, fh, class, "%s", what);
	else
		rc = io_move(call, f, write, pos, buf, count, type, moved);
	if (coll) {
		int sync = MPI_Barrier(fh);

		if (rc == MPI_SUCCESS)
			rc = sync;
	}
	return rc;
}

/* io_status fills a status of an access that moved bytes. */
static void io_status(MPI_Status *status, long bytes)
{
	if (status == NULL || status == MPI_STATUS_IGNORE)
		return;
	status->MPI_SOURCE = MPI_ANY_SOURCE;
	status->MPI_TAG = MPI_ANY_TAG;
	status->count = (int)bytes;
}

/* io_blocking is a blocking access with its status. */
static int io_blocking(const char *call, MPI_File fh, int write, enum io_where where, int coll, MPI_Offset offset,
	const void *buf, int count, MPI_Datatype type, MPI_Status *status)
{
	long moved;
	int rc = io_call(call, fh, write, where, coll, offset, (void *)buf, count, type, &moved);

	io_status(status, moved);
	return rc;
}

/* io_nonblocking is a nonblocking access: the I/O now, then the engine's request, an
 * Ibarrier of the group for a collective one (made even when this member's part failed,
 * so the others' complete). */
static int io_nonblocking(const char *call, MPI_File fh, int write, enum io_where where, int coll,
	MPI_Offset offset, const void *buf, int count, MPI_Datatype type, MPI_Request *request)
{
	long moved;
	int rc, rq;
	unsigned long b[3];

	if (request == NULL)
		return file_return(call, fh, MPI_ERR_REQUEST, "request is NULL");
	*request = MPI_REQUEST_NULL;
	rc = io_call(call, fh, write, where, 0, offset, (void *)buf, count, type, &moved);
	if (rc != MPI_SUCCESS && (!coll || file_find(fh) == NULL))
		return rc;
	b[0] = W(coll ? fh : MPI_FILE_NULL), b[1] = W(moved), b[2] = W(request);
	rq = dpcl_mpi_file_request((long)b);
	return rc != MPI_SUCCESS ? rc : rq;
}

MPI_FN int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status)
{
	return io_blocking("MPI_File_read_at", fh, 0, IO_AT, 0, offset, buf, count, datatype, status);
}

MPI_FN int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status)
{
	return io_blocking("MPI_File_read_at_all", fh, 0, IO_AT, 1, offset, buf, count, datatype, status);
}

MPI_FN int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status)
{
	return io_blocking("MPI_File_write_at", fh, 1, IO_AT, 0, offset, buf, count, datatype, status);
}

MPI_FN int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
	MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_write_at_all", fh, 1, IO_AT, 1, offset, buf, count, datatype, status);
}

MPI_FN int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request)
{
	return io_nonblocking("MPI_File_iread_at", fh, 0, IO_AT, 0, offset, buf, count, datatype, request);
}

MPI_FN int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request)
{
	return io_nonblocking("MPI_File_iwrite_at", fh, 1, IO_AT, 0, offset, buf, count, datatype, request);
}

MPI_FN int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request)
{
	return io_nonblocking("MPI_File_iread_at_all", fh, 0, IO_AT, 1, offset, buf, count, datatype, request);
}

MPI_FN int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count,
	MPI_Datatype datatype, MPI_Request *request)
{
	return io_nonblocking("MPI_File_iwrite_at_all", fh, 1, IO_AT, 1, offset, buf, count, datatype, request);
}

MPI_FN int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_read", fh, 0, IO_INDIVIDUAL, 0, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_read_all", fh, 0, IO_INDIVIDUAL, 1, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_write", fh, 1, IO_INDIVIDUAL, 0, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_write_all", fh, 1, IO_INDIVIDUAL, 1, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	return io_nonblocking("MPI_File_iread", fh, 0, IO_INDIVIDUAL, 0, 0, buf, count, datatype, request);
}

MPI_FN int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	return io_nonblocking("MPI_File_iwrite", fh, 1, IO_INDIVIDUAL, 0, 0, buf, count, datatype, request);
}

MPI_FN int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	return io_nonblocking("MPI_File_iread_all", fh, 0, IO_INDIVIDUAL, 1, 0, buf, count, datatype, request);
}

MPI_FN int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request)
{
	return io_nonblocking("MPI_File_iwrite_all", fh, 1, IO_INDIVIDUAL, 1, 0, buf, count, datatype, request);
}

MPI_FN int MPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_read_shared", fh, 0, IO_SHARED, 0, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status)
{
	return io_blocking("MPI_File_write_shared", fh, 1, IO_SHARED, 0, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
	return io_nonblocking("MPI_File_iread_shared", fh, 0, IO_SHARED, 0, 0, buf, count, datatype, request);
}

MPI_FN int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Request *request)
{
	return io_nonblocking("MPI_File_iwrite_shared", fh, 1, IO_SHARED, 0, 0, buf, count, datatype, request);
}

MPI_FN int MPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return io_blocking("MPI_File_read_ordered", fh, 0, IO_ORDERED, 0, 0, buf, count, datatype, status);
}

MPI_FN int MPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
	MPI_Status *status)
{
	return io_blocking("MPI_File_write_ordered", fh, 1, IO_ORDERED, 0, 0, buf, count, datatype, status);
}

/* seek_to is the etype position whence and offset name, or -1 when it would be before
 * the view's start. cur is the pointer seeking moves. */
static MPI_Offset seek_to(struct file *f, MPI_Offset cur, MPI_Offset offset, int whence)
{
	MPI_Offset base = 0, size;

	if (whence == MPI_SEEK_CUR) {
		base = cur;
	} else if (whence == MPI_SEEK_END) {
		if ((size = file_size(f)) < 0)
			return -1;
		base = view_eof(&f->view, size);
	}
	return base + offset < 0 ? -1 : base + offset;
}

static int check_whence(const char *call, MPI_File fh, int whence)
{
	if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END)
		return file_return(call, fh, MPI_ERR_ARG, "whence %d is none of MPI_SEEK_SET, _CUR, _END", whence);
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
	static const char call[] = "MPI_File_seek";
	int rc = MPI_SUCCESS;
	struct file *f = file_get(call, fh, &rc);
	MPI_Offset to;

	if (f == NULL || (rc = check_whence(call, fh, whence)) != MPI_SUCCESS)
		return rc;
	if (f->amode & MPI_MODE_SEQUENTIAL)
		return file_return(call, fh, MPI_ERR_UNSUPPORTED_OPERATION, "seeking a MPI_MODE_SEQUENTIAL file");
	if ((to = seek_to(f, f->pos, offset, whence)) < 0)
		return file_return(call, fh, MPI_ERR_ARG, "offset %lld from whence %d is before the view's start", offset, whence);
	f->pos = to;
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_position", fh, &rc);

	if (f == NULL)
		return rc;
	*offset = f->pos;
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_byte_offset", fh, &rc);
	long run;

	if (f == NULL)
		return rc;
	if (offset < 0)
		return file_return("MPI_File_get_byte_offset", fh, MPI_ERR_ARG, "invalid offset %lld", offset);
	*disp = f->view.tsize ? view_map(&f->view, offset * f->view.esize, &run) : f->view.disp;
	return MPI_SUCCESS;
}

/* MPI_File_seek_shared: collective; rank 0 moves the pointer, and the broadcast of its
 * outcome keeps every member from using it before. */
MPI_FN int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
	static const char call[] = "MPI_File_seek_shared";
	int rc = MPI_SUCCESS, rank;
	struct file *f = file_get(call, fh, &rc);
	MPI_Offset cur = 0, to = 0;

	if (f == NULL || (rc = check_whence(call, fh, whence)) != MPI_SUCCESS)
		return rc;
	if ((rc = MPI_Barrier(fh)) != MPI_SUCCESS)
		return rc;
	MPI_Comm_rank(fh, &rank);
	if (rank == 0) {
		rc = file_pointer(fh, DPCL_FILEPTR_FETCH_ADD, 0, &cur);
		to = rc == MPI_SUCCESS ? seek_to(f, cur, offset, whence) : -1;
		if (to >= 0)
			rc = file_pointer(fh, DPCL_FILEPTR_SET, to, NULL);
	}
	MPI_Bcast(&to, 1, MPI_OFFSET, 0, fh);
	if (to < 0)
		return file_return(call, fh, MPI_ERR_ARG, "offset %lld from whence %d is before the view's start", offset, whence);
	return rc;
}

MPI_FN int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
	int rc = MPI_SUCCESS;

	if (file_get("MPI_File_get_position_shared", fh, &rc) == NULL)
		return rc;
	return file_pointer(fh, DPCL_FILEPTR_FETCH_ADD, 0, offset);
}

/* split_begin does a split collective's I/O; split_end syncs the group. */
static int split_begin(const char *call, MPI_File fh, int write, enum io_where where, MPI_Offset offset,
	const void *buf, int count, MPI_Datatype type)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get(call, fh, &rc);

	if (f == NULL)
		return rc;
	if (f->split.call != NULL)
		return file_return(call, fh, MPI_ERR_OTHER, "%s has not ended", f->split.call);
	f->split.call = call;
	f->split.rc = io_call(call, fh, write, where, 0, offset, (void *)buf, count, type, &f->split.bytes);
	return f->split.rc;
}

static int split_end(const char *call, MPI_File fh, MPI_Status *status)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get(call, fh, &rc);

	if (f == NULL)
		return rc;
	if (f->split.call == NULL)
		return file_return(call, fh, MPI_ERR_OTHER, "no split collective has begun");
	f->split.call = NULL;
	io_status(status, f->split.bytes);
	return MPI_Barrier(fh);
}

MPI_FN int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype)
{
	return split_begin("MPI_File_read_at_all_begin", fh, 0, IO_AT, offset, buf, count, datatype);
}

MPI_FN int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end("MPI_File_read_at_all_end", fh, status);
}

MPI_FN int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count,
	MPI_Datatype datatype)
{
	return split_begin("MPI_File_write_at_all_begin", fh, 1, IO_AT, offset, buf, count, datatype);
}

MPI_FN int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end("MPI_File_write_at_all_end", fh, status);
}

MPI_FN int MPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	return split_begin("MPI_File_read_all_begin", fh, 0, IO_INDIVIDUAL, 0, buf, count, datatype);
}

MPI_FN int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end("MPI_File_read_all_end", fh, status);
}

MPI_FN int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	return split_begin("MPI_File_write_all_begin", fh, 1, IO_INDIVIDUAL, 0, buf, count, datatype);
}

MPI_FN int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end("MPI_File_write_all_end", fh, status);
}

MPI_FN int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
	return split_begin("MPI_File_read_ordered_begin", fh, 0, IO_ORDERED, 0, buf, count, datatype);
}

MPI_FN int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end("MPI_File_read_ordered_end", fh, status);
}

MPI_FN int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
	return split_begin("MPI_File_write_ordered_begin", fh, 1, IO_ORDERED, 0, buf, count, datatype);
}

MPI_FN int MPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
	(void)buf;
	return split_end("MPI_File_write_ordered_end", fh, status);
}
