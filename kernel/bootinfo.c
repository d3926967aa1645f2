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

	if (mbi->flags & MBI_LOADER)
		copy_string(bootinfo.loader, sizeof(bootinfo.loader), mbi->boot_loader_name);
	if (mbi->flags & MBI_CMDLINE)
		copy_string(bootinfo.raw_cmdline, sizeof(bootinfo.raw_cmdline), mbi->cmdline);
	cmdline_parse(&bootinfo.cmdline, bootinfo.raw_cmdline);

	/* The memory size: the loader's mem_lower/mem_upper, or where it gave
	 * only a memory map (v86), the same worked out from the map
	 * (kernel/bootmem.c). */
	if (mbi->flags & MBI_MMAP)
		bootinfo_read_mmap(&bootinfo, boot_ptr(mbi->mmap_addr, mbi->mmap_length),
				   mbi->mmap_length);
	if (!bootinfo_memory(&bootinfo, mbi->flags, mbi->mem_lower, mbi->mem_upper))
		panic("the loader gave no memory size nor memory map (multiboot flags %#x)",
		      mbi->flags);
	if (mbi->flags & MBI_MODS)
		read_modules(mbi);
}
