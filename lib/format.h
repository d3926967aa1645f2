/* lib/format.h - printf-style formatting without any output device.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %% with the flags '-', '0', '+',
 * ' ', '#', a field width and a precision (both may be '*'), and the length
 * modifiers hh, h, l, ll (64-bit, so 32-bit targets need libgcc's
 * __udivdi3), z and t. %p prints 0x and 8 hex digits on i386.
 * An unknown conversion is printed as written.
 *
 * Floating point (%f %F %e %E %g %G) goes through format_float_hook: the
 * kernel is built without the FPU (-mno-80387) and leaves it NULL, so
 * there they are unknown conversions; the user libc sets it at start-up
 * (user/lib/fmt_float.c). */
#ifndef LIB_FORMAT_H
#define LIB_FORMAT_H

#include "lib/types.h"

/* One floating-point conversion, for format_float_hook: conv is one of
 * f F e E g G; prec is -1 when none was given. The hook takes the double
 * from *ap and writes text, then `zeros` more '0's, then suffix (the
 * exponent), e.g. "-1.5" 0 "e+03": a precision of a million needs no
 * million-byte buffer. sign_len is how many leading characters of text
 * are the sign, which '0' padding goes after; finite is false for inf and
 * nan, which are never zero-padded. */
#define FORMAT_FLOAT_TEXT 1440      /* 309 integer digits, 1100 more, a sign */
struct format_float {
	char conv;
	int prec;
	bool plus, space, alt;          /* the '+', ' ' and '#' flags */
	char text[FORMAT_FLOAT_TEXT];
	int text_len;
	int zeros;
	char suffix[8];
	int sign_len;
	bool finite;
};
extern void (*format_float_hook)(struct format_float *f, va_list *ap);

/* Calls emit(c, arg) once per output character; returns the count. */
int vformat(void (*emit)(char c, void *arg), void *arg,
	    const char *fmt, va_list ap);

/* C99 semantics: always NUL-terminates when size > 0, returns the length
 * the full output would have had. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
