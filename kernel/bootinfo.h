/* kernel/bootinfo.h - what the loader told us, copied out of the
 * multiboot_info before any memory is reused. */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "lib/types.h"
#include "lib/cmdline.h"

#define BOOT_MMAP_MAX 32
#define BOOT_MODS_MAX 16
#define BOOT_MODSTR_MAX 128

struct boot_region {
	uint64_t addr, len;
	uint32_t type;                  /* 1 = available RAM */
};

struct boot_module {
	uint32_t start, end;            /* physical, end exclusive */
	char string[BOOT_MODSTR_MAX];   /* e.g. "prog.elf /bin/t" */
};

struct bootinfo {
	char loader[48];                /* the boot loader's name, if given */
	char raw_cmdline[CMDLINE_MAX];
	struct cmdline cmdline;
	uint32_t mem_lower_kb, mem_upper_kb;
	int nregions;
	struct boot_region regions[BOOT_MMAP_MAX];
	int nmods;
	struct boot_module mods[BOOT_MODS_MAX];
};

extern struct bootinfo bootinfo;

/* Copies and checks the multiboot information; panics (legibly) if the
 * loader was not multiboot or gave no memory information. */
void bootinfo_init(uint32_t magic, uint32_t mbi_phys);

#endif
