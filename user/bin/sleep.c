/* user/bin/sleep.c - sleep SECONDS: waits, then exits 0.
 *
 * SECONDS may have a fraction: `sleep 0.25`. */
#include "stdio.h"
#include "stdlib.h"
#include "ctype.h"
#include "errno.h"
#include "time.h"

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 0 };
	char *end;

	if (argc != 2 || !isdigit((unsigned char)argv[1][0])) {
		fprintf(stderr, "usage: sleep SECONDS\n");
		return 2;
	}
	ts.tv_sec = strtol(argv[1], &end, 10);
	if (*end == '.') {
		long scale = 100000000;

		for (end++; isdigit((unsigned char)*end); end++, scale /= 10)
			ts.tv_nsec += (*end - '0') * scale;
	}
	if (*end) {
		fprintf(stderr, "sleep: bad number: %s\n", argv[1]);
		return 2;
	}
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;                       /* interrupted: sleep what is left */
	return 0;
}
