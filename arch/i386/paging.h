/* arch/i386/paging.h - the kernel's page directory. */
#ifndef ARCH_I386_PAGING_H
#define ARCH_I386_PAGING_H

#include "lib/types.h"
#include "arch/i386/mmu.h"

/* The kernel half of every address space: 4 MiB pages mapping physical
 * [0, ram_top) at KERNBASE. Nothing else: page 0 and all user addresses
 * are unmapped, so a stray kernel pointer below KERNBASE faults. */
extern uint32_t kernel_pgdir[NR_PTE_ENTRIES];

void paging_init(uint32_t ram_top);     /* build and load kernel_pgdir */

#endif
