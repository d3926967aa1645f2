/* kernel/bootinfo.c - reading the Multiboot v1 information structure
 * (Multiboot spec 3.3). Everything it points to is physical and, at this
 * point, inside the boot page directory's BOOT_MAP_MB; it is copied into
 * `bootinfo` so nothing later depends on the loader's memory. */
#include "kernel/bootinfo.h"
#include "kernel/panic.h"
#include "boot/multiboot.h"
#include "arch/i386/mmu.h"
#include "lib/string.h"

struct bootinfo bootinfo;

/* A physical pointer from the loader, checked against the boot mapping. */
static const void *boot_ptr(uint32_t pa, uint32_t len)
{
	if ((uint64_t)pa + len > (uint64_t)BOOT_MAP_MB << 20)
		panic("multiboot data at %#x beyond the boot mapping (%d MiB)",
		      pa, BOOT_MAP_MB);
	return P2V(pa);
}

static void copy_string(char *dst, size_t size, uint32_t pa)
{
	const char *s = boot_ptr(pa, 1);
	size_t i;

	for (i = 0; i + 1 < size && s[i]; i++) {
		boot_ptr(pa + (uint32_t)i, 1);
		dst[i] = s[i];
	}
	dst[i] = '\0';
}

static void read_mmap(const struct multiboot_info *mbi)
{
	uint32_t off = 0;

	while (off + sizeof(struct multiboot_mmap_entry) <= mbi->mmap_length &&
	       bootinfo.nregions < BOOT_MMAP_MAX) {
		const struct multiboot_mmap_entry *e =
			boot_ptr(mbi->mmap_addr + off, sizeof(*e));
		struct boot_region *r = &bootinfo.regions[bootinfo.nregions++];

		r->addr = e->addr;
		r->len = e->len;
		r->type = e->type;
		off += e->size + 4;     /* `size` does not count itself */
	}
}

static void read_modules(const struct multiboot_info *mbi)
{
	const struct multiboot_module *m =
		boot_ptr(mbi->mods_addr, mbi->mods_count * sizeof(*m));

	for (uint32_t i = 0; i < mbi->mods_count && i < BOOT_MODS_MAX; i++) {
		struct boot_module *b = &bootinfo.mods[bootinfo.nmods++];
		b->start = m[i].mod_start;
		b->end = m[i].mod_end;
		if (m[i].string)
			copy_string(b->string, sizeof(b->string), m[i].string);
	}
}

void bootinfo_init(uint32_t magic, uint32_t mbi_phys)
{
	const struct multiboot_info *mbi;

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a multiboot loader (eax=%#x)", magic);
	mbi = boot_ptr(mbi_phys, sizeof(*mbi));
	if (!(mbi->flags & MBI_MEMORY))
		panic("the loader gave no memory size (multiboot flags %#x)", mbi->flags);
	bootinfo.mem_lower_kb = mbi->mem_lower;
	bootinfo.mem_upper_kb = mbi->mem_upper;

	if (mbi->flags & MBI_LOADER)
		copy_string(bootinfo.loader, sizeof(bootinfo.loader), mbi->boot_loader_name);
	if (mbi->flags & MBI_CMDLINE)
		copy_string(bootinfo.raw_cmdline, sizeof(bootinfo.raw_cmdline), mbi->cmdline);
	cmdline_parse(&bootinfo.cmdline, bootinfo.raw_cmdline);

	if (mbi->flags & MBI_MMAP) {
		read_mmap(mbi);
	} else {
		/* No map: mem_upper KiB of RAM from 1 MiB (Multiboot 3.3). */
		bootinfo.regions[0] = (struct boot_region){
			0x100000, (uint64_t)mbi->mem_upper * 1024, MULTIBOOT_MEMORY_AVAILABLE };
		bootinfo.nregions = 1;
	}
	if (mbi->flags & MBI_MODS)
		read_modules(mbi);
}
