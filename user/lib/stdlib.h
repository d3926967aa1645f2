/* user/lib/stdlib.h - memory, numbers, the environment and process exit. */
#ifndef USER_STDLIB_H
#define USER_STDLIB_H

#include "lib/types.h"

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

/* ---- memory (malloc.c over heap.c) ----
 * Blocks are 16-byte aligned. Small ones come from the heap that brk(2)
 * grows (a first-fit free list; freed memory is kept for reuse, never
 * given back to the kernel); blocks of MALLOC_MMAP_THRESHOLD bytes or
 * more get their own mmap2 mapping, which free() unmaps at once.
 * Failure: NULL with errno ENOMEM. free() of a pointer malloc did not
 * return, or of one already freed, prints a line and aborts. */
#define MALLOC_MMAP_THRESHOLD (64 * 1024)
void *malloc(size_t n);
void free(void *p);
void *calloc(size_t nmemb, size_t size);
/* realloc(NULL, n) is malloc(n); realloc(p, 0) frees p and returns NULL
 * (as glibc). On failure p is left as it was. */
void *realloc(void *p, size_t n);

/* ---- numbers (strtol.c) ----
 * Leading white space, an optional sign, then digits in base (2..36, or
 * 0: "0x" hex, "0" octal, else decimal; base 16 accepts "0x" too). Out of
 * range: the nearest limit and errno ERANGE; a bad base: 0 and EINVAL.
 * *end (if end is not NULL) is set after the last digit used, or to s
 * when there was no number. */
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
int atoi(const char *s);
long atol(const char *s);
int abs(int v);
long labs(long v);
/* strtod.c: decimal, hex (0x...p...), inf, infinity, nan, nan(...);
 * correctly rounded for up to 19 significant digits and decimal
 * exponents up to 27, else within one unit in the last place. Out of
 * range: +-HUGE_VAL or 0 with errno ERANGE. atof(s) = strtod(s, NULL). */
double strtod(const char *s, char **end);
double atof(const char *s);

/* ---- environment (getenv.c) ---- */
/* The value of NAME in environ, or NULL. */
char *getenv(const char *name);

/* ---- leaving (exit.c, abort.c) ---- */
/* Runs the atexit handlers, last registered first, flushes every stdio
 * stream, and ends the process (every thread: exit_group) with status
 * code & 0xff. */
void exit(int code) __attribute__((noreturn));
/* Registers fn for exit(); up to ATEXIT_MAX. 0, or -1 when full. */
#define ATEXIT_MAX 32
int atexit(void (*fn)(void));
/* Ends the process with SIGABRT (kill(getpid(), SIGABRT)), even if the
 * signal is caught or ignored; no atexit handlers, no flushing. */
void abort(void) __attribute__((noreturn));
void _Exit(int code) __attribute__((noreturn));

#endif
