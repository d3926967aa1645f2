/* lib/cpio.h - reading "newc" cpio archives (the initrd, abi.md section 1).
 *
 * Format (as GNU cpio -H newc writes it): a 110-byte ASCII header whose
 * magic is "070701" followed by 13 eight-digit hex fields (ino, mode, uid,
 * gid, nlink, mtime, filesize, devmajor, devminor, rdevmajor, rdevminor,
 * namesize, check), then the NUL-terminated name, padded to 4 bytes, then
 * the data, padded to 4 bytes. The entry named "TRAILER!!!" ends it. */
#ifndef LIB_CPIO_H
#define LIB_CPIO_H

#include "lib/types.h"

#define CPIO_PATH_MAX 128

#define CPIO_MODE_TYPE 0170000
#define CPIO_MODE_REG  0100000
#define CPIO_MODE_DIR  0040000

struct cpio_entry {
	char path[CPIO_PATH_MAX];   /* normalised: leading "./" or "/" dropped
				       and "/" put back: "./bin/sh" -> "/bin/sh" */
	uint32_t mode;
	const void *data;           /* points into the archive */
	uint32_t size;
};

/* Is this buffer a newc archive (starts with "070701")? */
bool cpio_is_newc(const void *buf, size_t len);

/* Reads the entry at *off and advances *off past it. Returns 1 for an
 * entry, 0 at the trailer (or at the exact end of the buffer), and -1 for
 * a malformed archive: bad magic, a non-hex field, a name or data that runs
 * past len, a name without its NUL, or a name longer than CPIO_PATH_MAX-2. */
int cpio_next(const void *buf, size_t len, size_t *off, struct cpio_entry *e);

#endif
