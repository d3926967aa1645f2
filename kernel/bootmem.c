/* kernel/bootmem.c - how much memory the loader says there is: the
 * Multiboot v1 memory map and the mem_lower/mem_upper pair (the GNU
 * Multiboot Specification 0.6.96, section 3.3 "Boot information format").
 *
 * Every field of the information structure is optional, each behind its
 * flags bit. QEMU's -kernel and GRUB give both the pair (bit 0) and the
 * map (bit 6); v86's Multiboot loader gives only the map (its flags are
 * 0x4c: command line, module, map), so the pair is worked out from the
 * map the way section 3.3 defines it. No memory access here beyond the
 * arguments: the host unit test tests/unit/test_bootmem.c runs this file. */
#include "kernel/bootinfo.h"
#include "boot/multiboot.h"

#define KIB 1024u
#define LOWER_MAX_KB 640u               /* section 3.3: "maximally 640 KiB" */
#define UPPER_START 0x100000ull         /* mem_upper counts from 1 MiB */

void bootinfo_read_mmap(struct bootinfo *bi, const void *map, uint32_t length)
{
	const uint8_t *p = map;
	uint32_t off = 0;

	bi->nregions = 0;
	while (length - off >= sizeof(struct multiboot_mmap_entry) &&
	       bi->nregions < BOOT_MMAP_MAX) {
		const struct multiboot_mmap_entry *e = (const void *)(p + off);

		/* `size` does not count itself; it may exceed the 20 bytes
		 * this version defines (section 3.3), never fall short of it
		 * or run past the map. */
		if (e->size < sizeof(*e) - 4 || e->size > length - off - 4)
			break;
		bi->regions[bi->nregions++] = (struct boot_region){
			e->addr, e->len, e->type };
		off += e->size + 4;
	}
}

/* The end of the available RAM that runs without a gap from `from`,
 * through as many touching or overlapping regions as there are. */
static uint64_t ram_run_end(const struct bootinfo *bi, uint64_t from)
{
	uint64_t end = from;
	bool grew = true;

	while (grew) {
		grew = false;
		for (int i = 0; i < bi->nregions; i++) {
			const struct boot_region *r = &bi->regions[i];
			if (r->type == MULTIBOOT_MEMORY_AVAILABLE && r->addr <= end &&
			    r->addr + r->len > end) {
				end = r->addr + r->len;
				grew = true;
			}
		}
	}
	return end;
}

bool bootinfo_memory(struct bootinfo *bi, uint32_t flags,
		     uint32_t mem_lower, uint32_t mem_upper)
{
	if (flags & MBI_MEMORY) {
		bi->mem_lower_kb = mem_lower;
		bi->mem_upper_kb = mem_upper;
		if (!(flags & MBI_MMAP)) {
			/* No map: mem_upper KiB of RAM from 1 MiB. */
			bi->regions[0] = (struct boot_region){ UPPER_START,
				(uint64_t)mem_upper * KIB, MULTIBOOT_MEMORY_AVAILABLE };
			bi->nregions = 1;
		}
		return true;
	}
	if (!(flags & MBI_MMAP) || bi->nregions == 0)
		return false;
	/* Section 3.3: "mem_lower ... starting at address 0 ... maximally 640
	 * kilobytes"; mem_upper starts at 1 MiB and is "maximally the address
	 * of the first upper memory hole minus 1 megabyte". */
	uint64_t lower = ram_run_end(bi, 0) / KIB;
	uint64_t upper = (ram_run_end(bi, UPPER_START) - UPPER_START) / KIB;

	bi->mem_lower_kb = lower > LOWER_MAX_KB ? LOWER_MAX_KB : (uint32_t)lower;
	bi->mem_upper_kb = upper > UINT32_MAX ? UINT32_MAX : (uint32_t)upper;
	return true;
}
