/* tests/unit/test_libc_strtod.c - user/lib/strtod.c: every double
 * printed by the host's "%.17g" (and "%a") reads back to the same bits;
 * hex, inf, nan, where *end lands, and ERANGE. The host's long double is
 * the same x87 80-bit format as the guest's, so the arithmetic is the
 * one the guest does. Our strtod replaces glibc's in this process (as
 * test_libc_strtol's strtol does): glibc's printf is the reference. */
#include "tests/unit/unit.h"
#include "user/lib/stdlib.h"
#include "user/lib/errno.h"

static unsigned long long bits_of(double d)
{
	unsigned long long b;

	__builtin_memcpy(&b, &d, sizeof(b));
	return b;
}

static double from_bits(unsigned long long b)
{
	double d;

	__builtin_memcpy(&d, &b, sizeof(d));
	return d;
}

static char *end;

#define READS(str, want, used) do { \
	const char *s_ = (str); \
	errno = 0; \
	CHECK_EQ_U(bits_of(strtod(s_, &end)), bits_of(want)); \
	CHECK_EQ_I(end - s_, (used)); \
	CHECK_EQ_I(errno, 0); \
} while (0)

TEST(decimal_forms)
{
	READS("0", 0.0, 1);
	READS("-0", -0.0, 2);
	READS("  +1.5e3xyz", 1500.0, 8);
	READS(".5", 0.5, 2);
	READS("5.", 5.0, 2);
	READS("0.1", 0.1, 3);
	READS("1e5e", 1e5, 3);
	READS("1e+", 1.0, 1);                   /* no exponent digits */
	READS("0x", 0.0, 1);                    /* "0", then x */
	READS("3.141592653589793238462643383279", 3.141592653589793, 32);
	READS("0.000000000000000000000000000001", 1e-30, 32);
	READS("123456789012345678901234567890", 1.2345678901234568e29, 30);
	READS("1.7976931348623157e308", 1.7976931348623157e308, 22);
	READS("4.9406564584124654e-324", 4.9406564584124654e-324, 23);
	READS("2.2250738585072014e-308", 2.2250738585072014e-308, 23);
}

TEST(hex_inf_nan)
{
	READS("0x1p-3", 0.125, 6);
	READS("0X1.8P1", 3.0, 7);
	READS("0x.8", 0.5, 4);
	READS("0x1.fffffffffffffp1023", 1.7976931348623157e308, 22);
	READS("0x1p-1074", 4.9406564584124654e-324, 9);
	READS("inf", __builtin_inf(), 3);
	READS("-Infinity!", -__builtin_inf(), 9);
	READS("INFINIT", __builtin_inf(), 3);
	CHECK(__builtin_isnan(strtod("nan", &end)));
	READS("nan(123)x", strtod("nan", 0), 8);
	READS("nan(12", strtod("nan", 0), 3);
}

TEST(no_number)
{
	const char *bad[] = { "", "  ", "-", ".", "e5", "x", "+.e1", "in", "na" };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		CHECK_EQ_U(bits_of(strtod(bad[i], &end)), 0);
		CHECK(end == bad[i]);
		CHECK_EQ_I(errno, 0);
	}
}

TEST(out_of_range)
{
	errno = 0;
	CHECK(strtod("1e400", &end) == __builtin_inf());
	CHECK_EQ_I(errno, ERANGE);
	errno = 0;
	CHECK(strtod("-1e99999999999", &end) == -__builtin_inf());
	CHECK_EQ_I(errno, ERANGE);
	errno = 0;
	CHECK(strtod("1e-400", &end) == 0);
	CHECK_EQ_I(errno, ERANGE);
	errno = 0;
	CHECK(strtod("0e999999", &end) == 0);
	CHECK_EQ_I(errno, 0);
	CHECK(atof("2.5") == 2.5);
}

/* xorshift64 over every exponent, subnormals too: "%.17g" and "%a"
 * read back exactly. */
TEST(round_trips)
{
	unsigned long long x = 0x2545f4914f6cdd1dull;
	char buf[64];
	int bad = 0;

	for (int i = 0; i < 20000 && bad < 5; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* every 8th a subnormal (exponent field 0) */
		v = from_bits((i % 8 ? (unsigned long long)(i % 2046 + 1) << 52 : 0) |
			      (x & ((1ull << 52) - 1)));
		__builtin_snprintf(buf, sizeof(buf), "%.17g", v);
		if (bits_of(strtod(buf, 0)) != bits_of(v) && ++bad)
			unit_fail(__FILE__, __LINE__, "\"%s\" read as %.17g", buf, strtod(buf, 0));
		__builtin_snprintf(buf, sizeof(buf), "%a", v);
		if (bits_of(strtod(buf, 0)) != bits_of(v) && ++bad)
			unit_fail(__FILE__, __LINE__, "\"%s\" read as %a", buf, strtod(buf, 0));
	}
}
