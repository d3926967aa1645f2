/* user/lib/assert.c - what a failed assert() does (assert.h). */
#include "assert.h"
#include "stdio.h"
#include "stdlib.h"

void __assert_fail(const char *expr, const char *file, unsigned int line,
		   const char *func)
{
	(void)func;
	fflush(stdout);         /* what the program printed comes first */
	fprintf(stderr, "Assertion failed: %s, file %s, line %u\n", expr, file, line);
	abort();
}
