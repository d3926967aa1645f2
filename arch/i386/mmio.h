/* arch/i386/mmio.h - device registers mapped into the kernel half. */
#ifndef ARCH_I386_MMIO_H
#define ARCH_I386_MMIO_H

#include "lib/types.h"

/* Maps the 4 MiB of physical address space at phys (4 MiB aligned, at or
 * above KERNBASE + LOWMEM_MAX) at the same virtual address, uncached, in
 * kernel_pgdir. Call before the first user page directory is created:
 * pgdir_create copies the kernel half once, at creation. */
void paging_map_mmio(uint32_t phys_4mib_aligned);

#endif
