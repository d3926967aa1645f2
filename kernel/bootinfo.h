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

/* kernel/bootmem.c, pure (the host unit test runs it): bi->regions from a
 * Multiboot memory map of `length` bytes (at most BOOT_MMAP_MAX entries;
 * a malformed entry ends it). */
void bootinfo_read_mmap(struct bootinfo *bi, const void *map, uint32_t length);
/* bi->mem_lower_kb/mem_upper_kb: the loader's own (flags bit 0), or else
 * worked out from bi->regions as read from the map (bit 6). With the pair
 * but no map, one region of mem_upper KiB from 1 MiB. false if the loader
 * gave neither. */
bool bootinfo_memory(struct bootinfo *bi, uint32_t flags,
		     uint32_t mem_lower, uint32_t mem_upper);

#endif
