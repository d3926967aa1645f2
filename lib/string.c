/* lib/string.c - memory and string functions (lib/string.h).
 *
 * Freestanding: the kernel has no libc, so these are the only memcpy and
 * friends it links. Simple loops a student can step through in GDB, except
 * that on i386 memcpy, memset and forward memmove move four bytes per step
 * with `rep movsl` / `rep stosl` (SDM Vol. 2B, MOVS/STOS): fork zeroes and
 * copies whole pages, and a byte loop made it five times slower.
 *
 * The host unit test (tests/unit/test_string.c) compiles this file with
 * -Dmemcpy=spindle_memcpy and the like, so it tests this code and not
 * glibc's (see tests/unit/Makefile.inc). */
#include "lib/string.h"

/* gcc recognises a byte-copy or byte-fill loop and may replace it with a
 * call to memcpy/memset (-ftree-loop-distribute-patterns, on from -O2).
 * Inside memcpy itself that call would recurse forever, and -fno-builtin
 * does not turn the transformation off, so switch it off here. */
#define NO_LOOP_TO_LIBCALL \
	__attribute__((optimize("no-tree-loop-distribute-patterns")))

#if defined(__i386__)
/* n/4 dwords then n%4 bytes, upward (DF is clear: the kernel's trap entry
 * and the C ABI both guarantee it). */
static inline void copy_up(void *dst, const void *src, size_t n)
{
	size_t words = n / 4, bytes = n % 4;

	__asm__ volatile("rep movsl\n\tmovl %3, %%ecx\n\trep movsb"
			 : "+D"(dst), "+S"(src), "+c"(words)
			 : "r"(bytes) : "memory");
}
#endif

NO_LOOP_TO_LIBCALL
void *memcpy(void *dst, const void *src, size_t n)
{
#if defined(__i386__)
	copy_up(dst, src, n);
#else
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
#endif
	return dst;
}

/* Overlap-safe: copy forwards when dst is below src, else backwards, so no
 * byte is overwritten before it is read. The pointers are compared as
 * integers because they may point into different objects. */
NO_LOOP_TO_LIBCALL
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d < (uintptr_t)s) {
#if defined(__i386__)
		copy_up(d, s, n);
#else
		while (n--)
			*d++ = *s++;
#endif
	} else if ((uintptr_t)d > (uintptr_t)s) {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}

NO_LOOP_TO_LIBCALL
void *memset(void *dst, int c, size_t n)
{
#if defined(__i386__)
	uint32_t v = (unsigned char)c * 0x01010101u;
	size_t words = n / 4, bytes = n % 4;
	void *d = dst;

	__asm__ volatile("rep stosl\n\tmovl %3, %%ecx\n\trep stosb"
			 : "+D"(d), "+c"(words) : "a"(v), "r"(bytes) : "memory");
#else
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
#endif
	return dst;
}

/* Bytes compare as unsigned char (C11 7.24.4). */
int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p < *q ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

/* Characters compare as unsigned char, as memcmp does (C11 7.24.4). */
int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		if (x != y)
			return x < y ? -1 : 1;
		if (!x)
			break;
	}
	return 0;
}

/* c is converted to char, and the terminating NUL counts as part of the
 * string: strchr(s, 0) finds the end (C11 7.24.5.2). */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

/* BSD strlcpy: copies at most size-1 bytes, always NUL-terminates when
 * size > 0, and returns strlen(src) so that ret >= size means truncated. */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
