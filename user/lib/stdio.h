/* user/lib/stdio.h - formatted output straight to a file descriptor.
 *
 * No FILE streams yet: printf writes to fd 1 and dprintf to any fd, each
 * call in as few write(2)s as it can (one, for up to PRINTF_BUFSIZE bytes),
 * so lines printed by different processes do not interleave. The
 * conversions are lib/format.h's (no floating point). */
#ifndef USER_STDIO_H
#define USER_STDIO_H

#include "lib/format.h"     /* vsnprintf, snprintf */

#define PRINTF_BUFSIZE 512

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int dprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vdprintf(int fd, const char *fmt, va_list ap);
int puts(const char *s);

#endif
