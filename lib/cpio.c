/* lib/cpio.c - read "newc" cpio archives (lib/cpio.h, abi.md section 1).
 *
 * The initrd comes from outside the kernel, so nothing in it is trusted:
 * every length is checked against what is left of the buffer before it is
 * used, by subtraction (n > len - pos) so that no sum can wrap, and no
 * byte at or past len is ever read. */
#include "lib/cpio.h"
#include "lib/string.h"

#define CPIO_MAGIC        "070701"
#define CPIO_MAGIC_LEN    6
#define CPIO_HEADER_LEN   110       /* magic + 13 fields of 8 hex digits */
#define CPIO_FIELD_LEN    8
#define CPIO_TRAILER      "TRAILER!!!"

/* Field order after the magic (lib/cpio.h). */
enum cpio_field {
	F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE,
	F_DEVMAJOR, F_DEVMINOR, F_RDEVMAJOR, F_RDEVMINOR, F_NAMESIZE, F_CHECK,
	F_COUNT
};
_Static_assert(CPIO_MAGIC_LEN + F_COUNT * CPIO_FIELD_LEN == CPIO_HEADER_LEN,
	       "newc header: magic and 13 eight-digit fields");

bool cpio_is_newc(const void *buf, size_t len)
{
	return buf && len >= CPIO_MAGIC_LEN &&
	       memcmp(buf, CPIO_MAGIC, CPIO_MAGIC_LEN) == 0;
}

static int hex_value(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Eight hex digits, exactly; anything else (a space, a sign, "0x") is
 * malformed. Eight digits always fit in 32 bits. */
static bool parse_field(const char *s, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < CPIO_FIELD_LEN; i++) {
		int d = hex_value(s[i]);

		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return true;
}

static bool parse_header(const char *h, uint32_t f[F_COUNT])
{
	if (memcmp(h, CPIO_MAGIC, CPIO_MAGIC_LEN) != 0)
		return false;
	for (int i = 0; i < F_COUNT; i++)
		if (!parse_field(h + CPIO_MAGIC_LEN + i * CPIO_FIELD_LEN, &f[i]))
			return false;
	return true;
}

/* Claims n bytes at *pos: false if fewer than n are left. */
static bool take(size_t len, size_t *pos, uint32_t n)
{
	if (n > len - *pos)
		return false;
	*pos += n;
	return true;
}

/* Skips the padding to the next multiple of 4 (newc aligns names and data
 * to 4 bytes from the start of the archive). A buffer may end inside the
 * last padding; the entry that needs those bytes then fails its take(). */
static void skip_pad(size_t len, size_t *pos)
{
	size_t pad = (4 - (*pos & 3)) & 3;

	*pos = pad > len - *pos ? len : *pos + pad;
}

/* The name occupies exactly namesize bytes, NUL included, with no NUL
 * before the last byte; it must leave room for the '/' put in front. */
static bool name_ok(const char *name, uint32_t namesize)
{
	if (namesize == 0 || namesize - 1 > CPIO_PATH_MAX - 2)
		return false;
	return strnlen(name, namesize) == namesize - 1;
}

/* "./bin/sh", "/bin/sh" and "bin/sh" all become "/bin/sh"; "." and "./"
 * (the archive's root directory) become "/". */
static void normalise_path(const char *name, char path[CPIO_PATH_MAX])
{
	size_t n;

	for (;;) {
		if (name[0] == '.' && name[1] == '/')
			name += 2;
		else if (name[0] == '/')
			name += 1;
		else
			break;
	}
	if (name[0] == '.' && name[1] == '\0')
		name++;
	n = strlen(name);       /* < CPIO_PATH_MAX - 1: checked by name_ok */
	path[0] = '/';
	memcpy(path + 1, name, n + 1);
}

int cpio_next(const void *buf, size_t len, size_t *off, struct cpio_entry *e)
{
	const char *base = buf;
	uint32_t f[F_COUNT];
	size_t pos = *off;
	const char *name, *data;

	if (pos == len)
		return 0;
	if (pos > len || !take(len, &pos, CPIO_HEADER_LEN) ||
	    !parse_header(base + pos - CPIO_HEADER_LEN, f))
		return -1;

	name = base + pos;
	if (!take(len, &pos, f[F_NAMESIZE]) || !name_ok(name, f[F_NAMESIZE]))
		return -1;
	skip_pad(len, &pos);
	if (strcmp(name, CPIO_TRAILER) == 0) {
		*off = pos;
		return 0;
	}

	data = base + pos;
	if (!take(len, &pos, f[F_FILESIZE]))
		return -1;
	skip_pad(len, &pos);

	e->data = data;
	e->mode = f[F_MODE];
	e->size = f[F_FILESIZE];
	normalise_path(name, e->path);
	*off = pos;
	return 1;
}
