/* tests/unit/test_cpio.c - lib/cpio.c on archives built here (newc as
 * GNU cpio -H newc writes them) and on malformed ones. Every archive is
 * parsed from a heap copy of exactly its length, so ASan reports any read
 * past len. */
#include "tests/unit/unit.h"
#include "lib/cpio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARCHIVE_MAX 4096
#define HDR 110

struct archive {
	unsigned char b[ARCHIVE_MAX];
	size_t len;
};

static void put_bytes(struct archive *a, const void *p, size_t n)
{
	memcpy(a->b + a->len, p, n);
	a->len += n;
}

static void put_pad(struct archive *a)
{
	while (a->len & 3)
		a->b[a->len++] = 0;
}

/* A newc header with the given mode, filesize and namesize; the other
 * fields hold recognisable values, written in the case GNU cpio uses. */
static void put_header(struct archive *a, unsigned mode, unsigned filesize,
		       unsigned namesize)
{
	char h[HDR + 1];

	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 0x1234u, mode, 0u, 0u, 1u, 0x5f000000u, filesize, 8u, 1u, 0u,
		 0u, namesize, 0u);
	put_bytes(a, h, HDR);
}

static void add(struct archive *a, const char *name, unsigned mode,
		const char *data, unsigned size)
{
	put_header(a, mode, size, (unsigned)strlen(name) + 1);
	put_bytes(a, name, strlen(name) + 1);
	put_pad(a);
	put_bytes(a, data, size);
	put_pad(a);
}

static void add_file(struct archive *a, const char *name, const char *data)
{
	add(a, name, CPIO_MODE_REG | 0644, data, (unsigned)strlen(data));
}

static void add_trailer(struct archive *a)
{
	add(a, "TRAILER!!!", 0, "", 0);
}

/* A heap copy of exactly a->len bytes (freed by the caller). */
static unsigned char *exact(const struct archive *a)
{
	unsigned char *p = malloc(a->len ? a->len : 1);

	memcpy(p, a->b, a->len);
	return p;
}

/* Parses the whole of [buf, len); returns the last cpio_next value and
 * checks the invariants every returned entry must meet. */
static int walk(const unsigned char *buf, size_t len, int *entries)
{
	struct cpio_entry e;
	size_t off = 0;
	int r, n = 0;

	while ((r = cpio_next(buf, len, &off, &e)) == 1) {
		n++;
		CHECK(off <= len);
		CHECK(e.path[0] == '/');
		CHECK(strnlen(e.path, CPIO_PATH_MAX) < CPIO_PATH_MAX);
		CHECK((const unsigned char *)e.data >= buf);
		CHECK(e.size <= len - (size_t)((const unsigned char *)e.data - buf));
		if (n > ARCHIVE_MAX)
			break;
	}
	if (entries)
		*entries = n;
	return r;
}

/* cpio_next once, on an exact copy. e->data is left dangling: only the
 * return value, e->path, e->mode and e->size are for the caller. */
static int first_entry(const struct archive *a, struct cpio_entry *e)
{
	unsigned char *p = exact(a);
	size_t off = 0;
	int r = cpio_next(p, a->len, &off, e);

	CHECK(off <= a->len);
	free(p);
	return r;
}

static int parse_exact(const struct archive *a, int *entries)
{
	unsigned char *p = exact(a);
	int r = walk(p, a->len, entries);

	free(p);
	return r;
}

TEST(is_newc)
{
	CHECK(cpio_is_newc("070701", 6));
	CHECK(cpio_is_newc("07070100000000", 14));
	CHECK(!cpio_is_newc("070702", 6));   /* the CRC variant */
	CHECK(!cpio_is_newc("070707", 6));   /* the old ASCII format */
	CHECK(!cpio_is_newc("07070", 5));
	CHECK(!cpio_is_newc("070701", 5));
	CHECK(!cpio_is_newc(NULL, 0));
	CHECK(!cpio_is_newc("\177ELF", 4));
}

TEST(files_in_order_then_trailer)
{
	static struct archive a;
	struct cpio_entry e;
	size_t off = 0;

	a.len = 0;
	add_file(&a, "bin/init", "\177ELF-init");
	add_file(&a, "etc/motd", "hi\n");
	add_trailer(&a);

	unsigned char *p = exact(&a);
	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 1);
	CHECK_STR(e.path, "/bin/init");
	CHECK_EQ_U(e.mode, CPIO_MODE_REG | 0644);
	CHECK_EQ_U(e.size, 9);
	CHECK(memcmp(e.data, "\177ELF-init", 9) == 0);
	CHECK_EQ_U(off & 3, 0);

	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 1);
	CHECK_STR(e.path, "/etc/motd");
	CHECK_EQ_U(e.size, 3);
	CHECK(memcmp(e.data, "hi\n", 3) == 0);

	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 0);
	CHECK_EQ_U(off, a.len);
	free(p);
}

TEST(path_prefixes_are_normalised)
{
	static const char *const names[][2] = {
		{ "./bin/sh", "/bin/sh" }, { "/bin/sh", "/bin/sh" },
		{ "bin/sh", "/bin/sh" },   { ".", "/" },
		{ "./", "/" },             { "././x", "/x" },
		{ ".hidden", "/.hidden" }, { "./.x", "/.x" },
	};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		static struct archive a;
		struct cpio_entry e;

		a.len = 0;
		add_file(&a, names[i][0], "x");
		CHECK_EQ_I(first_entry(&a, &e), 1);
		CHECK_STR(e.path, names[i][1]);
	}
}

TEST(directories_and_empty_files)
{
	static struct archive a;
	struct cpio_entry e;
	size_t off = 0;

	a.len = 0;
	add(&a, ".", CPIO_MODE_DIR | 0755, "", 0);
	add(&a, "bin", CPIO_MODE_DIR | 0755, "", 0);
	add_file(&a, "bin/empty", "");
	add_trailer(&a);

	unsigned char *p = exact(&a);
	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 1);
	CHECK_STR(e.path, "/");
	CHECK_EQ_U(e.mode & CPIO_MODE_TYPE, CPIO_MODE_DIR);
	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 1);
	CHECK_STR(e.path, "/bin");
	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 1);
	CHECK_STR(e.path, "/bin/empty");
	CHECK_EQ_U(e.mode & CPIO_MODE_TYPE, CPIO_MODE_REG);
	CHECK_EQ_U(e.size, 0);
	CHECK_EQ_I(cpio_next(p, a.len, &off, &e), 0);
	free(p);
}

TEST(end_of_buffer_without_trailer_is_the_end)
{
	static struct archive a;
	int n;

	a.len = 0;
	add_file(&a, "a", "1");
	add_file(&a, "b", "22");
	CHECK_EQ_I(parse_exact(&a, &n), 0);
	CHECK_EQ_I(n, 2);
	a.len = 0;
	CHECK_EQ_I(parse_exact(&a, &n), 0);
	CHECK_EQ_I(n, 0);
}

TEST(final_padding_may_be_missing)
{
	static struct archive a;
	int n;

	a.len = 0;
	add_file(&a, "a", "1");
	a.len -= 3;             /* drop the data's padding */
	CHECK_EQ_I(parse_exact(&a, &n), 0);
	CHECK_EQ_I(n, 1);
}

TEST(name_length_limit)
{
	static struct archive a;
	char name[CPIO_PATH_MAX + 8];
	struct cpio_entry e;

	memset(name, 'n', sizeof(name));
	name[CPIO_PATH_MAX - 2] = '\0';         /* 126 chars: fits */
	a.len = 0;
	add_file(&a, name, "x");
	CHECK_EQ_I(first_entry(&a, &e), 1);
	CHECK_EQ_U(strlen(e.path), CPIO_PATH_MAX - 1);

	name[CPIO_PATH_MAX - 2] = 'n';          /* 127 chars: too long */
	name[CPIO_PATH_MAX - 1] = '\0';
	a.len = 0;
	add_file(&a, name, "x");
	CHECK_EQ_I(first_entry(&a, &e), -1);
}

/* One entry "x" with data "abc", then the byte at pos replaced by c. */
static int parse_with_byte(size_t pos, unsigned char c)
{
	static struct archive a;

	a.len = 0;
	add_file(&a, "x", "abc");
	a.b[pos] = c;
	return parse_exact(&a, NULL);
}

TEST(bad_magic)
{
	CHECK_EQ_I(parse_with_byte(5, '7'), -1);        /* 070707: odc */
	CHECK_EQ_I(parse_with_byte(5, '2'), -1);        /* 070702: crc */
	CHECK_EQ_I(parse_with_byte(0, 'X'), -1);
}

TEST(non_hex_digit_in_any_field)
{
	static const char bad[] = { 'g', 'G', ' ', '-', 'x', '\0' };

	for (size_t pos = 6; pos < HDR; pos++)
		for (unsigned i = 0; i < sizeof(bad); i++)
			CHECK_EQ_I(parse_with_byte(pos, (unsigned char)bad[i]), -1);
}

TEST(lowercase_hex_is_accepted)
{
	static struct archive a;
	struct cpio_entry e;

	a.len = 0;
	add(&a, "d", CPIO_MODE_DIR | 0755, "", 0);
	memcpy(a.b + 6 + 8, "000041ed", 8);    /* mode, in lower case */
	CHECK_EQ_I(first_entry(&a, &e), 1);
	CHECK_EQ_U(e.mode, CPIO_MODE_DIR | 0755);
}

/* cpio_next on a header with these sizes followed by n raw bytes. */
static int parse_sizes(unsigned filesize, unsigned namesize,
		       const char *rest, size_t n)
{
	static struct archive a;
	struct cpio_entry e;

	a.len = 0;
	put_header(&a, CPIO_MODE_REG, filesize, namesize);
	put_bytes(&a, rest, n);
	return first_entry(&a, &e);
}

TEST(sizes_past_the_end)
{
	/* 110 + namesize 3 = 113, padded to 116: the data starts there. */
	CHECK_EQ_I(parse_sizes(0, 3, "ab\0\0\0\0", 6), 1);    /* baseline */
	CHECK_EQ_I(parse_sizes(0, 7, "abcdef", 6), -1);          /* name */
	CHECK_EQ_I(parse_sizes(1, 3, "ab\0\0\0\0", 6), -1);   /* data */
	CHECK_EQ_I(parse_sizes(2, 3, "ab\0\0\0\0xy", 8), 1);
	CHECK_EQ_I(parse_sizes(3, 3, "ab\0\0\0\0xy", 8), -1);
	/* Data placed right after the name, ignoring the padding: short. */
	CHECK_EQ_I(parse_sizes(2, 3, "ab\0xy", 5), -1);
}

TEST(huge_sizes_do_not_wrap)
{
	CHECK_EQ_I(parse_sizes(0, 0xffffffff, "ab\0\0", 4), -1);
	CHECK_EQ_I(parse_sizes(0xffffffff, 3, "ab\0\0", 4), -1);
	CHECK_EQ_I(parse_sizes(0xfffffffc, 3, "ab\0\0", 4), -1);
	CHECK_EQ_I(parse_sizes(0xffffffff, 0xffffffff, "ab\0\0", 4), -1);
}

TEST(name_nul_rules)
{
	CHECK_EQ_I(parse_sizes(0, 0, "ab\0\0", 4), -1);  /* no room for NUL */
	CHECK_EQ_I(parse_sizes(0, 2, "ab\0\0", 4), -1);  /* "ab" without NUL */
	CHECK_EQ_I(parse_sizes(0, 4, "a\0b\0", 4), -1);  /* NUL inside */
	CHECK_EQ_I(parse_sizes(0, 1, "\0\0\0\0", 4), 1); /* "" is "/" */
}

TEST(truncated_header_and_bad_offsets)
{
	static struct archive a;
	struct cpio_entry e;

	a.len = 0;
	add_file(&a, "x", "abc");
	add_trailer(&a);
	size_t full = a.len;
	for (a.len = 1; a.len < HDR; a.len++)
		CHECK_EQ_I(parse_exact(&a, NULL), -1);
	/* Cut anywhere: never a crash, never a bogus entry (walk checks). */
	for (a.len = 0; a.len <= full; a.len++)
		(void)parse_exact(&a, NULL);

	size_t off = full + 1;
	a.len = full;
	unsigned char *p = exact(&a);
	CHECK_EQ_I(cpio_next(p, full, &off, &e), -1);
	off = (size_t)-1;
	CHECK_EQ_I(cpio_next(p, full, &off, &e), -1);
	free(p);
}

/* Every byte of a small archive replaced by a few values: each walk must
 * end, stay inside the buffer (ASan) and only return sane entries. */
TEST(mutated_archives_never_misbehave)
{
	static struct archive a;
	static const unsigned char vals[] = { 0, '0', '7', 'f', 'F', 0xff, '/' };

	a.len = 0;
	add(&a, ".", CPIO_MODE_DIR | 0755, "", 0);
	add_file(&a, "./bin/init", "ELF");
	add_trailer(&a);
	for (size_t pos = 0; pos < a.len; pos++)
		for (unsigned v = 0; v < sizeof(vals); v++) {
			unsigned char saved = a.b[pos];

			a.b[pos] = vals[v];
			(void)parse_exact(&a, NULL);
			a.b[pos] = saved;
		}
	CHECK_EQ_I(parse_exact(&a, NULL), 0);
}
