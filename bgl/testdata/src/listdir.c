/* listdir.c: creates a few files and a directory, then lists the working directory
 * sorted (readdir order is the file system's). */
#define _FILE_OFFSET_BITS 64 /* 64-bit d_off: qemu passes the host file system's offsets through */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char name[32];
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof name, "file-%02d-with-a-longer-name.txt", i);
		fclose(fopen(name, "w"));
	}
	mkdir("subdir", 0755);
	DIR *d = opendir(".");
	if (!d) {
		perror("opendir");
		return 1;
	}
	char *names[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < 64)
		names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof names[0], cmp);
	for (int i = 0; i < n; i++) {
		struct stat st;
		stat(names[i], &st);
		printf("%s %s\n", names[i], S_ISDIR(st.st_mode) ? "dir" : "file");
	}
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof name, "file-%02d-with-a-longer-name.txt", i);
		unlink(name);
	}
	rmdir("subdir");
	return 0;
}
