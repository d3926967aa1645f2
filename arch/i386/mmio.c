/* arch/i386/mmio.c - mapping device registers (the local APIC at
 * 0xFEE00000, the IOAPIC at 0xFEC00000) into the kernel half.
 *
 * Both sit in the 4 MiB that PDE 1019 covers (0xFEC00000 >> 22 = 1019,
 * 0xFEC00000-0xFEFFFFFF): physical addresses far above any RAM this kernel
 * maps at KERNBASE (at most LOWMEM_MAX, PDEs 768..991), so they can be
 * mapped at their own address, virtual == physical, with one 4 MiB page.
 * It must not be cached (SDM Vol. 3A 10.4.1: the APIC registers are to be
 * mapped strong uncacheable; 11.5.2.2: PCD=1 PWT=1 selects UC through PAT
 * entry 3 under the default PAT). Global, like the rest of the kernel
 * half (ignored until CR4.PGE is turned on). */
#include "arch/i386/mmio.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "arch/i386/x86.h"
#include "kernel/panic.h"

#define PDE_MMIO (PTE_P | PTE_W | PTE_PS | PTE_PCD | PTE_PWT | PTE_G)

void paging_map_mmio(uint32_t phys)
{
	uint32_t pde = phys >> PGDIR_SHIFT;
	uint32_t want = phys | PDE_MMIO;

	ASSERT((phys & (PGDIR_SIZE - 1)) == 0);
	/* Below here lies the direct map of RAM, which this must not
	 * replace (and below KERNBASE, user space). */
	ASSERT(phys >= KERNBASE + LOWMEM_MAX);
	/* Mapped already? (The CPU sets Accessed and Dirty as it uses it.) */
	if ((kernel_pgdir[pde] & ~(uint32_t)(PTE_A | PTE_D)) == want)
		return;
	ASSERT(kernel_pgdir[pde] == 0);
	kernel_pgdir[pde] = want;
	/* A not-present entry is never cached in the TLB (SDM 4.10.2.3),
	 * so there is nothing to flush; invlpg anyway, for the reader who
	 * remaps. */
	invlpg(phys);
}
