/* user/lib/strtod.c - strtod and atof (C11 7.22.1.3, stdlib.h).
 *
 * Accepted, after leading white space and an optional sign: decimal
 * digits with an optional point and exponent (e/E), hexadecimal ones
 * ("0x", an optional point, p/P and a binary exponent), "inf",
 * "infinity", "nan" and "nan(chars)", letters in either case.
 *
 * The value: up to 19 significant decimal digits go into a 64-bit
 * integer M (later ones are dropped: a double has at most 17 that
 * matter), and the result is M * 10^E computed in the x87's 80-bit format
 * with a 64-bit significand, then rounded once to double. M is exact
 * there, and so is 10^E for |E| <= 27 (5^27 < 2^64), so such inputs (any
 * "%.17g" output included) are correctly rounded; for larger exponents
 * the 80-bit product is within a few of its own units, far below the
 * double's, and the result may be one unit off in the rare input that
 * lies that close to a halfway point. Hex input is exact (16 digits,
 * scaled by fscale). Overflow: +-HUGE_VAL and ERANGE; a nonzero input
 * that underflows to 0: 0 and ERANGE. */
#include "stdlib.h"
#include "ctype.h"
#include "errno.h"
#include "math.h"

#define MAX_DIGITS 19           /* 10^19 - 1 < 2^64 */
#define EXP_LIMIT 100000        /* beyond any double: saturate the count */

static bool word(const char **p, const char *w)
{
	const char *s = *p;

	for (; *w; w++, s++)
		if (tolower((unsigned char)*s) != *w)
			return false;
	*p = s;
	return true;
}

/* An optional exponent: the marker, a sign, digits. *p moves only if
 * digits followed. */
static long exponent(const char **p, char marker)
{
	const char *s = *p;
	long e = 0;
	bool neg = false;

	if (tolower((unsigned char)*s) != marker)
		return 0;
	s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (!isdigit((unsigned char)*s))
		return 0;
	for (; isdigit((unsigned char)*s); s++)
		if (e < EXP_LIMIT)
			e = e * 10 + (*s - '0');
	*p = s;
	return neg ? -e : e;
}

/* v * 2^e in 80-bit precision: fscale (SDM Vol. 2A, FSCALE), exact. */
static long double scale2(long double v, long e)
{
	long double r, de = (long double)e;

	__asm__("fscale" : "=t"(r) : "0"(v), "u"(de));
	return r;
}

/* 10^n for n >= 0, by squaring in 80-bit precision. */
static long double ten_to(long n)
{
	long double r = 1, b = 10;

	for (; n; n >>= 1, b *= b)
		if (n & 1)
			r *= b;
	return r;
}

/* The long double rounded to double. A cast alone does not do it: gcc's
 * default -fexcess-precision=fast may hand back the 80-bit st(0) as the
 * double result; a store to memory rounds (SDM Vol. 1 8.2). */
static double to_double(long double v)
{
	volatile double d = (double)v;

	return d;
}

/* C11 7.22.1.3p10: ERANGE when the value overflows, or underflows to 0
 * (Spindle also says nothing for a result that is merely subnormal). */
static double range_error(double v)
{
	errno = ERANGE;
	return v;
}

/* The rounded value of a nonzero input. */
static double checked(double v)
{
	return isinf(v) || v == 0 ? range_error(v) : v;
}

static double decimal(const char **p, bool *any)
{
	const char *s = *p;
	unsigned long long m = 0;
	int ndig = 0;
	long e = 0;
	bool seen = false, point = false;
	long double v;

	for (;; s++) {
		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (!isdigit((unsigned char)*s))
			break;
		seen = true;
		if (ndig < MAX_DIGITS && (m || *s != '0')) {
			m = m * 10 + (unsigned long long)(*s - '0');
			ndig++;
			if (point)
				e--;
		} else if (ndig >= MAX_DIGITS) {
			if (!point)             /* dropped: only its place counts */
				e++;
		} else if (point) {
			e--;                    /* a leading zero after the point */
		}
	}
	if (!seen)
		return 0;
	*any = true;
	e += exponent(&s, 'e');
	*p = s;
	if (m == 0)
		return 0;
	if (e > 400)
		return range_error(HUGE_VAL);
	if (e < -400)
		return range_error(0);
	v = (long double)m;
	v = e >= 0 ? v * ten_to(e) : v / ten_to(-e);
	return checked(to_double(v));
}

static double hex(const char **p, bool *any)
{
	const char *s = *p;
	unsigned long long m = 0;
	long e = 0;
	bool seen = false, point = false;
	int nbits = 0;

	for (;; s++) {
		int d;

		if (*s == '.' && !point) {
			point = true;
			continue;
		}
		if (!isxdigit((unsigned char)*s))
			break;
		d = isdigit((unsigned char)*s) ? *s - '0' : tolower((unsigned char)*s) - 'a' + 10;
		seen = true;
		if (nbits <= 60) {
			m = m << 4 | (unsigned)d;
			if (m)
				nbits += 4;
			if (point)
				e -= 4;
		} else {
			m |= d != 0;            /* sticky: below the 64 bits kept */
			if (!point)
				e += 4;
		}
	}
	if (!seen)
		return 0;
	*any = true;
	e += exponent(&s, 'p');
	*p = s;
	if (e > 5000)
		e = 5000;
	if (e < -5000)
		e = -5000;
	if (m == 0)
		return 0;
	return checked(to_double(scale2((long double)m, e)));
}

static double special(const char **p, bool *any)
{
	const char *s = *p;

	if (word(&s, "inf")) {
		word(&s, "inity");
		*p = s;
		*any = true;
		return HUGE_VAL;
	}
	if (word(&s, "nan")) {
		if (*s == '(') {                /* nan(n-char-sequence) */
			const char *t = s + 1;

			while (isalnum((unsigned char)*t) || *t == '_')
				t++;
			if (*t == ')')
				s = t + 1;
		}
		*p = s;
		*any = true;
		return NAN;
	}
	return 0;
}

double strtod(const char *str, char **end)
{
	const char *s = str;
	bool neg = false, any = false;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    (isxdigit((unsigned char)s[2]) || (s[2] == '.' && isxdigit((unsigned char)s[3])))) {
		s += 2;
		v = hex(&s, &any);
	} else if (isdigit((unsigned char)*s) || *s == '.') {
		v = decimal(&s, &any);
	} else {
		v = special(&s, &any);
	}
	if (!any) {
		if (end)
			*end = (char *)str;     /* no number: nothing consumed */
		return 0;
	}
	if (end)
		*end = (char *)s;
	return neg ? -v : v;
}

double atof(const char *s)
{
	return strtod(s, NULL);
}
