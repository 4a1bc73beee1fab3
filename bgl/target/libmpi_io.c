/* libmpi_io.c: MPI-IO (MPI_File). Included by libmpi.c after libmpi_win.c.
 *
 * A rank does its file I/O itself, with the POSIX calls (open, _llseek, read, write,
 * ftruncate, fsync, unlink) the Compute Node Kernel ships to the job's I/O node, so every
 * access pays the CIOD's per-call and per-byte costs and lands in the job's working
 * directory. A file's handle is that of a private duplicate of its communicator, so its
 * group, its collectives and its error handler are the communicator's. A collective call
 * syncs the group with MPI_Barrier (or the collective it needs anyway) on that
 * duplicate; the engine (bgl/mpi_io.go) keeps the shared file pointer and the requests of
 * nonblocking I/O, which is done at the call. This file keeps the handles, the views and
 * the error handlers; libmpi_io_rw.c does the reads and writes. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* The 64-bit offset calls glibc has on the 32-bit PowerPC (_llseek and ftruncate64
 * underneath), declared here since libmpi is built without _LARGEFILE64_SOURCE. */
extern long long lseek64(int fd, long long offset, int whence);
extern int ftruncate64(int fd, long long length);

/* The operations of dpcl_mpi_file_pointer (bgl/abi/mpi_io.go). */
enum { DPCL_FILEPTR_FETCH_ADD, DPCL_FILEPTR_SET, DPCL_FILEPTR_FREE };

/* io_view is a file view: the filetype flattened into the contiguous pieces of one tile,
 * in file order. Tile k starts at disp + k*textent. */
struct io_view {
	MPI_Offset disp;
	MPI_Datatype etype, filetype; /* derived ones are the library's own duplicates */
	long esize;                   /* bytes of one etype */
	long tsize, textent;          /* a tile's data bytes and its extent */
	int nb;
	long *off, *len, *cum; /* piece i: offset in the tile, bytes, data bytes before it */
	int dense;             /* one piece filling the tile: the view is the file from disp on */
	char datarep[MPI_MAX_DATAREP_STRING];
};

/* A split collective begun (MPI_File_read_all_begin and the others) and not yet ended. */
struct io_split {
	const char *call; /* NULL: none */
	long bytes;
	int rc;
};

struct file {
	MPI_File h; /* MPI_FILE_NULL: a free slot */
	int fd, amode, atomic;
	char *name;    /* as opened (after the prefix), for MPI_MODE_DELETE_ON_CLOSE */
	MPI_Info info; /* the hints set, or MPI_INFO_NULL */
	struct io_view view;
	MPI_Offset pos; /* the individual file pointer, in etypes */
	struct io_split split;
};
static struct file *files;
static int nfiles;

/* MPI_FILE_NULL's handler: a new file's, and that of errors with no valid file. */
static MPI_Errhandler file_null_eh = MPI_ERRORS_RETURN;

/* file_return reports an error found in a call on fh through the file's handler (or
 * MPI_FILE_NULL's): fatal under MPI_ERRORS_ARE_FATAL, else the class is returned after a
 * user handler has run. */
static int file_return(const char *call, MPI_File fh, int class, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static struct file *file_find(MPI_File h);

static int file_return(const char *call, MPI_File fh, int class, const char *fmt, ...)
{
	MPI_Errhandler eh = fh != MPI_FILE_NULL && file_find(fh) != NULL ? comm_eh_of(fh) : file_null_eh;
	char what[256];
	int code = class;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (eh == MPI_ERRORS_ARE_FATAL)
		lib_error(call, class, "%s", what);
	if (eh != MPI_ERRORS_RETURN)
		user_ehs[eh - EH_FIRST_USER](&fh, &code);
	return class;
}

static struct file *file_find(MPI_File h)
{
	int i;

	for (i = 0; i < nfiles; i++)
		if (files[i].h == h)
			return &files[i];
	return NULL;
}

/* file_get returns the open file fh, or NULL after reporting MPI_ERR_FILE in *rc. */
static struct file *file_get(const char *call, MPI_File fh, int *rc)
{
	struct file *f = fh == MPI_FILE_NULL ? NULL : file_find(fh);

	if (f == NULL)
		*rc = file_return(call, MPI_FILE_NULL, MPI_ERR_FILE, "invalid file %d%s", fh,
			fh == MPI_FILE_NULL ? " (MPI_FILE_NULL)" : "");
	return f;
}

/* io_class is the MPI error class of a failed file system call's errno. */
static int io_class(int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
		return MPI_ERR_NO_SUCH_FILE;
	case EEXIST:
		return MPI_ERR_FILE_EXISTS;
	case EACCES:
	case EPERM:
		return MPI_ERR_ACCESS;
	case ENOSPC:
	case EFBIG:
		return MPI_ERR_NO_SPACE;
	case EDQUOT:
		return MPI_ERR_QUOTA;
	case EROFS:
		return MPI_ERR_READ_ONLY;
	case ENAMETOOLONG:
		return MPI_ERR_BAD_FILE;
	case ENOMEM:
		return MPI_ERR_NO_MEM;
	}
	return MPI_ERR_IO;
}

/* io_path drops a ROMIO file system prefix ("ufs:", "nfs:"...): one of two or more
 * characters before a colon, with no slash in it. */
static const char *io_path(const char *name)
{
	const char *colon = strchr(name, ':');

	if (colon != NULL && colon - name >= 2 && memchr(name, '/', colon - name) == NULL)
		return colon + 1;
	return name;
}

/* file_pointer applies op to the engine's shared file pointer of fh; old, unless NULL,
 * gets its value before. */
static int file_pointer(MPI_File fh, int op, MPI_Offset value, MPI_Offset *old)
{
	unsigned long long v = (unsigned long long)value;
	unsigned long b[] = {W(fh), W(op), W(v >> 32), W(v & 0xffffffffu), W(old)};

	return dpcl_mpi_file_pointer((long)b);
}

static void view_free(struct io_view *w)
{
	if (is_derived(w->etype))
		MPI_Type_free(&w->etype);
	if (is_derived(w->filetype))
		MPI_Type_free(&w->filetype);
	free(w->off);
	free(w->len);
	free(w->cum);
	memset(w, 0, sizeof *w);
}

struct io_piece {
	long off, len;
};

/* type_pieces flattens a datatype into its contiguous pieces, in typemap order, merging
 * pieces that touch; NULL when memory runs out. */
static struct io_piece *type_pieces(const char *call, MPI_Datatype t, int *np)
{
	int i, nblk = is_derived(t) ? dt_use(call, t)->nblk : 1;
	struct io_piece *p = malloc(sizeof *p * nblk + 1);

	*np = 0;
	if (p == NULL)
		return NULL;
	if (!is_derived(t)) {
		p[(*np)++] = (struct io_piece){0, MPI__TYPE_SIZE(t)};
		return p;
	}
	for (i = 0; i < nblk; i++) {
		struct dt_block *b = &dt_get(call, t)->blk[i];
		long len = (long)b->count * MPI__TYPE_SIZE(b->basic);

		if (len == 0)
			continue;
		if (*np > 0 && p[*np - 1].off + p[*np - 1].len == b->off)
			p[*np - 1].len += len;
		else
			p[(*np)++] = (struct io_piece){b->off, len};
	}
	return p;
}

/* layout_fault says why a datatype cannot be an etype or a filetype, or NULL: MPI requires
 * its displacements to be nonnegative and increasing, and (unless the file is only read)
 * its pieces not to overlap. */
static const char *layout_fault(const struct io_piece *p, int n, int read_only)
{
	int i;

	for (i = 0; i < n; i++) {
		if (p[i].off < 0)
			return "has a negative displacement";
		if (i > 0 && p[i].off < p[i - 1].off)
			return "has decreasing displacements";
		if (i > 0 && p[i].off < p[i - 1].off + p[i - 1].len && !read_only)
			return "has overlapping pieces";
	}
	return NULL;
}

/* view_check is MPI_ERR_IO, after the file's handler, when etype or filetype has a
 * layout a view cannot have. */
static int view_check(const char *call, MPI_File fh, MPI_Datatype etype, MPI_Datatype filetype, int read_only)
{
	MPI_Datatype t[2] = {etype, filetype};
	int k, n, rc = MPI_SUCCESS;

	for (k = 0; k < 2 && rc == MPI_SUCCESS; k++) {
		struct io_piece *p = type_pieces(call, t[k], &n);
		const char *fault;

		if (p == NULL)
			return file_return(call, fh, MPI_ERR_NO_MEM, "no memory to flatten datatype %d", t[k]);
		if ((fault = layout_fault(p, n, read_only)) != NULL)
			rc = file_return(call, fh, MPI_ERR_IO, "%s %d %s", k ? "filetype" : "etype", t[k], fault);
		free(p);
	}
	return rc;
}

/* view_make makes a view of filetype's pieces. */
static int view_make(const char *call, MPI_File fh, struct io_view *w, MPI_Offset disp, MPI_Datatype etype,
	MPI_Datatype filetype)
{
	int i, n;
	struct io_piece *p = type_pieces(call, filetype, &n);

	memset(w, 0, sizeof *w);
	if (p == NULL)
		return file_return(call, fh, MPI_ERR_NO_MEM, "no memory to flatten filetype %d", filetype);
	w->off = malloc(sizeof(long) * n + 1);
	w->len = malloc(sizeof(long) * n + 1);
	w->cum = malloc(sizeof(long) * n + 1);
	if (w->off == NULL || w->len == NULL || w->cum == NULL) {
		free(p);
		view_free(w);
		return file_return(call, fh, MPI_ERR_NO_MEM, "no memory for a view of %d pieces", n);
	}
	for (i = 0; i < n; i++) {
		w->off[i] = p[i].off;
		w->len[i] = p[i].len;
		w->cum[i] = w->tsize;
		w->tsize += p[i].len;
	}
	w->nb = n;
	w->dense = n == 1 && w->off[0] == 0 && w->len[0] == dt_extent(filetype);
	free(p);
	w->disp = disp;
	w->esize = dt_size(etype);
	w->textent = dt_extent(filetype);
	w->etype = etype;
	w->filetype = filetype;
	if (is_derived(etype))
		MPI_Type_dup(etype, &w->etype);
	if (is_derived(filetype))
		MPI_Type_dup(filetype, &w->filetype);
	strcpy(w->datarep, "native");
	return MPI_SUCCESS;
}

/* view_map is the file offset of view byte v (data bytes from the view's start); *run gets
 * the bytes contiguous in the file from there to the end of its piece. */
static MPI_Offset view_map(const struct io_view *w, MPI_Offset v, long *run)
{
	MPI_Offset k;
	long r;
	int lo = 0, hi = w->nb - 1;

	if (w->dense) {
		*run = 0x7fffffffL;
		return w->disp + v;
	}
	k = v / w->tsize;
	r = (long)(v - k * w->tsize);
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (w->cum[mid] <= r)
			lo = mid;
		else
			hi = mid - 1;
	}
	*run = w->len[lo] - (r - w->cum[lo]);
	return w->disp + k * w->textent + w->off[lo] + (r - w->cum[lo]);
}

/* view_eof is the view position, in etypes, of the end of a file of size bytes: the
 * etypes the view shows before it, the last partly shown one counted. */
static MPI_Offset view_eof(const struct io_view *w, MPI_Offset size)
{
	MPI_Offset rel = size - w->disp, k, bytes;
	long r;
	int i;

	if (rel <= 0 || w->tsize == 0)
		return 0;
	k = w->textent > 0 ? rel / w->textent : 0;
	r = (long)(rel - k * w->textent);
	bytes = k * w->tsize;
	for (i = 0; i < w->nb; i++)
		if (r > w->off[i])
			bytes += r - w->off[i] < w->len[i] ? r - w->off[i] : w->len[i];
	return (bytes + w->esize - 1) / w->esize;
}

/* file_size is the file's size in bytes, or -1 with errno set. */
static MPI_Offset file_size(struct file *f)
{
	return lseek64(f->fd, 0, SEEK_END);
}

/* check_amode: exactly one access mode, and no mode the access mode forbids. */
static const char *check_amode(int amode)
{
	int access = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);

	if (access != MPI_MODE_RDONLY && access != MPI_MODE_WRONLY && access != MPI_MODE_RDWR)
		return "exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR is required";
	if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
		return "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL";
	if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
		return "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL";
	if (amode & ~(MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE |
		MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL))
		return "unknown mode bits";
	return NULL;
}

static struct file *file_slot(void)
{
	struct file *f = file_find(MPI_FILE_NULL);

	if (f == NULL) {
		struct file *more = realloc(files, (nfiles * 2 + 16) * sizeof *files);

		if (more == NULL)
			return NULL;
		memset(more + nfiles, 0, (nfiles + 16) * sizeof *files);
		files = more;
		f = &files[nfiles];
		nfiles = nfiles * 2 + 16;
	}
	return f;
}

/* MPI_File_open: rank 0 opens first (creating the file, exclusively if asked), then the
 * others; every member learns the worst outcome, so all fail or none. */
MPI_FN int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
	static const char call[] = "MPI_File_open";
	const char *bad = check_amode(amode), *path;
	int rc, rank, flags, fd = -1, err = 0, class = MPI_SUCCESS, worst;
	MPI_Comm dup;
	struct file *f;

	if (fh == NULL)
		return file_return(call, MPI_FILE_NULL, MPI_ERR_ARG, "fh is NULL");
	*fh = MPI_FILE_NULL;
	if (filename == NULL)
		return file_return(call, MPI_FILE_NULL, MPI_ERR_BAD_FILE, "filename is NULL");
	if (bad != NULL)
		return file_return(call, MPI_FILE_NULL, MPI_ERR_AMODE, "amode 0x%x: %s", amode, bad);
	if ((rc = MPI_Comm_dup(comm, &dup)) != MPI_SUCCESS)
		return rc;
	MPI_Comm_rank(dup, &rank);
	path = io_path(filename);
	flags = amode & MPI_MODE_RDONLY ? O_RDONLY : amode & MPI_MODE_WRONLY ? O_WRONLY : O_RDWR;
	if (rank == 0) {
		flags |= (amode & MPI_MODE_CREATE ? O_CREAT : 0) | (amode & MPI_MODE_EXCL ? O_EXCL : 0);
		fd = open(path, flags, 0666);
		err = fd < 0 ? errno : 0;
	}
	MPI_Bcast(&err, 1, MPI_INT, 0, dup);
	if (err != 0) {
		class = io_class(err);
	} else if (rank != 0) {
		fd = open(path, flags, 0666);
		err = fd < 0 ? errno : 0;
		class = err ? io_class(err) : MPI_SUCCESS;
	}
	f = class == MPI_SUCCESS ? file_slot() : NULL;
	if (class == MPI_SUCCESS && f == NULL)
		class = MPI_ERR_NO_MEM;
	MPI_Allreduce(&class, &worst, 1, MPI_INT, MPI_MAX, dup);
	if (worst != MPI_SUCCESS) {
		if (fd >= 0)
			close(fd);
		MPI_Comm_free(&dup);
		if (class == MPI_SUCCESS)
			return file_return(call, MPI_FILE_NULL, worst, "%s: another member could not open it", filename);
		return file_return(call, MPI_FILE_NULL, class, "%s: %s", filename, err ? strerror(err) : "no memory");
	}
	memset(f, 0, sizeof *f);
	f->fd = fd;
	f->amode = amode;
	f->name = strdup(path);
	f->info = MPI_INFO_NULL;
	if (info != MPI_INFO_NULL)
		MPI_Info_dup(info, &f->info);
	if ((rc = view_make(call, MPI_FILE_NULL, &f->view, 0, MPI_BYTE, MPI_BYTE)) != MPI_SUCCESS) {
		close(fd);
		MPI_Comm_free(&dup);
		return rc;
	}
	/* A new file has MPI_FILE_NULL's handler, not its communicator's. */
	set_comm_eh(dup, file_null_eh);
	f->h = dup;
	*fh = dup;
	if (amode & MPI_MODE_APPEND) {
		MPI_Offset end = file_size(f);

		f->pos = end < 0 ? 0 : end;
		if (rank == 0)
			file_pointer(dup, DPCL_FILEPTR_SET, f->pos, NULL);
		MPI_Barrier(dup);
	}
	return MPI_SUCCESS;
}

/* MPI_File_close: every member's I/O is over at the barrier; then rank 0 frees the shared
 * pointer and removes a MPI_MODE_DELETE_ON_CLOSE file. */
MPI_FN int MPI_File_close(MPI_File *fh)
{
	static const char call[] = "MPI_File_close";
	int rc = MPI_SUCCESS, rank, err = 0;
	struct file *f = fh == NULL ? NULL : file_get(call, *fh, &rc);
	MPI_Comm comm;

	if (f == NULL)
		return fh == NULL ? file_return(call, MPI_FILE_NULL, MPI_ERR_ARG, "fh is NULL") : rc;
	comm = f->h;
	if (f->split.call != NULL)
		return file_return(call, comm, MPI_ERR_OTHER, "%s was not ended", f->split.call);
	if (close(f->fd) != 0)
		err = errno;
	if ((rc = MPI_Barrier(comm)) != MPI_SUCCESS)
		return rc;
	MPI_Comm_rank(comm, &rank);
	if (rank == 0) {
		file_pointer(comm, DPCL_FILEPTR_FREE, 0, NULL);
		if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && unlink(f->name) != 0 && err == 0)
			err = errno;
	}
	view_free(&f->view);
	if (f->info != MPI_INFO_NULL)
		MPI_Info_free(&f->info);
	free(f->name);
	memset(f, 0, sizeof *f);
	*fh = MPI_FILE_NULL;
	MPI_Comm_free(&comm);
	if (err != 0)
		return file_return(call, MPI_FILE_NULL, io_class(err), "closing: %s", strerror(err));
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_delete(const char *filename, MPI_Info info)
{
	(void)info;
	if (filename == NULL)
		return file_return("MPI_File_delete", MPI_FILE_NULL, MPI_ERR_BAD_FILE, "filename is NULL");
	if (unlink(io_path(filename)) != 0)
		return file_return("MPI_File_delete", MPI_FILE_NULL, io_class(errno), "%s: %s", filename, strerror(errno));
	return MPI_SUCCESS;
}

/* resize is MPI_File_set_size (grow_only 0) and MPI_File_preallocate (1): after a
 * barrier (every member's earlier writes are done) rank 0 changes the size, and the
 * broadcast of its outcome tells every member. */
static int resize(const char *call, MPI_File fh, MPI_Offset size, int grow_only)
{
	int rc = MPI_SUCCESS, rank, err = 0;
	struct file *f = file_get(call, fh, &rc);

	if (f == NULL)
		return rc;
	if (size < 0)
		return file_return(call, fh, MPI_ERR_ARG, "invalid size %lld", size);
	if (!(f->amode & (MPI_MODE_WRONLY | MPI_MODE_RDWR)))
		return file_return(call, fh, MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
	if ((rc = MPI_Barrier(fh)) != MPI_SUCCESS)
		return rc;
	MPI_Comm_rank(fh, &rank);
	if (rank == 0 && (!grow_only || file_size(f) < size) && ftruncate64(f->fd, size) != 0)
		err = errno;
	MPI_Bcast(&err, 1, MPI_INT, 0, fh);
	if (err != 0)
		return file_return(call, fh, io_class(err), "size %lld: %s", size, strerror(err));
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
	return resize("MPI_File_set_size", fh, size, 0);
}

MPI_FN int MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
	return resize("MPI_File_preallocate", fh, size, 1);
}

MPI_FN int MPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_size", fh, &rc);
	MPI_Offset n;

	if (f == NULL)
		return rc;
	if ((n = file_size(f)) < 0)
		return file_return("MPI_File_get_size", fh, io_class(errno), "%s", strerror(errno));
	*size = n;
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_get_group(MPI_File fh, MPI_Group *group)
{
	int rc = MPI_SUCCESS;

	if (file_get("MPI_File_get_group", fh, &rc) == NULL)
		return rc;
	return MPI_Comm_group(fh, group);
}

MPI_FN int MPI_File_get_amode(MPI_File fh, int *amode)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_amode", fh, &rc);

	if (f == NULL)
		return rc;
	*amode = f->amode;
	return MPI_SUCCESS;
}

/* MPI_File_set_info adds the hints to those the file has; none changes what it does. */
MPI_FN int MPI_File_set_info(MPI_File fh, MPI_Info info)
{
	int rc = MPI_SUCCESS, i;
	struct file *f = file_get("MPI_File_set_info", fh, &rc);
	struct info *in;

	if (f == NULL || info == MPI_INFO_NULL)
		return rc;
	if (f->info == MPI_INFO_NULL)
		return MPI_Info_dup(info, &f->info);
	if ((in = info_get("MPI_File_set_info", info, 1, &rc)) == NULL)
		return rc;
	for (i = 0; i < in->n && rc == MPI_SUCCESS; i++)
		rc = MPI_Info_set(f->info, in->pairs[i].key, in->pairs[i].value);
	return rc;
}

MPI_FN int MPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_info", fh, &rc);

	if (f == NULL)
		return rc;
	if (f->info == MPI_INFO_NULL)
		return MPI_Info_create(info_used);
	return MPI_Info_dup(f->info, info_used);
}

/* valid_type: a datatype that may describe data (predefined, or derived and committed). */
static int valid_type(MPI_Datatype t)
{
	if (is_derived(t)) {
		int i = t - MPI__DERIVED;

		return i < ndtypes && dtypes[i].used && dtypes[i].committed;
	}
	return t != MPI_DATATYPE_NULL && MPI__TYPE_SIZE(t) != 0;
}

/* MPI_File_set_view: collective; both file pointers go back to the view's start. */
MPI_FN int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
	const char *datarep, MPI_Info info)
{
	static const char call[] = "MPI_File_set_view";
	int rc = MPI_SUCCESS, rank;
	struct file *f = file_get(call, fh, &rc);
	struct io_view w;

	if (f == NULL)
		return rc;
	if (!valid_type(etype) || !valid_type(filetype))
		return file_return(call, fh, MPI_ERR_TYPE, "etype %d or filetype %d is not a committed datatype", etype, filetype);
	if (dt_size(etype) == 0 || dt_size(filetype) % dt_size(etype) != 0)
		return file_return(call, fh, MPI_ERR_ARG, "filetype %d is not made of etype %d", filetype, etype);
	if (datarep == NULL || (strcmp(datarep, "native") && strcmp(datarep, "internal") && strcmp(datarep, "external32")))
		return file_return(call, fh, MPI_ERR_UNSUPPORTED_DATAREP, "data representation \"%s\"", datarep ? datarep : "(null)");
	if (disp == MPI_DISPLACEMENT_CURRENT) {
		MPI_Offset sp;
		long run;

		if (!(f->amode & MPI_MODE_SEQUENTIAL))
			return file_return(call, fh, MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL");
		if ((rc = file_pointer(fh, DPCL_FILEPTR_FETCH_ADD, 0, &sp)) != MPI_SUCCESS)
			return rc;
		disp = f->view.tsize ? view_map(&f->view, sp * f->view.esize, &run) : f->view.disp;
	}
	if (disp < 0)
		return file_return(call, fh, MPI_ERR_ARG, "invalid displacement %lld", disp);
	if ((rc = view_check(call, fh, etype, filetype, (f->amode & MPI_MODE_RDONLY) != 0)) != MPI_SUCCESS)
		return rc;
	if ((rc = MPI_Barrier(fh)) != MPI_SUCCESS)
		return rc;
	if ((rc = view_make(call, fh, &w, disp, etype, filetype)) != MPI_SUCCESS)
		return rc;
	snprintf(w.datarep, sizeof w.datarep, "%s", datarep);
	view_free(&f->view);
	f->view = w;
	f->pos = 0;
	if (info != MPI_INFO_NULL)
		MPI_File_set_info(fh, info);
	MPI_Comm_rank(fh, &rank);
	if (rank == 0)
		file_pointer(fh, DPCL_FILEPTR_SET, 0, NULL);
	return MPI_Barrier(fh);
}

MPI_FN int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
	char *datarep)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_view", fh, &rc);

	if (f == NULL)
		return rc;
	*disp = f->view.disp;
	/* Derived types come back as new handles the program frees. */
	*etype = f->view.etype;
	*filetype = f->view.filetype;
	if (is_derived(*etype))
		MPI_Type_dup(f->view.etype, etype);
	if (is_derived(*filetype))
		MPI_Type_dup(f->view.filetype, filetype);
	if (datarep != NULL)
		strcpy(datarep, f->view.datarep);
	return MPI_SUCCESS;
}

MPI_FN int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
	int rc = MPI_SUCCESS;
	MPI_Aint lb;

	if (file_get("MPI_File_get_type_extent", fh, &rc) == NULL)
		return rc;
	return MPI_Type_get_extent(datatype, &lb, extent);
}

/* MPI_File_set_atomicity is recorded: the data semantics stay a POSIX file's. */
MPI_FN int MPI_File_set_atomicity(MPI_File fh, int flag)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_set_atomicity", fh, &rc);

	if (f == NULL)
		return rc;
	f->atomic = flag != 0;
	return MPI_Barrier(fh);
}

MPI_FN int MPI_File_get_atomicity(MPI_File fh, int *flag)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_get_atomicity", fh, &rc);

	if (f == NULL)
		return rc;
	*flag = f->atomic;
	return MPI_SUCCESS;
}

/* MPI_File_sync: the rank's data reaches the file system, then the group syncs. */
MPI_FN int MPI_File_sync(MPI_File fh)
{
	int rc = MPI_SUCCESS;
	struct file *f = file_get("MPI_File_sync", fh, &rc);

	if (f == NULL)
		return rc;
	if (fsync(f->fd) != 0) {
		int err = errno;

		MPI_Barrier(fh);
		return file_return("MPI_File_sync", fh, io_class(err), "%s", strerror(err));
	}
	return MPI_Barrier(fh);
}

MPI_FN int MPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler)
{
	return MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)fn, errhandler);
}

MPI_FN int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
	int rc = MPI_SUCCESS;

	if (!valid_eh(errhandler))
		return file_return("MPI_File_set_errhandler", file, MPI_ERR_ARG, "invalid error handler %d", errhandler);
	if (file == MPI_FILE_NULL) {
		eh_ref(errhandler, +1);
		eh_ref(file_null_eh, -1);
		file_null_eh = errhandler;
		return MPI_SUCCESS;
	}
	if (file_get("MPI_File_set_errhandler", file, &rc) == NULL)
		return rc;
	return set_comm_eh(file, errhandler);
}

MPI_FN int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
	int rc = MPI_SUCCESS;

	if (file == MPI_FILE_NULL) {
		*errhandler = file_null_eh;
		eh_ref(file_null_eh, +1);
		return MPI_SUCCESS;
	}
	if (file_get("MPI_File_get_errhandler", file, &rc) == NULL)
		return rc;
	return MPI_Comm_get_errhandler(file, errhandler);
}

MPI_FN int MPI_File_call_errhandler(MPI_File fh, int errorcode)
{
	int class = err_class(errorcode);

	file_return("MPI_File_call_errhandler", fh, class < 0 ? MPI_ERR_UNKNOWN : errorcode,
		"error code %d raised by the program", errorcode);
	return MPI_SUCCESS;
}

/* A file's Fortran handle is its C handle. */
MPI_FN MPI_File MPI_File_f2c(int file)
{
	return (MPI_File)file;
}

MPI_FN int MPI_File_c2f(MPI_File file)
{
	return (int)file;
}

#include "libmpi_io_rw.c"
#include "libmpi_darray.c"
