/* kernel/initrd.h - the files the loader brought (abi.md section 1).
 *
 * Every multiboot module is either a cpio newc archive, whose regular
 * files become files at their archive paths, or any other file, which
 * becomes the file named by the first word of the module's string. The
 * files stay where the loader put them (pmm_init reserves the modules);
 * the table holds only their names, addresses, sizes and modes. These
 * are the seed kernel's files (abi.md section 3: open is read-only, of
 * the initrd's files): initrd_open. With the Linux layer they are copied
 * at boot into its RAM file system (compat/linux/fs/initramfs.c), where
 * programs see them instead, and this table stays the record of what
 * the loader brought (the monitor's ls, the ktests). */
#ifndef KERNEL_INITRD_H
#define KERNEL_INITRD_H

#include "lib/types.h"
#include "lib/cpio.h"

#define INITRD_MAX_FILES 256

struct initrd_file {
	char path[CPIO_PATH_MAX];
	const void *data;
	uint32_t size;
	uint32_t mode;              /* the archive's (type and permissions) */
};

void initrd_init(void);                         /* from bootinfo's modules */
const struct initrd_file *initrd_find(const char *path);
int initrd_count(void);
const struct initrd_file *initrd_file(int i);   /* 0 <= i < initrd_count() */

/* The seed kernel's open of path (absolute, or taken from the root): the
 * initrd file, or a /proc snapshot (kernel/kinfo.h), read-only; NULL
 * with *err: -ENOENT, -EROFS for a write or a create. */
struct file;
struct file *initrd_open(const char *path, int flags, long *err);

#endif
