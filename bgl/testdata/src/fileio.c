#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	FILE *f = fopen("data.txt", "w");
	if (!f) {
		perror("fopen");
		return 1;
	}
	for (int i = 0; i < 100; i++)
		fprintf(f, "line %d: %d\n", i, i * i);
	fclose(f);
	struct stat st;
	if (stat("data.txt", &st) != 0) {
		perror("stat");
		return 1;
	}
	printf("size %lld regular %d\n", (long long)st.st_size, S_ISREG(st.st_mode));
	f = fopen("data.txt", "r");
	char line[64];
	int n = 0;
	long total = 0;
	while (fgets(line, sizeof line, f)) {
		int a, b;
		if (sscanf(line, "line %d: %d", &a, &b) == 2)
			total += b;
		n++;
	}
	fseek(f, 100, SEEK_SET);
	fgets(line, sizeof line, f);
	printf("lines %d total %ld at100 %s", n, total, line);
	fclose(f);
	f = fopen("data.txt", "a");
	fputs("appended\n", f);
	fclose(f);
	int fd = open("data.txt", O_RDONLY);
	off_t end = lseek(fd, -9, SEEK_END);
	char tail[16] = {0};
	ssize_t got = read(fd, tail, sizeof tail - 1);
	printf("end %lld got %zd tail %s", (long long)end, got, tail);
	close(fd);
	printf("rename %d\n", rename("data.txt", "moved.txt"));
	printf("old gone %d errno %s\n", access("data.txt", F_OK), strerror(errno));
	printf("mkdir %d\n", mkdir("sub", 0755));
	f = fopen("sub/inner.txt", "w");
	fputs("x", f);
	fclose(f);
	printf("unlink %d %d rmdir %d\n", unlink("sub/inner.txt"), unlink("moved.txt"), rmdir("sub"));
	printf("missing %d errno %s\n", open("nope.txt", O_RDONLY), strerror(errno));
	return 0;
}
