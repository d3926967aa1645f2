/* lib/format.h - printf-style formatting without any output device.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %% with the flags '-', '0', '+',
 * ' ', '#', a field width and a precision (both may be '*'), and the length
 * modifiers hh, h, l, ll (64-bit, so 32-bit targets need libgcc's
 * __udivdi3), z and t. %p prints 0x and 8 hex digits on i386.
 * An unknown conversion is printed as written. */
#ifndef LIB_FORMAT_H
#define LIB_FORMAT_H

#include "lib/types.h"

/* Calls emit(c, arg) once per output character; returns the count. */
int vformat(void (*emit)(char c, void *arg), void *arg,
	    const char *fmt, va_list ap);

/* C99 semantics: always NUL-terminates when size > 0, returns the length
 * the full output would have had. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
