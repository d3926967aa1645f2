/* user/lib/assert.h - assert (C11 7.2).
 *
 * A failed assert(expr) prints
 *     Assertion failed: expr, file FILE, line LINE
 * on stderr and aborts (SIGABRT). With NDEBUG defined before this header
 * is included, assert(expr) does nothing and expr is not evaluated.
 * Like the standard header, this one may be included again with NDEBUG
 * changed. */
#undef assert
#ifdef NDEBUG
#define assert(expr) ((void)0)
#else
#define assert(expr) \
	((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))
#endif

#ifndef USER_ASSERT_H
#define USER_ASSERT_H

#define static_assert _Static_assert

void __assert_fail(const char *expr, const char *file, unsigned int line,
		   const char *func) __attribute__((noreturn));

#endif
