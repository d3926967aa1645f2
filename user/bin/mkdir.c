/* user/bin/mkdir.c - mkdir DIR...: makes each directory (mode 0777 less
 * the umask). */
#include "stdio.h"
#include "string.h"
#include "errno.h"
#include "sys/stat.h"

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: mkdir DIR...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (mkdir(argv[i], 0777) < 0) {
			fprintf(stderr, "mkdir: %s: %s\n", argv[i], strerror(errno));
			rc = 1;
		}
	return rc;
}
