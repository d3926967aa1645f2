/* tests/unit/test_bootmem.c - kernel/bootmem.c on the host: the memory
 * size in both forms the Multiboot spec (0.6.96, section 3.3) allows.
 *
 *   with the pair   flags bit 0 (and usually bit 6): mem_lower/mem_upper
 *                   as the loader gives them. QEMU's -kernel and GRUB.
 *   map only        bit 6 without bit 0: the pair worked out from the
 *                   memory map. v86's loader (its flags are 0x4c).
 *
 * plus the memory map reader on entries of other sizes, malformed ones
 * and too many. Each map is copied into a heap block of exactly its
 * length, so ASan reports any read past the end. */
#include "tests/unit/unit.h"
#include "kernel/bootinfo.h"
#include "boot/multiboot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MiB 0x100000ull

static struct bootinfo bi;
static uint8_t map[64 * 28];
static uint32_t map_len;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Appends one entry whose `size` field says `size` (20 in this version
 * of the spec; the bytes past 20 are zero). */
static void add_sized(uint32_t size, uint64_t addr, uint64_t len, uint32_t type)
{
	uint8_t *e = map + map_len;

	memset(e, 0, size + 4);
	put32(e, size);
	put64(e + 4, addr);
	put64(e + 12, len);
	put32(e + 20, type);
	map_len += size + 4;
}

static void add(uint64_t addr, uint64_t len, uint32_t type)
{
	add_sized(20, addr, len, type);
}

static void reset(void)
{
	memset(&bi, 0xa5, sizeof(bi));
	bi.nregions = 0;
	map_len = 0;
}

/* Reads the map from a heap block of exactly map_len bytes. */
static void read_map(void)
{
	uint8_t *copy = malloc(map_len ? map_len : 1);

	memcpy(copy, map, map_len);
	bootinfo_read_mmap(&bi, copy, map_len);
	free(copy);
}

/* The shape of the map a -m 128 QEMU machine gets from SeaBIOS: the
 * EBDA's KiB below 640 KiB, the BIOS ROM, and the last 128 KiB of RAM
 * kept for the ACPI tables, all reserved. */
static void qemu_128m_map(void)
{
	add(0, 0x9fc00, 1);
	add(0x9fc00, 0x400, 2);
	add(0xf0000, 0x10000, 2);
	add(MiB, 0x7ee0000, 1);
	add(0x7fe0000, 0x20000, 2);
	add(0xfffc0000, 0x40000, 2);
}

TEST(pair_given_is_taken_as_is)
{
	reset();
	qemu_128m_map();
	read_map();
	CHECK_EQ_I(bi.nregions, 6);
	/* QEMU's -kernel: flags 0x24f (memory, boot device, cmdline, mods,
	 * map, loader name). */
	CHECK(bootinfo_memory(&bi, 0x24f, 640, 130048));
	CHECK_EQ_U(bi.mem_lower_kb, 640);
	CHECK_EQ_U(bi.mem_upper_kb, 130048);
	CHECK_EQ_I(bi.nregions, 6);
	CHECK_EQ_U(bi.regions[3].addr, MiB);
	CHECK_EQ_U(bi.regions[3].len, 0x7ee0000);
	CHECK_EQ_U(bi.regions[5].addr, 0xfffc0000);
	CHECK_EQ_U(bi.regions[5].type, 2);
}

TEST(map_only_form_from_that_map)
{
	reset();
	qemu_128m_map();
	read_map();
	/* The pair is ignored without bit 0: garbage in it changes nothing. */
	CHECK(bootinfo_memory(&bi, MBI_MMAP | MBI_CMDLINE | MBI_MODS, 0xdead, 0xbeef));
	CHECK_EQ_U(bi.mem_lower_kb, 0x9fc00 / 1024);            /* 639 */
	CHECK_EQ_U(bi.mem_upper_kb, (0x7fe0000 - MiB) / 1024);  /* to the hole */
	CHECK_EQ_I(bi.nregions, 6);
}

TEST(v86_map_only_form)
{
	/* v86 0.5's loader, -m 128 equivalent: flags 0x4c, and one region
	 * per run of plain RAM, the VGA window cut out, the ROMs counted as
	 * RAM. */
	reset();
	add(0, 0xa0000, 1);
	add(0xc0000, 0x8000000 - 0xc0000, 1);
	read_map();
	CHECK_EQ_I(bi.nregions, 2);
	CHECK(bootinfo_memory(&bi, 0x4c, 0, 0));
	CHECK_EQ_U(bi.mem_lower_kb, 640);               /* capped at 640 KiB */
	CHECK_EQ_U(bi.mem_upper_kb, (0x8000000 - MiB) / 1024);
}

TEST(upper_stops_at_the_first_hole)
{
	reset();
	add(0, 0x9f000, 1);
	add(32 * MiB, 32 * MiB, 1);             /* touches the next: joined */
	add(MiB, 31 * MiB, 1);
	add(60 * MiB, 8 * MiB, 1);              /* overlaps the previous end */
	add(68 * MiB, MiB, 2);                  /* reserved: the hole */
	add(69 * MiB, 100 * MiB, 1);            /* beyond the hole: not counted */
	read_map();
	CHECK(bootinfo_memory(&bi, MBI_MMAP, 0, 0));
	CHECK_EQ_U(bi.mem_lower_kb, 0x9f000 / 1024);
	CHECK_EQ_U(bi.mem_upper_kb, 67 * 1024);
}

TEST(no_ram_at_0_or_1m_gives_zero)
{
	reset();
	add(16 * MiB, 16 * MiB, 1);
	read_map();
	CHECK(bootinfo_memory(&bi, MBI_MMAP, 0, 0));
	CHECK_EQ_U(bi.mem_lower_kb, 0);
	CHECK_EQ_U(bi.mem_upper_kb, 0);
}

TEST(pair_without_map_makes_one_region)
{
	reset();
	CHECK(bootinfo_memory(&bi, MBI_MEMORY | MBI_CMDLINE, 639, 64 * 1024));
	CHECK_EQ_U(bi.mem_lower_kb, 639);
	CHECK_EQ_U(bi.mem_upper_kb, 64 * 1024);
	CHECK_EQ_I(bi.nregions, 1);
	CHECK_EQ_U(bi.regions[0].addr, MiB);
	CHECK_EQ_U(bi.regions[0].len, 64 * MiB);
	CHECK_EQ_U(bi.regions[0].type, MULTIBOOT_MEMORY_AVAILABLE);
}

TEST(neither_form_is_refused)
{
	reset();
	CHECK(!bootinfo_memory(&bi, MBI_CMDLINE | MBI_MODS, 639, 130944));
	/* A map flag with an empty map says nothing either. */
	read_map();
	CHECK_EQ_I(bi.nregions, 0);
	CHECK(!bootinfo_memory(&bi, MBI_MMAP, 639, 130944));
}

TEST(larger_entries_are_stepped_over)
{
	reset();
	add_sized(24, 0, 0x9fc00, 1);           /* a later spec's extra field */
	add(MiB, 63 * MiB, 1);
	read_map();
	CHECK_EQ_I(bi.nregions, 2);
	CHECK_EQ_U(bi.regions[1].addr, MiB);
	CHECK(bootinfo_memory(&bi, MBI_MMAP, 0, 0));
	CHECK_EQ_U(bi.mem_upper_kb, 63 * 1024);
}

TEST(malformed_entries_end_the_map)
{
	reset();
	add(0, 0x9fc00, 1);
	add_sized(8, MiB, 63 * MiB, 1);         /* too short to hold a region */
	add(MiB, 63 * MiB, 1);
	read_map();
	CHECK_EQ_I(bi.nregions, 1);

	reset();
	add(0, 0x9fc00, 1);
	add(MiB, 63 * MiB, 1);
	put32(map + 24, 400);                   /* claims to run past the map */
	read_map();
	CHECK_EQ_I(bi.nregions, 1);

	reset();
	add(0, 0x9fc00, 1);
	add(MiB, 63 * MiB, 1);
	map_len -= 1;                           /* a cut-off last entry */
	read_map();
	CHECK_EQ_I(bi.nregions, 1);
}

TEST(at_most_boot_mmap_max_regions)
{
	reset();
	for (int i = 0; i < BOOT_MMAP_MAX + 5; i++)
		add((uint64_t)i * MiB, MiB, 1);
	read_map();
	CHECK_EQ_I(bi.nregions, BOOT_MMAP_MAX);
	CHECK(bootinfo_memory(&bi, MBI_MMAP, 0, 0));
	CHECK_EQ_U(bi.mem_upper_kb, (BOOT_MMAP_MAX - 1) * 1024);
}
