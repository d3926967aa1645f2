/* user/lib/fmt_float.c - printf's %f %F %e %E %g %G (C11 7.21.6.1), the
 * format_float_hook of lib/format.c, which start.c installs.
 *
 * Exact, and without a single FPU instruction: a double is m * 2^e with
 * a 53-bit integer m (IEEE 754 binary64), so its decimal expansion is
 * finite. The integer part is m << e written out by dividing a big
 * integer by 10^9; each digit of the fraction f / 2^b is the carry out of
 * multiplying f by 10. Rounding is to nearest, ties to even, on the exact
 * remainder (glibc rounds the same way in the default rounding mode).
 * printf therefore never touches the FPU registers, which the t_fpu tests
 * rely on. */
#include "lib/format.h"
#include "string.h"

/* A fraction of up to 1074 bits (the smallest subnormal is 2^-1074), or
 * an integer of up to 1024 bits: 34 words. */
#define BIG_WORDS 34
/* Digits actually produced: every double's expansion has at most 767
 * significant digits and 1074 after the point, so what lies beyond is
 * zeros and goes to format_float.zeros. */
#define DIGITS_MAX 1100

struct gen {
	char ip[320];           /* integer part, decimal, no leading zeros */
	int ni, ii;             /* its length, and the next digit to hand out */
	uint32_t frac[BIG_WORDS];       /* the fraction, point above frac[nf-1] */
	int nf;
};

/* ---- the exact expansion ---- */

/* w[0..n) / d in place (little-endian words); returns the remainder. */
static uint32_t big_div(uint32_t *w, int n, uint32_t d)
{
	uint64_t r = 0;

	for (int i = n - 1; i >= 0; i--) {
		uint64_t cur = r << 32 | w[i];
		w[i] = (uint32_t)(cur / d);
		r = cur % d;
	}
	return (uint32_t)r;
}

static bool big_zero(const uint32_t *w, int n)
{
	for (int i = 0; i < n; i++)
		if (w[i])
			return false;
	return true;
}

/* v << shift into w (zeroed, n words). */
static void big_set_shifted(uint32_t *w, int n, uint64_t v, int shift)
{
	memset(w, 0, (size_t)n * sizeof(*w));
	for (int bit = 0; bit < 64; bit++)
		if (v >> bit & 1) {
			int at = bit + shift;
			w[at / 32] |= 1u << (at % 32);
		}
}

static void gen_init(struct gen *g, uint64_t m, int e)
{
	char rev[320];
	int n = 0;

	g->ni = g->ii = g->nf = 0;
	if (e >= 0) {                           /* an integer: m << e */
		uint32_t w[BIG_WORDS];
		int nw = (53 + e + 31) / 32;

		big_set_shifted(w, nw, m, e);
		while (!big_zero(w, nw)) {
			uint32_t chunk = big_div(w, nw, 1000000000u);
			for (int i = 0; i < 9; i++, chunk /= 10)
				rev[n++] = (char)('0' + chunk % 10);
		}
	} else {
		int b = -e;                     /* fraction bits */
		uint64_t ip = b < 64 ? m >> b : 0;
		uint64_t fm = b < 64 ? m & ((1ull << b) - 1) : m;

		for (; ip; ip /= 10)
			rev[n++] = (char)('0' + ip % 10);
		/* f / 2^b with the point moved to a word boundary */
		g->nf = (b + 31) / 32;
		big_set_shifted(g->frac, g->nf, fm, 32 * g->nf - b);
	}
	while (n > 0 && rev[n - 1] == '0')
		n--;                            /* leading zeros of the chunks */
	while (n > 0)
		g->ip[g->ni++] = rev[--n];
}

static int frac_digit(struct gen *g)
{
	uint64_t carry = 0;

	for (int i = 0; i < g->nf; i++) {
		uint64_t v = (uint64_t)g->frac[i] * 10 + carry;
		g->frac[i] = (uint32_t)v;
		carry = v >> 32;
	}
	return (int)carry;
}

/* The next digit: the integer part's, then the fraction's. */
static int gen_next(struct gen *g)
{
	return g->ii < g->ni ? g->ip[g->ii++] - '0' : frac_digit(g);
}

/* Is anything left after the digits handed out so far? */
static bool gen_rest(const struct gen *g)
{
	for (int i = g->ii; i < g->ni; i++)
		if (g->ip[i] != '0')
			return true;
	return !big_zero(g->frac, g->nf);
}

/* Rounds the n digits d[] (chars) given the next digit and whether
 * anything follows it; true when the carry ran out of the top (all
 * digits are then '0' and the caller adds a leading 1). */
static bool round_digits(char *d, int n, int next, bool rest)
{
	bool odd = n > 0 && ((d[n - 1] - '0') & 1);

	if (next < 5 || (next == 5 && !rest && !odd))
		return false;
	for (int i = n - 1; i >= 0; i--) {
		if (d[i] != '9') {
			d[i]++;
			return false;
		}
		d[i] = '0';
	}
	return true;
}

/* ---- the three styles ---- */

static void put_c(struct format_float *f, char c)
{
	if (f->text_len < FORMAT_FLOAT_TEXT)
		f->text[f->text_len++] = c;
}

/* %f: the integer digits, then prec fraction digits. */
static void style_f(struct format_float *f, struct gen *g, int prec)
{
	char d[320 + DIGITS_MAX + 1];
	int n = 0, made = prec < DIGITS_MAX ? prec : DIGITS_MAX, point, next;

	for (int i = 0; i < g->ni; i++)
		d[n++] = g->ip[i];
	if (n == 0)
		d[n++] = '0';
	point = n;
	g->ii = g->ni;
	for (int i = 0; i < made; i++)
		d[n++] = (char)('0' + frac_digit(g));
	next = frac_digit(g);           /* before gen_rest looks at what is left */
	if (round_digits(d, n, next, gen_rest(g))) {
		memmove(d + 1, d, (size_t)n);
		d[0] = '1';
		n++;
		point++;
	}
	for (int i = 0; i < point; i++)
		put_c(f, d[i]);
	if (prec > 0 || f->alt)
		put_c(f, '.');
	for (int i = point; i < n; i++)
		put_c(f, d[i]);
	f->zeros = prec - made;
}

/* The first sig significant digits into d (sig <= DIGITS_MAX), rounded;
 * returns the decimal exponent of d[0]. Zero gives zeros and 0. */
static int significant(struct gen *g, char *d, int sig, bool zero)
{
	int x, next;

	if (zero) {
		memset(d, '0', (size_t)sig);
		return 0;
	}
	if (g->ni) {
		x = g->ni - 1;
	} else {
		int k = 0;
		int first;

		while ((first = frac_digit(g)) == 0)
			k++;
		x = -(k + 1);
		d[0] = (char)('0' + first);
		for (int i = 1; i < sig; i++)
			d[i] = (char)('0' + frac_digit(g));
		goto round;
	}
	for (int i = 0; i < sig; i++)
		d[i] = (char)('0' + gen_next(g));
round:
	next = gen_next(g);             /* before gen_rest looks at what is left */
	if (round_digits(d, sig, next, gen_rest(g))) {
		d[0] = '1';             /* 9.99 -> 10.0: one more power of ten */
		x++;
	}
	return x;
}

static void put_exponent(struct format_float *f, int x, bool upper)
{
	char *s = f->suffix;
	unsigned ax = (unsigned)(x < 0 ? -x : x);

	*s++ = upper ? 'E' : 'e';
	*s++ = x < 0 ? '-' : '+';
	if (ax >= 100)
		*s++ = (char)('0' + ax / 100);
	*s++ = (char)('0' + ax / 10 % 10);
	*s++ = (char)('0' + ax % 10);
	*s = '\0';
}

/* %e: one digit, the point, prec digits, the exponent. */
static void style_e(struct format_float *f, struct gen *g, int prec, bool zero, bool upper)
{
	char d[DIGITS_MAX + 1];
	int sig = prec + 1 < DIGITS_MAX ? prec + 1 : DIGITS_MAX;
	int x = significant(g, d, sig, zero);

	put_c(f, d[0]);
	if (prec > 0 || f->alt)
		put_c(f, '.');
	for (int i = 1; i < sig; i++)
		put_c(f, d[i]);
	f->zeros = prec + 1 - sig;
	put_exponent(f, x, upper);
}

/* %g: %e's exponent x after rounding to p significant digits decides:
 * %f with p - 1 - x decimals when -4 <= x < p, else %e with p - 1; then,
 * without '#', no trailing zeros and no bare point (C11 7.21.6.1p8). */
static void style_g(struct format_float *f, uint64_t m, int e, int prec, bool zero, bool upper)
{
	struct gen g;
	char d[DIGITS_MAX + 1];
	int p = prec == 0 ? 1 : prec;
	int x, start = f->text_len;

	gen_init(&g, m, e);
	x = significant(&g, d, p < DIGITS_MAX ? p : DIGITS_MAX, zero);
	gen_init(&g, m, e);
	if (x >= -4 && x < p)
		style_f(f, &g, p - 1 - x);
	else
		style_e(f, &g, p - 1, zero, upper);
	if (f->alt)
		return;
	for (int i = start; i < f->text_len; i++)
		if (f->text[i] == '.') {
			f->zeros = 0;
			while (f->text[f->text_len - 1] == '0')
				f->text_len--;
			if (f->text[f->text_len - 1] == '.')
				f->text_len--;
			break;
		}
}

static void put_word(struct format_float *f, const char *w, bool upper)
{
	for (; *w; w++)
		put_c(f, upper ? (char)(*w - 'a' + 'A') : *w);
}

void __format_float(struct format_float *f, va_list *ap)
{
#ifdef __i386__
	/* The double's eight bytes, read as the integer they are: on i386
	 * both are passed as two stack words (SysV i386 ABI 2.2.4), and
	 * going through the x87 could change a signalling NaN. */
	uint64_t bits = va_arg(*ap, uint64_t);
#else
	/* The host's unit test (x86-64: doubles come in SSE registers). */
	double dv = va_arg(*ap, double);
	uint64_t bits;

	memcpy(&bits, &dv, sizeof(bits));
#endif
	bool neg = bits >> 63, upper = f->conv >= 'A' && f->conv <= 'Z';
	int exp = (int)(bits >> 52 & 0x7ff);
	uint64_t m = bits & ((1ull << 52) - 1);
	int prec = f->prec < 0 ? 6 : f->prec;
	char conv = (char)(upper ? f->conv - 'A' + 'a' : f->conv);
	struct gen g;

	if (neg)
		put_c(f, '-');
	else if (f->plus)
		put_c(f, '+');
	else if (f->space)
		put_c(f, ' ');
	f->sign_len = f->text_len;
	if (exp == 0x7ff) {
		f->finite = false;
		put_word(f, m ? "nan" : "inf", upper);
		return;
	}
	/* normal: (2^52 + m) * 2^(exp - 1075); subnormal: m * 2^-1074 */
	if (exp)
		m |= 1ull << 52;
	exp = exp ? exp - 1075 : -1074;
	if (conv == 'g') {
		style_g(f, m, exp, prec, m == 0, upper);
		return;
	}
	gen_init(&g, m, exp);
	if (conv == 'f')
		style_f(f, &g, prec);
	else
		style_e(f, &g, prec, m == 0, upper);
}
