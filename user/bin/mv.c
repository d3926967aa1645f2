/* user/bin/mv.c - mv FROM TO: renames FROM to TO (rename(2): TO is
 * replaced if it exists). With TO an existing directory, FROM moves into
 * it under its own name. */
#include "stdio.h"
#include "string.h"
#include "errno.h"
#include "sys/stat.h"

int main(int argc, char **argv)
{
	char to[512];
	const char *base;
	struct stat st;

	if (argc != 3) {
		fprintf(stderr, "usage: mv FROM TO\n");
		return 2;
	}
	strlcpy(to, argv[2], sizeof(to));
	if (stat(argv[2], &st) == 0 && S_ISDIR(st.st_mode)) {
		base = strrchr(argv[1], '/');
		snprintf(to, sizeof(to), "%s/%s", argv[2], base ? base + 1 : argv[1]);
	}
	if (rename(argv[1], to) < 0) {
		fprintf(stderr, "mv: %s -> %s: %s\n", argv[1], to, strerror(errno));
		return 1;
	}
	return 0;
}
