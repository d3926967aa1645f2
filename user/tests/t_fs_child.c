/* user/tests/t_fs_child.c - the program t_fs_fds and t_fs_pipe execute
 * (a helper: names ending in _child are not tests). argv[1] says what:
 *
 *   open FD...      exit 0 if every FD is open, else 10 + the first closed
 *   closed FD...    exit 0 if every FD is closed, else 10 + the first open
 *   cat             copy fd 0 to fd 1 until end of file, exit 0
 *   upper           the same, in capitals
 *   nofile N        exit 0 if RLIMIT_NOFILE's soft limit is N, else 10
 *
 * Any other use exits 99. */
#include "fcntl.h"
#include "stdlib.h"
#include "string.h"
#include "unistd.h"
#include "ctype.h"
#include "raw.h"
#include "sys/resource.h"

static int copy(bool upper)
{
	char buf[512];
	long n;

	while ((n = raw_read(0, buf, sizeof(buf))) > 0) {
		if (upper)
			for (long i = 0; i < n; i++)
				buf[i] = (char)toupper((unsigned char)buf[i]);
		if (raw_write(1, buf, (size_t)n) != n)
			return 2;
	}
	return n < 0 ? 3 : 0;
}

int main(int argc, char **argv)
{
	bool want_open;

	if (argc < 2)
		return 99;
	if (!strcmp(argv[1], "cat"))
		return copy(false);
	if (!strcmp(argv[1], "upper"))
		return copy(true);
	if (!strcmp(argv[1], "nofile") && argc == 3) {
		struct rlimit r;
		return raw_getrlimit(RLIMIT_NOFILE, &r) == 0 &&
		       r.rlim_cur == strtoul(argv[2], NULL, 10) ? 0 : 10;
	}
	want_open = !strcmp(argv[1], "open");
	if (!want_open && strcmp(argv[1], "closed"))
		return 99;
	for (int i = 2; i < argc; i++) {
		int fd = atoi(argv[i]);
		bool is_open = raw_fcntl64(fd, F_GETFD, 0) >= 0;
		if (is_open != want_open)
			return 10 + fd;
	}
	return 0;
}
