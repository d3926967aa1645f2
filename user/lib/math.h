/* user/lib/math.h - the few math functions Spindle's programs use
 * (math.c), each one x87 instruction where the x87 has it (SDM Vol. 1
 * 8.3: fsqrt, frndint, fprem, fscale), plus C's classification macros.
 * Results are rounded to double when they are returned; exceptions stay
 * masked as the default control word has them, so sqrt(-1) is a NaN and
 * no errno is set (math_errhandling is MATH_ERREXCEPT). */
#ifndef USER_MATH_H
#define USER_MATH_H

#define HUGE_VAL  (__builtin_huge_val())
#define INFINITY  (__builtin_inff())
#define NAN       (__builtin_nanf(""))
#define M_PI      3.14159265358979323846
#define M_E       2.7182818284590452354

#define MATH_ERRNO      1
#define MATH_ERREXCEPT  2
#define math_errhandling MATH_ERREXCEPT

#define isnan(x)    __builtin_isnan(x)
#define isinf(x)    __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x)  __builtin_signbit(x)

double fabs(double x);
double sqrt(double x);                  /* fsqrt */
double floor(double x);                 /* frndint, rounding down */
double ceil(double x);                  /* frndint, rounding up */
double trunc(double x);                 /* frndint, toward zero */
double fmod(double x, double y);        /* fprem: sign of x, |r| < |y| */
double ldexp(double x, int e);          /* fscale: x * 2^e */
/* x = m * 2^*e with 0.5 <= |m| < 1 (m = x, *e = 0 for 0, inf, nan). */
double frexp(double x, int *e);

#endif
