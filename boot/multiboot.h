/* boot/multiboot.h - Multiboot v1 (the GNU Multiboot Specification 0.6.96,
 * section 3.3 "Boot information format"). */
#ifndef BOOT_MULTIBOOT_H
#define BOOT_MULTIBOOT_H

#define MULTIBOOT_HEADER_MAGIC     0x1BADB002
#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002   /* in %eax at entry */
#define MULTIBOOT_PAGE_ALIGN       0x00000001   /* modules page aligned */
#define MULTIBOOT_MEMORY_INFO      0x00000002   /* we want mem_* and mmap */
#define MULTIBOOT_HEADER_FLAGS     (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO)

/* mbi->flags bits */
#define MBI_MEMORY   (1u << 0)
#define MBI_CMDLINE  (1u << 2)
#define MBI_MODS     (1u << 3)
#define MBI_MMAP     (1u << 6)
#define MBI_LOADER   (1u << 9)

#ifndef __ASSEMBLER__
#include "lib/types.h"

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;   /* KiB below 1 MiB / above 1 MiB */
	uint32_t boot_device;
	uint32_t cmdline;                /* physical address of a C string */
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
} __attribute__((packed));

struct multiboot_module {
	uint32_t mod_start, mod_end;     /* physical, end exclusive */
	uint32_t string;                 /* physical address of a C string */
	uint32_t reserved;
} __attribute__((packed));

/* A memory map entry: `size` does not count itself, so the next entry is
 * at (char *)e + e->size + 4. */
struct multiboot_mmap_entry {
	uint32_t size;
	uint64_t addr, len;
	uint32_t type;                   /* 1 = available RAM */
} __attribute__((packed));
#define MULTIBOOT_MEMORY_AVAILABLE 1
#endif

#endif
