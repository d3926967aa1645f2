/* user/bin/cat.c - cat [FILE...]: copies each file (or the console, up
 * to Ctrl-D, when there is none) to stdout. */
#include "stdio.h"
#include "string.h"
#include "errno.h"
#include "fcntl.h"
#include "unistd.h"

static int copy(int fd)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0, w; done < n; done += w)
			if ((w = write(1, buf + done, (size_t)(n - done))) < 0)
				return -1;
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2)
		return copy(0) ? 1 : 0;
	for (int i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);

		if (fd < 0 || copy(fd) < 0) {
			fprintf(stderr, "cat: %s: %s\n", argv[i], strerror(errno));
			rc = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	return rc;
}
