/* tests/unit/test_libc_fmt_float.c - user/lib/fmt_float.c through
 * lib/format.c's vsnprintf (format_float_hook), against the host glibc's
 * snprintf (__builtin_snprintf is not renamed, Makefile.inc): the same
 * text and length for %f %e %g %E %G %F with flags, widths and
 * precisions, for the values where conversions go wrong (ties, carries,
 * 0.1, powers of ten, the largest and smallest doubles, subnormals, -0,
 * inf, nan) and for thousands of doubles from every binade. */
#include "tests/unit/unit.h"
#include "lib/format.h"

void __format_float(struct format_float *f, va_list *ap);

#define OUT_SIZE 2048
static char ours[OUT_SIZE], ref[OUT_SIZE];

static const char *const formats[] = {
	"%f", "%e", "%g", "%E", "%G", "%F", "%.0f", "%.0e", "%.0g", "%#.0f",
	"%#.0e", "%#g", "%.1f", "%.3e", "%.10g", "%.17g", "%.20e", "%.40f",
	"%12.4f", "%-12.4e|", "%+08.3f", "% .2e", "%+g", "%010g", "%-+10.2f|",
	"%.300f", "%.0G", "%#.3g", "%.1100f", "%.800e", "%020.5e", "%3f",
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static double from_bits(unsigned long long b)
{
	double d;

	__builtin_memcpy(&d, &b, sizeof(d));
	return d;
}

static void compare(const char *f, double v)
{
	int n1, n2;

	format_float_hook = __format_float;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	n1 = snprintf(ours, sizeof(ours), f, v);
	n2 = __builtin_snprintf(ref, sizeof(ref), f, v);
#pragma GCC diagnostic pop
	if (n1 != n2 || !unit_str_eq(ours, ref))
		unit_fail(__FILE__, __LINE__, "format \"%s\" of %a: \"%.60s\" (%d), glibc \"%.60s\" (%d)",
			  f, v, ours, n1, ref, n2);
}

static void compare_all(double v)
{
	for (size_t i = 0; i < NFORMATS; i++)
		compare(formats[i], v);
}

TEST(special_values)
{
	static const double values[] = {
		0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, 0.125, 0.0625, 9.5,
		0.05, 0.15, 0.25, 0.35, 1e-5, 1e-4, 123456.0, 9.9999995,
		0.00009999995, 1e15, 99999.95, 0.000099999, 1e16, 1e17, 1e21, 1e22, 1e23, 3.141592653589793,
		2.718281828459045, 1.7976931348623157e308, 2.2250738585072014e-308,
		4.9406564584124654e-324, 1e300, 1e-300, 5e-310, 65536.0, 1.0 / 3,
		123456789.125, 0.3, 100.0, 1e100,
	};

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		compare_all(values[i]);
		compare_all(-values[i]);
	}
}

/* Everything but that case for the value that showed it. */
TEST(special_values_rounding_up)
{
	for (size_t i = 0; i < NFORMATS; i++) {
		if (__builtin_strcmp(formats[i], "%#g") == 0)
			continue;
		compare(formats[i], 999999.5);
		compare(formats[i], -999999.5);
	}
}

/* %#g of a value that rounds up to the next power of ten: C11
 * 7.21.6.1p8 takes X from the rounded %e form (1.00000e+06: X = 6, not
 * below P = 6, so style e) and '#' keeps its zeros. glibc 2.36 prints
 * "1.e+06" here, dropping them: the one place it is not the reference. */
TEST(alt_g_rounding_to_a_power_of_ten)
{
	format_float_hook = __format_float;
	CHECK_EQ_I(snprintf(ours, sizeof(ours), "%#g", 999999.5), 11);
	CHECK_STR(ours, "1.00000e+06");
	CHECK_EQ_I(snprintf(ours, sizeof(ours), "%#.3g|%g", 999.5, 999999.5), 14);
	CHECK_STR(ours, "1.00e+03|1e+06");
}

TEST(inf_and_nan)
{
	compare_all(__builtin_inf());
	compare_all(-__builtin_inf());
	compare_all(__builtin_nan(""));
	compare_all(-__builtin_nan(""));
}

/* A fixed pseudo-random walk over bit patterns: every exponent, random
 * significands (xorshift64, so the run is the same each time). */
TEST(thousands_of_doubles)
{
	unsigned long long x = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < 4000; i++) {
		unsigned long long exp = (unsigned long long)(i % 2047);
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = from_bits(exp << 52 | (x & ((1ull << 52) - 1)) | (x & (1ull << 63)));
		compare(formats[i % NFORMATS], v);
		compare("%.17g", v);
		compare("%.16e", v);
	}
}

TEST(unknown_without_the_hook)
{
	format_float_hook = 0;                  /* the kernel's case */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
	CHECK_EQ_I(snprintf(ours, sizeof(ours), "%f|%d", 42), 5);
#pragma GCC diagnostic pop
	CHECK_STR(ours, "%f|42");
}
