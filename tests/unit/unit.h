/* tests/unit/unit.h - a tiny host test framework.
 *
 *   TEST(name) { CHECK(x > 0); CHECK_EQ_U(desc.b, 0x00cf9a00); }
 *
 * Each TEST registers itself from a static constructor, in the order the
 * tests are written. unit_main.c runs every test of the binary (or only
 * those named on its command line), each in a child process so that a
 * crash fails that one test, and prints one line per test:
 *
 *   PASS unit/<binary>.<test>
 *   FAIL unit/<binary>.<test>: <file>:<line>: <what failed>
 *
 * and exits 1 if any test failed, else 0. A failed CHECK ends its test
 * at once, even from a helper function (unit_fail does not return): the
 * tree's one rule for every test dialect, docs/contributing.md "Tests".
 *
 * This header includes no libc header on purpose: the string and format
 * tests compile lib/ code under renames (-Dmemcpy=spindle_memcpy, see
 * Makefile.inc) that must not meet glibc's declarations. */
#ifndef TESTS_UNIT_UNIT_H
#define TESTS_UNIT_UNIT_H

#include <stdbool.h>
#include <stddef.h>

struct unit_test {
	const char *name;
	void (*fn)(void);
	struct unit_test *next;
};

void unit_register(struct unit_test *t);
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
/* NULL-safe comparisons, done in unit_main.c with the host's libc. */
bool unit_str_eq(const char *a, const char *b);
bool unit_mem_eq(const void *a, const void *b, size_t n);

#define TEST(name)                                                       \
	static void unit_fn_##name(void);                                \
	static struct unit_test unit_test_##name = {                     \
		#name, unit_fn_##name, NULL };                           \
	__attribute__((constructor)) static void unit_reg_##name(void)  \
	{                                                                \
		unit_register(&unit_test_##name);                        \
	}                                                                \
	static void unit_fn_##name(void)

#define CHECK(cond)                                                      \
	do {                                                             \
		if (!(cond))                                             \
			unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
	} while (0)

/* Compares as unsigned long long; prints both values in hex. */
#define CHECK_EQ_U(a, b)                                                 \
	do {                                                             \
		unsigned long long unit_a_ = (a), unit_b_ = (b);         \
		if (unit_a_ != unit_b_)                                  \
			unit_fail(__FILE__, __LINE__,                    \
				  "CHECK_EQ_U(%s, %s): 0x%llx != 0x%llx", \
				  #a, #b, unit_a_, unit_b_);             \
	} while (0)

/* Compares as long long; prints both values in decimal (return codes). */
#define CHECK_EQ_I(a, b)                                                 \
	do {                                                             \
		long long unit_a_ = (a), unit_b_ = (b);                  \
		if (unit_a_ != unit_b_)                                  \
			unit_fail(__FILE__, __LINE__,                    \
				  "CHECK_EQ_I(%s, %s): %lld != %lld",    \
				  #a, #b, unit_a_, unit_b_);             \
	} while (0)

/* Compares two C strings (either may be NULL); prints both. */
#define CHECK_STR(a, b)                                                  \
	do {                                                             \
		const char *unit_a_ = (a), *unit_b_ = (b);               \
		if (!unit_str_eq(unit_a_, unit_b_))                      \
			unit_fail(__FILE__, __LINE__,                    \
				  "CHECK_STR(%s, %s): \"%s\" != \"%s\"", \
				  #a, #b, unit_a_ ? unit_a_ : "(null)",  \
				  unit_b_ ? unit_b_ : "(null)");         \
	} while (0)

#endif
