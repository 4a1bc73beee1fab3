#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void try_open(const char *path, int flags)
{
	int fd = open(path, flags, 0644);
	printf("open %s: %s\n", path, fd >= 0 ? "ok" : strerror(errno));
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	try_open("/etc/passwd", O_RDONLY);
	try_open("../../x", O_WRONLY | O_CREAT);
	try_open("../above.txt", O_WRONLY | O_CREAT);
	try_open("escape/passwd", O_RDONLY);
	try_open("escape/created.txt", O_WRONLY | O_CREAT);
	try_open("uplink/outside.txt", O_WRONLY | O_CREAT);
	try_open("sub/../../x", O_RDONLY);
	printf("mkdir ../d: %s\n", mkdir("../d", 0755) == 0 ? "ok" : strerror(errno));
	printf("unlink ../victim.txt: %s\n", unlink("../victim.txt") == 0 ? "ok" : strerror(errno));
	printf("rename out: %s\n", rename("inside.txt", "../stolen.txt") == 0 ? "ok" : strerror(errno));
	int fd = open("inside.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	printf("write inside: %zd\n", write(fd, "inside\n", 7));
	close(fd);
	char buf[16] = {0};
	fd = open("./sub/../inside.txt", O_RDONLY);
	printf("read inside: %zd %s", read(fd, buf, sizeof buf - 1), buf);
	close(fd);
	char cwd[4096];
	printf("getcwd: %s\n", getcwd(cwd, sizeof cwd) ? cwd : strerror(errno));
	/* The working directory is /job as the rank sees it: absolute paths below it work,
	 * and what would leave it is refused as before. */
	memset(buf, 0, sizeof buf);
	fd = open("/job/inside.txt", O_RDONLY);
	printf("read /job/inside.txt: %zd %s", read(fd, buf, sizeof buf - 1), buf);
	close(fd);
	try_open("/job/sub/../inside.txt", O_RDONLY);
	try_open("/job/../x", O_WRONLY | O_CREAT);
	try_open("/job/escape/passwd", O_RDONLY);
	try_open("/jobs/x", O_WRONLY | O_CREAT);
	return 0;
}
