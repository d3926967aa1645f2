/* user/tests/t_libc_float.c - the libc's floating point on the real
 * machine (i386: doubles passed to printf as two stack words, the x87
 * computing): printf's %f %e %g with flags, widths and precisions,
 * strtod/atof, and math.h's functions. The host unit tests
 * (test_libc_fmt_float, test_libc_strtod) compare the same code with
 * glibc on thousands of values; this checks the guest build. Booted as
 * init. */
#define T_PROG "t_libc_float"
#include "t.h"
#include "math.h"
#include "fpregs.h"

#define EXPECT_FMT(want, ...) do { \
	char b_[128]; \
	int n_ = snprintf(b_, sizeof(b_), __VA_ARGS__); \
	EXPECT(!strcmp(b_, want) && n_ == (int)strlen(want), "%s gave \"%s\" (%d), want \"%s\"", \
	       #__VA_ARGS__, b_, n_, want); \
} while (0)

TEST(printf_conversions)
{
	volatile double third = 1.0 / 3, big = 1e300, neg = -2.5;

	EXPECT_FMT("3.141593", "%f", M_PI);
	EXPECT_FMT("3.14159e+00", "%.5e", M_PI);
	EXPECT_FMT("3.14159", "%g", M_PI);
	EXPECT_FMT("0.333333 3.333333E-01 0.333333", "%f %E %G", third, third, third);
	EXPECT_FMT("1e+300 1.000000e+300", "%g %e", big, big);
	EXPECT_FMT("-2.5|-2|-2.500e+00", "%g|%.0f|%.3e", neg, neg, neg);
	EXPECT_FMT("[    3.14] [3.14    ] [+0003.14]", "[%8.2f] [%-8.2f] [%+08.2f]",
		   3.14159, 3.14159, 3.14159);
	EXPECT_FMT("0.5 2 2 0.1", "%g %.0f %.0f %.1f", 0.5, 1.5, 2.5, 0.05);
	EXPECT_FMT("inf -inf nan INF", "%f %f %f %F", INFINITY, -INFINITY, NAN, INFINITY);
	EXPECT_FMT("100000 1e+06 1.00000e+06", "%g %g %#g", 1e5, 1e6, 999999.5);
	EXPECT_FMT("0.000100 0.0001 1e-05", "%f %g %g", 1e-4, 1e-4, 1e-5);
	EXPECT_FMT("42 x 1.5 y", "%d x %.1f y", 42, 1.5);
}

/* printf never executes an FPU instruction (fmt_float.c works on the
 * double's bits): the registers a program holds survive it. */
TEST(printf_leaves_the_fpu_alone)
{
	char why[128], b[64];

	fp_fill(31337);
	/* 1.25's two words (0x3ff40000 00000000) as integers: passing a
	 * double would make *this* code push it through the x87. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	snprintf(b, sizeof(b), "%f %e %g", 0u, 0x3ff40000u, 0u, 0x3ff40000u, 0u, 0x3ff40000u);
#pragma GCC diagnostic pop
	if (fp_check(31337, why, sizeof(why)))
		FAIL("after snprintf: %s", why);
	__asm__ volatile("fninit");             /* an empty x87 stack again */
	EXPECT(!strcmp(b, "1.250000 1.250000e+00 1.25"), "%s", b);
}

TEST(strtod_and_atof)
{
	char *end;

	EXPECT(strtod("  -12.5e1xyz", &end) == -125.0 && !strcmp(end, "xyz"), "strtod");
	EXPECT(atof("0.1") == 0.1, "atof 0.1");
	EXPECT(strtod("0x1.8p1", NULL) == 3.0, "hex");
	EXPECT(isinf(strtod("inf", NULL)) && isnan(strtod("nan", NULL)), "inf/nan");
	errno = 0;
	EXPECT(isinf(strtod("1e999", NULL)) && errno == ERANGE, "overflow: ERANGE");
	errno = 0;
	EXPECT(strtod("1e-999", NULL) == 0 && errno == ERANGE, "underflow: ERANGE");
	EXPECT(strtod("junk", &end) == 0 && !strcmp(end, "junk"), "no number");
	/* what printf writes, strtod reads back exactly */
	for (double v = 1e-300; v < 1e300; v *= 7.77) {
		char b[40];

		snprintf(b, sizeof(b), "%.17g", v);
		EXPECT(strtod(b, NULL) == v, "%s did not read back", b);
	}
}

TEST(math_functions)
{
	int e;

	__asm__ volatile("fninit");             /* the control word 0x037f */
	EXPECT(sqrt(2.0) * sqrt(2.0) > 1.9999999999 && sqrt(2.0) < 1.4142136, "sqrt(2)");
	EXPECT(sqrt(144.0) == 12.0 && isnan(sqrt(-1.0)), "sqrt");
	EXPECT(fabs(-3.5) == 3.5 && fabs(2.0) == 2.0, "fabs");
	EXPECT(floor(2.7) == 2.0 && floor(-2.2) == -3.0, "floor");
	EXPECT(ceil(2.2) == 3.0 && ceil(-2.7) == -2.0, "ceil");
	EXPECT(trunc(2.7) == 2.0 && trunc(-2.7) == -2.0, "trunc");
	EXPECT(fmod(7.5, 2.0) == 1.5 && fmod(-7.5, 2.0) == -1.5, "fmod");
	EXPECT(fmod(1e300, 3.0) == 1.0 || fmod(1e300, 3.0) == 2.0 || fmod(1e300, 3.0) == 0.0,
	       "fmod of a huge value");
	EXPECT(ldexp(1.5, 4) == 24.0 && ldexp(1.0, -1074) > 0, "ldexp");
	EXPECT(frexp(24.0, &e) == 0.75 && e == 5, "frexp 24");
	EXPECT(frexp(4.9406564584124654e-324, &e) == 0.5 && e == -1073, "frexp subnormal");
	/* floor and the others left the control word as it was */
	struct fp_image f;
	fp_fxsave(&f);
	EXPECT_EQ(fp_get16(&f, FP_FCW), 0x037f);
}

int main(void)
{
	RUN(printf_conversions);
	RUN(printf_leaves_the_fpu_alone);
	RUN(strtod_and_atof);
	RUN(math_functions);
	return t_exit_code();
}
