/* lib/format.c - printf-style formatting without an output device
 * (lib/format.h). The kernel's console printing and snprintf both go
 * through vformat; it knows nothing about where characters end up. */
#include "lib/format.h"

/* Widths and precisions saturate here: parsing "%99999999999d" cannot
 * overflow an int, and no single conversion emits more than a MiB. */
#define FORMAT_FIELD_MAX (1 << 20)

#define FLAG_LEFT  0x01   /* '-': pad on the right */
#define FLAG_ZERO  0x02   /* '0': pad numbers with zeros */
#define FLAG_PLUS  0x04   /* '+': '+' before non-negative signed numbers */
#define FLAG_SPACE 0x08   /* ' ': ' ' before non-negative signed numbers */
#define FLAG_ALT   0x10   /* '#': 0x for %x, a leading 0 for %o */

enum length { LEN_INT, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_T };

struct spec {
	unsigned flags;
	int width;              /* 0 = none */
	int prec;               /* -1 = none */
	enum length len;
};

struct out {
	void (*emit)(char c, void *arg);
	void *arg;
	int count;
};

static void put(struct out *o, char c)
{
	o->emit(c, o->arg);
	o->count++;
}

static void put_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_str(struct out *o, const char *s, int n)
{
	while (n-- > 0)
		put(o, *s++);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int saturate(unsigned long v)
{
	return v > FORMAT_FIELD_MAX ? FORMAT_FIELD_MAX : (int)v;
}

/* Digits of v in base, least significant first; returns how many. Values
 * that fit in 32 bits use 32-bit division, so the common case needs no
 * libgcc __udivdi3 on i386. */
static int to_digits(unsigned long long v, unsigned base, bool upper,
		     char *buf)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;

	while (v > 0xffffffffull) {
		buf[n++] = digits[v % base];
		v /= base;
	}
	for (uint32_t w = (uint32_t)v; w; w /= base)
		buf[n++] = digits[w % base];
	return n;
}

/* One integer conversion (conv is d, u, o, x, X or p): sign or 0x prefix,
 * zero padding up to the precision, then field padding up to the width
 * (C11 7.21.6.1). */
static void put_number(struct out *o, const struct spec *sp,
		       unsigned long long v, bool negative, char conv)
{
	unsigned base = conv == 'o' ? 8 : conv == 'u' || conv == 'd' ? 10 : 16;
	char digits[24];        /* UINT64_MAX in octal is 22 digits */
	const char *prefix = "";
	int ndigits = to_digits(v, base, conv == 'X', digits);
	int zeros = sp->prec > ndigits ? sp->prec - ndigits : 0;

	if (sp->prec < 0 && ndigits == 0)
		zeros = 1;      /* a plain 0 still prints one digit */
	/* '#' with %o: raise the precision just enough that the first digit
	 * is a 0 (C11 7.21.6.1p6). */
	if (conv == 'o' && (sp->flags & FLAG_ALT) && zeros == 0)
		zeros = 1;
	if (negative)
		prefix = "-";
	else if (conv == 'd' && (sp->flags & FLAG_PLUS))
		prefix = "+";
	else if (conv == 'd' && (sp->flags & FLAG_SPACE))
		prefix = " ";
	else if (conv == 'p' || (base == 16 && (sp->flags & FLAG_ALT) && v))
		prefix = conv == 'X' ? "0X" : "0x";

	int plen = 0;
	while (prefix[plen])
		plen++;
	int body = plen + zeros + ndigits;
	int pad = sp->width > body ? sp->width - body : 0;

	/* '0' is ignored with '-' and with a precision (C11 7.21.6.1p6). */
	if ((sp->flags & FLAG_ZERO) && !(sp->flags & FLAG_LEFT) && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(sp->flags & FLAG_LEFT))
		put_repeat(o, ' ', pad);
	put_str(o, prefix, plen);
	put_repeat(o, '0', zeros);
	while (ndigits > 0)
		put(o, digits[--ndigits]);
	if (sp->flags & FLAG_LEFT)
		put_repeat(o, ' ', pad);
}

/* A string (or one character) padded to the width; the precision has
 * already been applied to n. */
static void put_padded(struct out *o, const struct spec *sp,
		       const char *s, int n)
{
	int pad = sp->width > n ? sp->width - n : 0;

	if (!(sp->flags & FLAG_LEFT))
		put_repeat(o, ' ', pad);
	put_str(o, s, n);
	if (sp->flags & FLAG_LEFT)
		put_repeat(o, ' ', pad);
}

static void put_string(struct out *o, const struct spec *sp, const char *s)
{
	int n = 0;

	if (!s)
		s = "(null)";
	/* Stop at the precision without reading past it: the string need
	 * not be NUL-terminated then (C11 7.21.6.1p8). */
	while ((sp->prec < 0 || n < sp->prec) && s[n])
		n++;
	put_padded(o, sp, s, n);
}

static long long signed_arg(enum length len, va_list *ap)
{
	switch (len) {
	case LEN_HH: return (signed char)va_arg(*ap, int);
	case LEN_H:  return (short)va_arg(*ap, int);
	case LEN_L:  return va_arg(*ap, long);
	case LEN_LL: return va_arg(*ap, long long);
	case LEN_Z:  return (ptrdiff_t)va_arg(*ap, size_t);
	case LEN_T:  return va_arg(*ap, ptrdiff_t);
	default:     return va_arg(*ap, int);
	}
}

static unsigned long long unsigned_arg(enum length len, va_list *ap)
{
	switch (len) {
	case LEN_HH: return (unsigned char)va_arg(*ap, unsigned);
	case LEN_H:  return (unsigned short)va_arg(*ap, unsigned);
	case LEN_L:  return va_arg(*ap, unsigned long);
	case LEN_LL: return va_arg(*ap, unsigned long long);
	case LEN_Z:  return va_arg(*ap, size_t);
	case LEN_T:  return (size_t)va_arg(*ap, ptrdiff_t);
	default:     return va_arg(*ap, unsigned);
	}
}

/* Flags, width, precision and length of one conversion; *pp is left on
 * the conversion character. */
static void parse_spec(const char **pp, struct spec *sp, va_list *ap)
{
	const char *p = *pp;

	sp->flags = 0;
	for (;; p++) {
		if (*p == '-')      sp->flags |= FLAG_LEFT;
		else if (*p == '0') sp->flags |= FLAG_ZERO;
		else if (*p == '+') sp->flags |= FLAG_PLUS;
		else if (*p == ' ') sp->flags |= FLAG_SPACE;
		else if (*p == '#') sp->flags |= FLAG_ALT;
		else break;
	}
	sp->width = 0;
	if (*p == '*') {
		int w = va_arg(*ap, int);
		/* A negative '*' width is the '-' flag (C11 7.21.6.1p5). */
		if (w < 0)
			sp->flags |= FLAG_LEFT;
		sp->width = saturate(w < 0 ? 0ul - (unsigned long)w : (unsigned long)w);
		p++;
	}
	for (; is_digit(*p); p++)
		sp->width = saturate((unsigned long)sp->width * 10 + (*p - '0'));
	sp->prec = -1;
	if (*p == '.') {
		p++;
		sp->prec = 0;
		if (*p == '*') {
			int pr = va_arg(*ap, int);
			sp->prec = pr < 0 ? -1 : saturate((unsigned long)pr);
			p++;
		}
		for (; is_digit(*p); p++)
			sp->prec = saturate((unsigned long)sp->prec * 10 + (*p - '0'));
	}
	sp->len = LEN_INT;
	if (p[0] == 'h' && p[1] == 'h') {
		sp->len = LEN_HH;
		p += 2;
	} else if (p[0] == 'l' && p[1] == 'l') {
		sp->len = LEN_LL;
		p += 2;
	} else if (*p == 'h' || *p == 'l' || *p == 'z' || *p == 't') {
		sp->len = *p == 'h' ? LEN_H : *p == 'l' ? LEN_L :
			  *p == 'z' ? LEN_Z : LEN_T;
		p++;
	}
	*pp = p;
}

void (*format_float_hook)(struct format_float *f, va_list *ap);

/* A floating-point conversion through the hook, padded to the width:
 * spaces before the sign, or with '0' zeros after it (C11 7.21.6.1p6).
 * noinline: its 1.5 KB buffer must not join every conversion's frame (a
 * kernel stack is 8 KiB; the kernel never gets here). */
__attribute__((noinline))
static void put_float(struct out *o, const struct spec *sp, char conv, va_list *ap)
{
	struct format_float f;
	int len, pad, slen = 0;

	f.conv = conv;
	f.prec = sp->prec;
	f.plus = sp->flags & FLAG_PLUS;
	f.space = sp->flags & FLAG_SPACE;
	f.alt = sp->flags & FLAG_ALT;
	f.text_len = f.zeros = f.sign_len = 0;
	f.suffix[0] = '\0';
	f.finite = true;
	format_float_hook(&f, ap);
	while (f.suffix[slen])
		slen++;
	len = f.text_len + f.zeros + slen;
	pad = sp->width > len ? sp->width - len : 0;
	if (!(sp->flags & FLAG_LEFT) && !((sp->flags & FLAG_ZERO) && f.finite))
		put_repeat(o, ' ', pad);
	put_str(o, f.text, f.sign_len);
	if (!(sp->flags & FLAG_LEFT) && (sp->flags & FLAG_ZERO) && f.finite)
		put_repeat(o, '0', pad);
	put_str(o, f.text + f.sign_len, f.text_len - f.sign_len);
	put_repeat(o, '0', f.zeros);
	put_str(o, f.suffix, slen);
	if (sp->flags & FLAG_LEFT)
		put_repeat(o, ' ', pad);
}

/* Performs conversion conv; returns false if it is unknown. */
static bool convert(struct out *o, struct spec *sp, char conv, va_list *ap)
{
	char c;

	switch (conv) {
	case 'd':
	case 'i': {
		long long v = signed_arg(sp->len, ap);
		unsigned long long mag = v < 0 ? 0ull - (unsigned long long)v
					       : (unsigned long long)v;
		put_number(o, sp, mag, v < 0, 'd');
		return true;
	}
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		put_number(o, sp, unsigned_arg(sp->len, ap), false, conv);
		return true;
	case 'p':
		/* 0x and every hex digit of the pointer: 8 on i386. Only the
		 * width and '-' apply. */
		sp->flags &= FLAG_LEFT;
		sp->prec = (int)(2 * sizeof(void *));
		put_number(o, sp, (uintptr_t)va_arg(*ap, void *), false, 'p');
		return true;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_padded(o, sp, &c, 1);
		return true;
	case 's':
		put_string(o, sp, va_arg(*ap, const char *));
		return true;
	case '%':
		put(o, '%');
		return true;
	case 'f':
	case 'F':
	case 'e':
	case 'E':
	case 'g':
	case 'G':
		if (!format_float_hook)
			return false;
		put_float(o, sp, conv, ap);
		return true;
	default:
		return false;
	}
}

int vformat(void (*emit)(char c, void *arg), void *arg,
	    const char *fmt, va_list ap)
{
	struct out o = { emit, arg, 0 };
	struct spec sp;
	va_list args;

	/* A va_list parameter is an array type on x86-64, so &ap would not be
	 * a va_list *; a local copy can be passed by address on every ABI. */
	va_copy(args, ap);
	while (*fmt) {
		const char *start = fmt;

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		parse_spec(&fmt, &sp, &args);
		if (*fmt && convert(&o, &sp, *fmt, &args)) {
			fmt++;
			continue;
		}
		/* Unknown (or cut-off) conversion: print it as written. */
		if (*fmt)
			fmt++;
		put_str(&o, start, (int)(fmt - start));
	}
	va_end(args);
	return o.count;
}

struct buf_sink {
	char *buf;
	size_t size;
	size_t pos;
};

/* Keeps the first size-1 characters; the rest are only counted. */
static void buf_emit(char c, void *arg)
{
	struct buf_sink *b = arg;

	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buf_sink b = { buf, size, 0 };
	int n = vformat(buf_emit, &b, fmt, ap);

	if (size)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
