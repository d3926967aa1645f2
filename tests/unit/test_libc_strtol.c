/* tests/unit/test_libc_strtol.c - user/lib/strtol.c (and the ctype.c it
 * uses): bases, signs, prefixes, where *end lands, and saturation at the
 * limits with ERANGE. The host's long is 64 bits, the guest's 32:
 * the limit cases are written for both (t_libc checks i386's on the
 * real machine). Our strtol replaces glibc's in this process, which is
 * harmless: glibc's own code calls its internal copy. */
#include "tests/unit/unit.h"
#include "user/lib/stdlib.h"
#include "user/lib/errno.h"
#include "user/lib/limits.h"

#if LONG_MAX == 2147483647L
#define LONG_MAX_STR   "2147483647"
#define LONG_OVER_STR  "2147483648"
#define LONG_MIN_STR   "-2147483648"
#define LONG_UNDER_STR "-2147483649"
#define ULONG_MAX_STR  "4294967295"
#define ULONG_OVER_STR "4294967296"
#else
#define LONG_MAX_STR   "9223372036854775807"
#define LONG_OVER_STR  "9223372036854775808"
#define LONG_MIN_STR   "-9223372036854775808"
#define LONG_UNDER_STR "-9223372036854775809"
#define ULONG_MAX_STR  "18446744073709551615"
#define ULONG_OVER_STR "18446744073709551616"
#endif

static char *end;

TEST(decimal_signs_and_space)
{
	CHECK_EQ_I(strtol("42", &end, 10), 42);
	CHECK_EQ_U(*end, 0);
	CHECK_EQ_I(strtol("  \t\n-17xyz", &end, 10), -17);
	CHECK_EQ_U(*end, 'x');
	CHECK_EQ_I(strtol("+5", NULL, 10), 5);
	CHECK_EQ_I(strtol("007", NULL, 10), 7);
	CHECK_EQ_I(atoi("  -42abc"), -42);
	CHECK_EQ_I(atol("123456"), 123456);
}

TEST(no_digits_leaves_end_at_the_start)
{
	static const char *const inputs[] = { "", "   ", "+", " -", "abc", "-x", " +-1" };

	for (unsigned i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		end = NULL;
		CHECK_EQ_I(strtol(inputs[i], &end, 10), 0);
		CHECK(end == inputs[i]);
		end = NULL;
		CHECK_EQ_U(strtoul(inputs[i], &end, 0), 0);
		CHECK(end == inputs[i]);
	}
}

TEST(bases_and_prefixes)
{
	CHECK_EQ_I(strtol("0x1fZ", &end, 0), 31);
	CHECK_EQ_U(*end, 'Z');
	CHECK_EQ_I(strtol("0X1F", NULL, 16), 31);
	CHECK_EQ_I(strtol("1f", NULL, 16), 31);
	CHECK_EQ_I(strtol("0777", NULL, 0), 511);
	CHECK_EQ_I(strtol("0", &end, 0), 0);
	CHECK_EQ_U(*end, 0);
	CHECK_EQ_I(strtol("1010", NULL, 2), 10);
	CHECK_EQ_I(strtol("102", &end, 2), 2);
	CHECK_EQ_U(*end, '2');
	CHECK_EQ_I(strtol("zZ", NULL, 36), 35 * 36 + 35);
	CHECK_EQ_I(strtol("-0x10", NULL, 0), -16);
	/* "0x" without a hex digit is the number 0, ending at the x. */
	CHECK_EQ_I(strtol("0xg", &end, 0), 0);
	CHECK_EQ_U(*end, 'x');
	CHECK_EQ_I(strtol("0x", &end, 16), 0);
	CHECK_EQ_U(*end, 'x');
	/* Base 10 takes no prefix; 8 takes none either. */
	CHECK_EQ_I(strtol("0x10", &end, 10), 0);
	CHECK_EQ_U(*end, 'x');
	CHECK_EQ_I(strtol("019", &end, 0), 1);          /* octal: 9 ends it */
	CHECK_EQ_U(*end, '9');
}

TEST(bad_base_is_einval)
{
	static const char s[] = "123";

	errno = 0;
	CHECK_EQ_I(strtol(s, &end, 1), 0);
	CHECK_EQ_I(errno, EINVAL);
	CHECK(end == s);
	errno = 0;
	CHECK_EQ_I(strtol(s, &end, 37), 0);
	CHECK_EQ_I(errno, EINVAL);
	errno = 0;
	CHECK_EQ_I(strtol(s, &end, -2), 0);
	CHECK_EQ_I(errno, EINVAL);
}

TEST(long_limits)
{
	errno = 0;
	CHECK_EQ_I(strtol(LONG_MAX_STR, NULL, 10), LONG_MAX);
	CHECK_EQ_I(strtol(LONG_MIN_STR, NULL, 10), LONG_MIN);
	CHECK_EQ_I(errno, 0);
	CHECK_EQ_I(strtol(LONG_OVER_STR, &end, 10), LONG_MAX);
	CHECK_EQ_I(errno, ERANGE);
	CHECK_EQ_U(*end, 0);                            /* every digit consumed */
	errno = 0;
	CHECK_EQ_I(strtol(LONG_UNDER_STR "9", &end, 10), LONG_MIN);
	CHECK_EQ_I(errno, ERANGE);
	CHECK_EQ_U(*end, 0);
	errno = 0;
	CHECK_EQ_I(strtol("99999999999999999999999999999x", &end, 10), LONG_MAX);
	CHECK_EQ_I(errno, ERANGE);
	CHECK_EQ_U(*end, 'x');
}

TEST(unsigned_limits_and_negation)
{
	errno = 0;
	CHECK_EQ_U(strtoul(ULONG_MAX_STR, NULL, 10), ULONG_MAX);
	CHECK_EQ_I(errno, 0);
	CHECK_EQ_U(strtoul("-1", NULL, 10), ULONG_MAX);         /* C: negated */
	CHECK_EQ_U(strtoul("-2", NULL, 10), ULONG_MAX - 1);
	CHECK_EQ_I(errno, 0);
	CHECK_EQ_U(strtoul(ULONG_OVER_STR, NULL, 10), ULONG_MAX);
	CHECK_EQ_I(errno, ERANGE);
	errno = 0;
	CHECK_EQ_U(strtoul("-" ULONG_OVER_STR, NULL, 10), ULONG_MAX);
	CHECK_EQ_I(errno, ERANGE);
}

TEST(long_long)
{
	errno = 0;
	CHECK_EQ_I(strtoll("9223372036854775807", NULL, 10), LLONG_MAX);
	CHECK_EQ_I(strtoll("-9223372036854775808", NULL, 10), LLONG_MIN);
	CHECK_EQ_I(errno, 0);
	CHECK_EQ_I(strtoll("9223372036854775808", NULL, 10), LLONG_MAX);
	CHECK_EQ_I(errno, ERANGE);
	errno = 0;
	CHECK_EQ_U(strtoull("18446744073709551615", NULL, 10), ULLONG_MAX);
	CHECK_EQ_U(strtoull("0xffffffffffffffff", NULL, 0), ULLONG_MAX);
	CHECK_EQ_I(errno, 0);
	CHECK_EQ_U(strtoull("18446744073709551616", NULL, 10), ULLONG_MAX);
	CHECK_EQ_I(errno, ERANGE);
}
