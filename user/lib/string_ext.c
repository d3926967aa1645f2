/* user/lib/string_ext.c - the string functions of C11 7.24 (and POSIX's
 * strdup, strndup, strtok_r) that lib/string.c, shared with the kernel,
 * does not have. */
#include "string.h"
#include "stdlib.h"
#include "errno.h"

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

char *strcpy(char *dst, const char *src)
{
	return memcpy(dst, src, strlen(src) + 1);
}

char *strncpy(char *dst, const char *src, size_t n)
{
	size_t len = strnlen(src, n);

	memcpy(dst, src, len);
	memset(dst + len, 0, n - len);
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

/* Appends at most n bytes of src, then always a NUL. */
char *strncat(char *dst, const char *src, size_t n)
{
	char *end = dst + strlen(dst);
	size_t len = strnlen(src, n);

	memcpy(end, src, len);
	end[len] = '\0';
	return dst;
}

char *strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

char *strdup(const char *s)
{
	return strndup(s, (size_t)-1);
}

/* The simple quadratic search: fine for the short strings of a shell. */
char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (strncmp(haystack, needle, n) == 0)
			return (char *)haystack;
	return n == 0 ? (char *)haystack : NULL;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strpbrk(const char *s, const char *accept)
{
	s += strcspn(s, accept);
	return *s ? (char *)s : NULL;
}

/* Splits s at any byte of delim; *save remembers where to go on (pass
 * s = NULL then). Empty fields are skipped, as C's strtok does. */
char *strtok_r(char *s, const char *delim, char **save)
{
	char *tok;

	if (!s)
		s = *save;
	s += strspn(s, delim);
	if (!*s) {
		*save = s;
		return NULL;
	}
	tok = s;
	s += strcspn(s, delim);
	if (*s)
		*s++ = '\0';
	*save = s;
	return tok;
}
