/* kernel/initrd.h - the files the loader brought (abi.md section 1).
 *
 * Every multiboot module is either a cpio newc archive, whose regular
 * files become files at their archive paths, or any other file, which
 * becomes the file named by the first word of the module's string. The
 * files stay where the loader put them (pmm_init reserves the modules);
 * the table holds only their names, addresses and sizes. Read-only. */
#ifndef KERNEL_INITRD_H
#define KERNEL_INITRD_H

#include "lib/types.h"
#include "lib/cpio.h"

#define INITRD_MAX_FILES 256

struct initrd_file {
	char path[CPIO_PATH_MAX];
	const void *data;
	uint32_t size;
};

void initrd_init(void);                         /* from bootinfo's modules */
const struct initrd_file *initrd_find(const char *path);
int initrd_count(void);
const struct initrd_file *initrd_file(int i);   /* 0 <= i < initrd_count() */

#endif
