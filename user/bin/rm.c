/* user/bin/rm.c - rm [-d] PATH...: removes each file (with -d, an empty
 * directory too). A file open elsewhere lives on until it is closed. */
#include "stdio.h"
#include "string.h"
#include "errno.h"
#include "unistd.h"

int main(int argc, char **argv)
{
	int i = 1, rc = 0;
	bool dirs = false;

	if (i < argc && !strcmp(argv[i], "-d")) {
		dirs = true;
		i++;
	}
	if (i == argc) {
		fprintf(stderr, "usage: rm [-d] PATH...\n");
		return 2;
	}
	for (; i < argc; i++) {
		int r = unlink(argv[i]);
		if (r < 0 && errno == EISDIR && dirs)
			r = rmdir(argv[i]);
		if (r < 0) {
			fprintf(stderr, "rm: %s: %s\n", argv[i], strerror(errno));
			rc = 1;
		}
	}
	return rc;
}
