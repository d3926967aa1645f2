/* user/lib/stdio_ext.h - looking inside a stream (the Solaris/glibc
 * extension of that name): how tests see what is still buffered. */
#ifndef USER_STDIO_EXT_H
#define USER_STDIO_EXT_H

#include "stdio.h"

/* Bytes written to f that have not gone to write(2) yet. */
size_t __fpending(FILE *f);
/* Is f line buffered? */
int __flbf(FILE *f);

#endif
