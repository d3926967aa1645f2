/* user/lib/strtol.c - strtol and friends (C11 7.22.1.4, stdlib.h).
 *
 * One scanner does the work for all four: it accumulates the magnitude
 * in an unsigned long long and saturates at the limit the caller gives,
 * so no arithmetic ever overflows; each function then applies the sign
 * and its own range. Host-tested by tests/unit/test_libc_strtol.c. */
#include "stdlib.h"
#include "ctype.h"
#include "errno.h"
#include "limits.h"

static int digit_value(int c)
{
	if (isdigit(c))
		return c - '0';
	if (islower(c))
		return c - 'a' + 10;
	if (isupper(c))
		return c - 'A' + 10;
	return 36;              /* no digit in any base */
}

struct scan {
	unsigned long long magnitude;   /* saturated at limit */
	bool negative;
	bool overflow;                  /* the digits exceeded limit */
};

/* Scans the number at s; limit is the largest magnitude the caller can
 * represent (with negative: for the sign that the caller will see). */
static struct scan scan(const char *s, char **end, int base,
			unsigned long long pos_limit, unsigned long long neg_limit)
{
	struct scan r = { 0, false, false };
	const char *p = s, *digits;
	unsigned long long limit;

	if (base < 0 || base == 1 || base > 36) {
		errno = EINVAL;
		if (end)
			*end = (char *)s;
		return r;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		r.negative = *p++ == '-';
	/* "0x" counts only when a hex digit follows: "0xg" is 0, ending at x. */
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    isxdigit((unsigned char)p[2])) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	limit = r.negative ? neg_limit : pos_limit;
	for (digits = p;; p++) {
		unsigned d = (unsigned)digit_value((unsigned char)*p);

		if (d >= (unsigned)base)
			break;
		/* v * base + d > limit, without computing it */
		if (r.magnitude > (limit - d) / (unsigned)base) {
			r.overflow = true;
			r.magnitude = limit;
		} else {
			r.magnitude = r.magnitude * (unsigned)base + d;
		}
	}
	if (p == digits) {          /* no number at all */
		r.negative = false;
		p = s;
	}
	if (end)
		*end = (char *)p;
	return r;
}

long strtol(const char *s, char **end, int base)
{
	struct scan r = scan(s, end, base, LONG_MAX, (unsigned long long)LONG_MAX + 1);

	if (r.overflow) {
		errno = ERANGE;
		return r.negative ? LONG_MIN : LONG_MAX;
	}
	/* -magnitude in unsigned arithmetic, then back: LONG_MIN included */
	return r.negative ? (long)(0ul - (unsigned long)r.magnitude) : (long)r.magnitude;
}

/* As C says, a '-' negates the value in the unsigned type: "-1" is
 * ULONG_MAX, and only a magnitude above ULONG_MAX is out of range. */
unsigned long strtoul(const char *s, char **end, int base)
{
	struct scan r = scan(s, end, base, ULONG_MAX, ULONG_MAX);

	if (r.overflow) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return r.negative ? 0ul - (unsigned long)r.magnitude : (unsigned long)r.magnitude;
}

long long strtoll(const char *s, char **end, int base)
{
	struct scan r = scan(s, end, base, LLONG_MAX, (unsigned long long)LLONG_MAX + 1);

	if (r.overflow) {
		errno = ERANGE;
		return r.negative ? LLONG_MIN : LLONG_MAX;
	}
	return r.negative ? (long long)(0ull - r.magnitude) : (long long)r.magnitude;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	struct scan r = scan(s, end, base, ULLONG_MAX, ULLONG_MAX);

	if (r.overflow) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return r.negative ? 0ull - r.magnitude : r.magnitude;
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

long atol(const char *s)
{
	return strtol(s, NULL, 10);
}

int abs(int v)
{
	return v < 0 ? -v : v;
}

long labs(long v)
{
	return v < 0 ? -v : v;
}
