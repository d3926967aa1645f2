/* kernel/mm/pmm.h - the kernel's physical memory: one frame pool over all
 * RAM below LOWMEM_MAX, built from the memory map, behind a lock. */
#ifndef KERNEL_MM_PMM_H
#define KERNEL_MM_PMM_H

#include "lib/types.h"
#include "kernel/mm/frames.h"

void pmm_init(void);                    /* from bootinfo */

/* 2^order naturally aligned frames; returns the kernel virtual address of
 * the first (they are all mapped at KERNBASE), or NULL. */
void *page_alloc(unsigned order);
void page_free(void *va, unsigned order);   /* panics on a bad free */

uint32_t pmm_free_frames(void);         /* the observable free count */
uint32_t pmm_total_frames(void);        /* frames that were free at boot */
uint32_t pmm_nframes(void);             /* frames the pool describes */
uint32_t pmm_ram_top(void);             /* end of mapped RAM, physical */

/* Boot-time only: bytes rounded up to whole frames, contiguous, zeroed,
 * never freed (the kmem page descriptors). Panics if there is no room. */
void *pmm_alloc_boot(size_t bytes);

#endif
