/* tests/unit/test_format.c - lib/format.c: every conversion, flag, width,
 * precision and length modifier, vsnprintf's truncation and return value.
 *
 * Compiled with -Dsnprintf=spindle_snprintf -Dvsnprintf=spindle_vsnprintf
 * (Makefile.inc), so snprintf here is ours. __builtin_snprintf is not
 * renamed and still calls glibc's: the differential test uses it as the
 * reference for the conversions whose output C fully defines. */
#include "tests/unit/unit.h"
#include "lib/format.h"

#define OUT_SIZE 256
static char out[OUT_SIZE];

/* Formats into out with format checking; returns vsnprintf's value. */
__attribute__((format(printf, 1, 2)))
static int fmt(const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(out, sizeof(out), f, ap);
	va_end(ap);
	return n;
}

/* The same without format checking, for formats gcc rightly rejects. */
static int fmt_raw(const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(out, sizeof(out), f, ap);
	va_end(ap);
	return n;
}

#define EXPECT(want, call)                                              \
	do {                                                            \
		int expect_n_ = (call);                                 \
		CHECK_STR(out, want);                                   \
		CHECK_EQ_I(expect_n_, (long long)__builtin_strlen(want)); \
	} while (0)

TEST(plain_text_and_percent)
{
	EXPECT("", fmt("%s", ""));
	EXPECT("hello", fmt("hello"));
	EXPECT("100%", fmt("100%%"));
	EXPECT("%%", fmt("%%%%"));
}

TEST(signed_decimal)
{
	EXPECT("0 42 -42", fmt("%d %d %d", 0, 42, -42));
	EXPECT("2147483647 -2147483648", fmt("%d %i", 2147483647, -2147483647 - 1));
	EXPECT("-7", fmt("%i", -7));
}

TEST(unsigned_hex_octal)
{
	EXPECT("0 4294967295", fmt("%u %u", 0u, 4294967295u));
	EXPECT("deadbeef DEADBEEF", fmt("%x %X", 0xdeadbeefu, 0xdeadbeefu));
	EXPECT("0 0", fmt("%x %X", 0u, 0u));
	EXPECT("10 0 37777777777", fmt("%o %o %o", 8u, 0u, 0xffffffffu));
}

TEST(char_conversion)
{
	EXPECT("A", fmt("%c", 'A'));
	EXPECT("  A|A  |", fmt("%3c|%-3c|", 'A', 'A'));
	EXPECT("x\xff", fmt("x%c", 0xff));
}

TEST(string_conversion)
{
	char unterminated[3] = { 'a', 'b', 'c' };

	EXPECT("hi", fmt("%s", "hi"));
	EXPECT("(null)", fmt_raw("%s", (char *)0));
	EXPECT("h", fmt("%.1s", "hello"));
	EXPECT("hel", fmt("%.*s", 3, "hello"));
	EXPECT("hello", fmt("%.*s", -1, "hello"));
	EXPECT("     hello|hello     |", fmt("%10s|%-10s|", "hello", "hello"));
	EXPECT("   he", fmt("%5.2s", "hello"));
	EXPECT("(nu", fmt_raw("%.3s", (char *)0));
	/* Precision stops the read: ASan would flag a byte past the array. */
	EXPECT("abc", fmt("%.3s", unterminated));
}

TEST(pointer_conversion)
{
	if (sizeof(void *) == 8) {
		EXPECT("0x0000000000001234", fmt("%p", (void *)0x1234));
		EXPECT("0x0000000000000000", fmt("%p", (void *)0));
		EXPECT("0x00000000000000ff  |", fmt("%-20p|", (void *)0xff));
	} else {
		EXPECT("0x00001234", fmt("%p", (void *)0x1234));
		EXPECT("0x00000000", fmt("%p", (void *)0));
		EXPECT("0x000000ff  |", fmt("%-12p|", (void *)0xff));
	}
}

TEST(flags)
{
	EXPECT("+5 -5  5 -5", fmt("%+d %+d % d % d", 5, -5, 5, -5));
	EXPECT("+5", fmt_raw("%+ d", 5));
	EXPECT("-0042|42   |", fmt("%05d|%-5d|", -42, 42));
	EXPECT("42   ", fmt_raw("%-05d", 42));
	EXPECT("0xff 0XFF 0", fmt("%#x %#X %#x", 255u, 255u, 0u));
	EXPECT("010 0 010 0012", fmt("%#o %#o %#.3o %#.4o", 8u, 0u, 8u, 10u));
	EXPECT("0x0000ff", fmt("%#08x", 255u));
	EXPECT("5 5", fmt_raw("%+u % u", 5u, 5u));
}

TEST(width_and_precision)
{
	EXPECT("   42|42|", fmt("%5d|%1d|", 42, 42));
	EXPECT("005|-005|     005", fmt_raw("%.3d|%.3d|%08.3d", 5, -5, 5));
	EXPECT("||     |0", fmt("|%.0d|%5.0d|%d", 0, 0, 0));
	EXPECT("0x000ab", fmt("%#.5x", 0xabu));
	EXPECT("   42|42   |", fmt("%*d|%*d|", 5, 42, -5, 42));
	EXPECT("005|5|00042", fmt("%.*d|%.*d|%0*d", 3, 5, -1, 5, 5, 42));
	EXPECT("  042", fmt("%*.*d", 5, 3, 42));
}

TEST(length_modifiers)
{
	EXPECT("-1 7", fmt("%hhd %hhu", 255, 256 + 7));
	EXPECT("-1 9029", fmt("%hd %hu", 65535, 0x12345));
	EXPECT("-2147483648 4294967295", fmt("%ld %lu", -2147483647L - 1, 4294967295UL));
	EXPECT("-9223372036854775808", fmt("%lld", -9223372036854775807LL - 1));
	EXPECT("18446744073709551615", fmt("%llu", 18446744073709551615ULL));
	EXPECT("123456789abcdef0", fmt("%llx", 0x123456789abcdef0ULL));
	EXPECT("1777777777777777777777", fmt("%llo", 18446744073709551615ULL));
	EXPECT("4294967296 100000000", fmt("%llu %llx", 1ULL << 32, 1ULL << 32));
	EXPECT("-3 5", fmt("%td %zu", (__PTRDIFF_TYPE__)-3, (__SIZE_TYPE__)5));
	EXPECT("-1", fmt_raw("%zd", (__SIZE_TYPE__)-1));
	/* Wide arguments are consumed whole: the next one is still right. */
	EXPECT("1099511627776 7 x", fmt("%lld %d %c", 1LL << 40, 7, 'x'));
}

TEST(unknown_conversion_printed_as_written)
{
	EXPECT("%q", fmt_raw("%q"));
	EXPECT("a%5qb", fmt_raw("a%5qb"));
	EXPECT("%-08.3ly", fmt_raw("%-08.3ly"));
	EXPECT("abc%", fmt_raw("abc%"));
	EXPECT("%5", fmt_raw("%5"));
	EXPECT("%jd 3", fmt_raw("%jd %d", 3));
}

TEST(vsnprintf_truncates_and_counts)
{
	char buf[8];

	for (int i = 0; i < 8; i++)
		buf[i] = '#';
	CHECK_EQ_I(snprintf(buf, 5, "hello world"), 11);
	CHECK_STR(buf, "hell");
	CHECK_EQ_U((unsigned char)buf[5], '#');
	CHECK_EQ_I(snprintf(buf, 6, "%s", "hello"), 5);
	CHECK_STR(buf, "hello");
	CHECK_EQ_I(snprintf(buf, 1, "%d", 12345), 5);
	CHECK_STR(buf, "");
	CHECK_EQ_U((unsigned char)buf[1], 'e');
}

TEST(vsnprintf_size_zero_writes_nothing)
{
	char buf[4] = { 'x', 'y', 'z', 0 };

	CHECK_EQ_I(snprintf(buf, 0, "%s", "long string"), 11);
	CHECK_STR(buf, "xyz");
	CHECK_EQ_I(snprintf((char *)0, 0, "%d%d", 12, 345), 5);
}

struct count_sink {
	int calls;
	char last;
};

static void count_emit(char c, void *arg)
{
	struct count_sink *s = arg;

	s->calls++;
	s->last = c;
}

static int count_format(struct count_sink *s, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vformat(count_emit, s, f, ap);
	va_end(ap);
	return n;
}

TEST(vformat_emits_once_per_char)
{
	struct count_sink s = { 0, 0 };

	CHECK_EQ_I(count_format(&s, "%5d!", 42), 6);
	CHECK_EQ_I(s.calls, 6);
	CHECK_EQ_U((unsigned char)s.last, '!');
}

/* Against glibc for every flag set, several widths and precisions. */
static bool differs(const char *f, long long v, bool is_ll, bool is_str)
{
	char ref[OUT_SIZE];
	int n_ours, n_ref;

	if (is_str) {
		n_ours = fmt_raw(f, "hello");
		n_ref = __builtin_snprintf(ref, sizeof(ref), f, "hello");
	} else if (is_ll) {
		n_ours = fmt_raw(f, v);
		n_ref = __builtin_snprintf(ref, sizeof(ref), f, v);
	} else {
		n_ours = fmt_raw(f, (int)v);
		n_ref = __builtin_snprintf(ref, sizeof(ref), f, (int)v);
	}
	if (n_ours == n_ref && unit_str_eq(out, ref))
		return false;
	unit_fail(__FILE__, __LINE__, "format \"%s\": ours \"%s\" (%d), glibc \"%s\" (%d)",
		  f, out, n_ours, ref, n_ref);
	return true;
}

TEST(matches_glibc_for_defined_formats)
{
	static const char flags[] = "-0+ #";
	static const char *const widths[] = { "", "1", "8", "25" };
	static const char *const precs[] = { "", ".", ".0", ".1", ".5", ".30" };
	static const char *const convs[] = { "d", "i", "u", "x", "X", "o",
					     "lld", "llu", "llx", "llo", "s" };
	static const long long values[] = { 0, 1, -1, 42, -42, 8, 255,
		2147483647LL, -2147483647LL - 1, 0x123456789abcdefLL,
		-9223372036854775807LL - 1 };

	for (unsigned fl = 0; fl < 32; fl++)
	for (unsigned w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
	for (unsigned p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
	for (unsigned c = 0; c < sizeof(convs) / sizeof(convs[0]); c++) {
		char f[32];
		int n = 0;
		bool is_str = convs[c][0] == 's';

		f[n++] = '%';
		for (int b = 0; b < 5; b++)
			if ((fl & (1u << b)) && !(is_str && b != 0))
				f[n++] = flags[b];
		for (const char *s = widths[w]; *s; s++)
			f[n++] = *s;
		for (const char *s = precs[p]; *s; s++)
			f[n++] = *s;
		for (const char *s = convs[c]; *s; s++)
			f[n++] = *s;
		f[n] = '\0';
		for (unsigned v = 0; v < sizeof(values) / sizeof(values[0]); v++)
			if (differs(f, values[v], convs[c][0] == 'l', is_str))
				return;
	}
}
