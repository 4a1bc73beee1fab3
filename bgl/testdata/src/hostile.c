/* hostile.c: programs that try to take more than a compute node offers. argv[1] picks the
 * attack; each prints what it got, so tests can check that the machine refused it with the
 * right errno and that the host and the other ranks kept going.
 *   memory  malloc 1 MiB pieces until NULL (touching each), then MAP_FIXED 2.5 GiB above
 *           the stack; prints MiB obtained, the mmap errno and sysinfo's total/free RAM
 *   fork    fork() and execve() (CNK: one process per node)
 *   stdin   read fd 0 until EOF or error
 *   fifo    open argv[2] (a FIFO or device in the workdir) for reading
 *   bigfile write argv[2] MiB to "big.out" in 1 MiB pieces
 *   sparse  write one byte at offset 1 TiB of "sparse.out"
 *   files   open "files.in" until the descriptor table is full
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static int memory(void)
{
	size_t mib = 0;
	char *p;
	while ((p = malloc(1 << 20)) != NULL) {
		for (int i = 0; i < (1 << 20); i += 4096)
			p[i] = 1;
		mib++;
	}
	void *q = mmap((void *)0x50000000, 2560u << 20, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	int merr = q == MAP_FAILED ? errno : 0;
	struct sysinfo si;
	sysinfo(&si);
	printf("malloc %zu MiB; fixed mmap %s; totalram %lu MiB; freeram %lu MiB\n", mib,
	       merr ? strerror(merr) : "succeeded", si.totalram * si.mem_unit >> 20,
	       si.freeram * si.mem_unit >> 20);
	return 0;
}

static int forks(void)
{
	pid_t pid = fork();
	printf("fork: %d (%s)\n", (int)pid, pid < 0 ? strerror(errno) : "ok");
	if (pid == 0)
		_exit(0);
	char *argv[] = {"/bin/true", NULL};
	execve("/bin/true", argv, NULL);
	printf("execve: %s\n", strerror(errno));
	return 0;
}

static int readall(int fd, const char *what)
{
	char buf[4096];
	long total = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += n;
	printf("%s: %ld bytes, %s\n", what, total, n < 0 ? strerror(errno) : "EOF");
	return 0;
}

static int fifo(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("open %s: %s\n", path, strerror(errno));
		return 0;
	}
	return readall(fd, path);
}

static int writefile(const char *path, long long off, long mib)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		printf("open %s: %s\n", path, strerror(errno));
		return 0;
	}
	if (off && lseek64(fd, off, SEEK_SET) < 0) {
		printf("lseek %s: %s\n", path, strerror(errno));
		return 0;
	}
	static char buf[1 << 20];
	long long total = 0;
	for (long i = 0; i < mib; i++) {
		ssize_t n = write(fd, buf, off ? 1 : sizeof buf);
		if (n < 0) {
			printf("write %s after %lld bytes: %s\n", path, total, strerror(errno));
			close(fd);
			return 0;
		}
		total += n;
	}
	printf("write %s: %lld bytes\n", path, total);
	return close(fd);
}

static int files(void)
{
	int n = 0, fd;
	while ((fd = open("files.in", O_RDONLY)) >= 0)
		n++;
	printf("files: %d open, then %s\n", n, strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "memory"))
		return memory();
	if (!strcmp(mode, "fork"))
		return forks();
	if (!strcmp(mode, "stdin"))
		return readall(0, "stdin");
	if (!strcmp(mode, "fifo") && argc > 2)
		return fifo(argv[2]);
	if (!strcmp(mode, "bigfile") && argc > 2)
		return writefile("big.out", 0, atol(argv[2]));
	if (!strcmp(mode, "sparse"))
		return writefile("sparse.out", 1LL << 40, 1);
	if (!strcmp(mode, "files"))
		return files();
	fprintf(stderr, "usage: hostile memory|fork|stdin|fifo PATH|bigfile MIB|sparse|files\n");
	return 2;
}
