/* user/bin/ls.c - ls [-a] [PATH...]: each directory's entries, sorted by
 * name, one a line with its size ("    1234 name", a directory's name
 * ending in '/', a symbolic link's followed by " -> target"); a file
 * argument is shown as itself. No PATH: the working directory. With
 * several, each directory's listing starts with "PATH:". -a shows the
 * names starting with '.' too.
 *
 * On the seed kernel (make seed) there are no directories and no stat
 * (abi.md section 3: the initrd's files, read-only): ls then lists
 * /proc/files, the flat table of the initrd's files, "SIZE PATH" a
 * line, keeping the paths under the directory asked for. */
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "dirent.h"
#include "unistd.h"
#include "sys/stat.h"

#define MAX_ENTRIES 1024

static bool all;

/* Insertion sort: directories here hold tens of names, not thousands. */
static void sort_names(char **v, int n)
{
	for (int i = 1; i < n; i++) {
		char *x = v[i];
		int j = i;
		for (; j > 0 && strcmp(v[j - 1], x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* One line: the size, the name as given, and what kind it is. */
static void show(const char *path, const char *name)
{
	struct stat st;
	char target[256];
	long n;

	if (lstat(path, &st) < 0) {
		fprintf(stderr, "ls: %s: %s\n", path, strerror(errno));
		return;
	}
	printf("%8lld %s%s", st.st_size, name, S_ISDIR(st.st_mode) ? "/" : "");
	if (S_ISLNK(st.st_mode) && (n = readlink(path, target, sizeof(target) - 1)) >= 0) {
		target[n] = '\0';
		printf(" -> %s", target);
	}
	putchar('\n');
}

static int list_dir(const char *dir)
{
	static char *names[MAX_ENTRIES];
	char path[512];
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "ls: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) != NULL && n < MAX_ENTRIES)
		if (all || e->d_name[0] != '.')
			if ((names[n] = strdup(e->d_name)) != NULL)
				n++;
	closedir(d);
	sort_names(names, n);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		show(path, names[i]);
		free(names[i]);
	}
	return 0;
}

/* The seed kernel's way: /proc/files, the paths under dir. */
static int list_flat(const char *dir)
{
	char line[512], prefix[256];
	FILE *f = fopen("/proc/files", "r");
	size_t n;

	if (!f) {
		fprintf(stderr, "ls: /proc/files: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(dir, ".") || !strcmp(dir, "/"))
		dir = "";
	snprintf(prefix, sizeof(prefix), "%s/", dir);
	n = strlen(prefix);
	while (fgets(line, sizeof(line), f)) {
		char *path = strchr(line, ' ');
		if (!path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (!strncmp(path, prefix, n) && (all || path[n] != '.'))
			printf("%8s %s\n", line, path + n);
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, rc = 0, paths;

	if (i < argc && !strcmp(argv[i], "-a")) {
		all = true;
		i++;
	}
	paths = argc - i;
	if (stat("/", &(struct stat){ 0 }) < 0 && errno == ENOSYS) {
		/* The seed kernel: no directories to walk. */
		if (paths == 0)
			return list_flat(".");
		for (; i < argc; i++)
			rc |= list_flat(argv[i]);
		return rc;
	}
	if (paths == 0)
		return list_dir(".");
	for (; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "ls: %s: %s\n", argv[i], strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (paths > 1)
				printf("%s:\n", argv[i]);
			rc |= list_dir(argv[i]);
		} else {
			show(argv[i], argv[i]);
		}
	}
	return rc;
}
