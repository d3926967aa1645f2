/* tests/unit/test_string.c - lib/string.c.
 *
 * Compiled with -Dmemcpy=spindle_memcpy and the like (Makefile.inc), so
 * every call here reaches lib/string.c, not glibc, and gcc cannot fold
 * them as builtins. */
#include "tests/unit/unit.h"
#include "lib/string.h"

#define BUF 64

static void fill_pattern(unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + 1);
}

TEST(memcpy_copies_and_returns_dst)
{
	unsigned char src[BUF], dst[BUF + 1];

	fill_pattern(src, BUF);
	dst[BUF] = 0xee;
	CHECK(memcpy(dst, src, BUF) == dst);
	CHECK(unit_mem_eq(dst, src, BUF));
	CHECK_EQ_U(dst[BUF], 0xee);
	CHECK(memcpy(dst, src, 0) == dst);
}

/* Reference: what memmove must produce, via a separate buffer. */
static void check_move(size_t dst_off, size_t src_off, size_t n)
{
	unsigned char buf[BUF], want[BUF], tmp[BUF];

	fill_pattern(buf, BUF);
	fill_pattern(want, BUF);
	for (size_t i = 0; i < n; i++)
		tmp[i] = want[src_off + i];
	for (size_t i = 0; i < n; i++)
		want[dst_off + i] = tmp[i];
	CHECK(memmove(buf + dst_off, buf + src_off, n) == buf + dst_off);
	CHECK(unit_mem_eq(buf, want, BUF));
}

TEST(memmove_overlap_both_directions)
{
	check_move(4, 0, 40);   /* dst above src: must copy backwards */
	check_move(0, 4, 40);   /* dst below src: must copy forwards */
	check_move(1, 0, 63);
	check_move(0, 1, 63);
	check_move(8, 8, 16);   /* same place */
	check_move(0, 32, 32);  /* no overlap */
	check_move(10, 3, 0);
}

TEST(memset_fills_bytes_only)
{
	unsigned char b[BUF];

	fill_pattern(b, BUF);
	CHECK(memset(b + 1, 0x1ff, 10) == b + 1);
	CHECK_EQ_U(b[0], 1);
	for (int i = 1; i <= 10; i++)
		CHECK_EQ_U(b[i], 0xff);
	CHECK_EQ_U(b[11], (unsigned char)(11 * 7 + 1));
	memset(b, 0, 0);
	CHECK_EQ_U(b[0], 1);
}

TEST(memcmp_orders_as_unsigned)
{
	CHECK(memcmp("abc", "abc", 3) == 0);
	CHECK(memcmp("abc", "abd", 3) < 0);
	CHECK(memcmp("abd", "abc", 3) > 0);
	CHECK(memcmp("\x80", "\x01", 1) > 0);
	CHECK(memcmp("abc", "xyz", 0) == 0);
	CHECK(memcmp("ab\0x", "ab\0y", 4) < 0);  /* NULs do not stop it */
}

TEST(strlen_and_strnlen)
{
	CHECK_EQ_U(strlen(""), 0);
	CHECK_EQ_U(strlen("hello"), 5);
	CHECK_EQ_U(strnlen("hello", 3), 3);
	CHECK_EQ_U(strnlen("hello", 5), 5);
	CHECK_EQ_U(strnlen("hello", 99), 5);
	CHECK_EQ_U(strnlen("hello", 0), 0);
}

TEST(strnlen_stops_at_max)
{
	char no_nul[4] = { 'a', 'b', 'c', 'd' };

	/* ASan flags any read of no_nul[4]. */
	CHECK_EQ_U(strnlen(no_nul, 4), 4);
}

TEST(strcmp_orders_as_unsigned)
{
	CHECK(strcmp("", "") == 0);
	CHECK(strcmp("abc", "abc") == 0);
	CHECK(strcmp("ab", "abc") < 0);
	CHECK(strcmp("abc", "ab") > 0);
	CHECK(strcmp("abc", "abd") < 0);
	CHECK(strcmp("\x80", "a") > 0);
}

TEST(strncmp_limits)
{
	CHECK(strncmp("abcdef", "abcxyz", 3) == 0);
	CHECK(strncmp("abcdef", "abcxyz", 4) < 0);
	CHECK(strncmp("abc", "abd", 0) == 0);
	CHECK(strncmp("ab", "ab", 100) == 0);   /* stops at the NUL */
	CHECK(strncmp("ab", "abc", 100) < 0);
	CHECK(strncmp("init=/x", "init=", 5) == 0);
	CHECK(strncmp("\xff", "\x01", 1) > 0);
}

TEST(strchr_finds_first_and_the_nul)
{
	const char *s = "a/b/c", *high = "q\x80z";

	CHECK(strchr(s, '/') == s + 1);
	CHECK(strchr(s, 'a') == s);
	CHECK(strchr(s, '\0') == s + 5);
	CHECK(strchr(s, 'x') == NULL);
	CHECK(strchr("", 'x') == NULL);
	/* c is converted to char: 0x180 and 0x80 both find "\x80". */
	CHECK(strchr(high, 0x180) == high + 1);
	CHECK(strchr(high, 0x80) == high + 1);
}

TEST(strrchr_finds_last_and_the_nul)
{
	const char *s = "a/b/c";

	CHECK(strrchr(s, '/') == s + 3);
	CHECK(strrchr(s, 'c') == s + 4);
	CHECK(strrchr(s, 'a') == s);
	CHECK(strrchr(s, '\0') == s + 5);
	CHECK(strrchr(s, 'x') == NULL);
	CHECK(strrchr("", '\0') != NULL);
}

TEST(strlcpy_copies_and_truncates)
{
	char b[8];

	memset(b, '#', sizeof(b));
	CHECK_EQ_U(strlcpy(b, "hi", sizeof(b)), 2);
	CHECK_STR(b, "hi");
	CHECK_EQ_U((unsigned char)b[3], '#');

	CHECK_EQ_U(strlcpy(b, "0123456789", sizeof(b)), 10);
	CHECK_STR(b, "0123456");

	CHECK_EQ_U(strlcpy(b, "exact67", sizeof(b)), 7);
	CHECK_STR(b, "exact67");

	memset(b, '#', sizeof(b));
	CHECK_EQ_U(strlcpy(b, "abc", 1), 3);
	CHECK_EQ_U((unsigned char)b[0], 0);
	CHECK_EQ_U((unsigned char)b[1], '#');

	CHECK_EQ_U(strlcpy(b, "abc", 0), 3);
	CHECK_EQ_U((unsigned char)b[0], 0);
	CHECK_EQ_U((unsigned char)b[1], '#');
}
