/* user/lib/string.h - the string functions.
 *
 * The ones the kernel has too are lib/string.c's, the same code compiled
 * again for user space (lib/string.h); string_ext.c adds the rest of what
 * C programs expect; strerror.c and strsignal.c name error and signal
 * numbers. */
#ifndef USER_STRING_H
#define USER_STRING_H

#include "lib/string.h"

void *memchr(const void *s, int c, size_t n);
char *strcpy(char *dst, const char *src);
/* C's strncpy: pads dst with NULs up to n, and does NOT terminate it
 * when src is n bytes or longer (strlcpy does). */
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strncat(char *dst, const char *src, size_t n);
char *strdup(const char *s);                /* malloc'ed; NULL + ENOMEM */
char *strndup(const char *s, size_t n);
char *strstr(const char *haystack, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strpbrk(const char *s, const char *accept);
char *strtok_r(char *s, const char *delim, char **save);

/* The Linux (glibc) message for errno value e; "Unknown error N" for a
 * number lib/errno.h does not name. The string must not be modified. */
char *strerror(int e);
/* The glibc description of signal sig ("Segmentation fault"), or
 * "Unknown signal N". */
char *strsignal(int sig);

#endif
