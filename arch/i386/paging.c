/* arch/i386/paging.c - the kernel page directory (SDM Vol. 3A 4.3,
 * "32-bit paging", with 4 MiB pages: CR4.PSE, PDE bit 7).
 *
 * boot/entry.S ran on a boot directory that also identity-maps the first
 * BOOT_MAP_MB; this one maps only the kernel half, so from here on a null
 * or user pointer dereferenced by the kernel faults at once. */
#include "arch/i386/paging.h"
#include "arch/i386/mmu.h"
#include "arch/i386/x86.h"

uint32_t kernel_pgdir[NR_PTE_ENTRIES] __attribute__((aligned(PAGE_SIZE)));

void paging_init(uint32_t ram_top)
{
	uint32_t npde = (ram_top + PGDIR_SIZE - 1) / PGDIR_SIZE;

	for (uint32_t i = 0; i < npde && KERNEL_PDE + i < NR_PTE_ENTRIES; i++)
		kernel_pgdir[KERNEL_PDE + i] =
			(i << PGDIR_SHIFT) | PTE_P | PTE_W | PTE_PS | PTE_G;
	write_cr3(V2P(kernel_pgdir));
}
