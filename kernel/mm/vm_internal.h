/* kernel/mm/vm_internal.h - what vm.c (pages: faults, fork, teardown) and
 * vma.c (areas: mmap, munmap, mprotect, brk) share. Not for the rest of
 * the kernel: vm.h is the interface.
 *
 * Every function here expects mm->lock held. */
#ifndef KERNEL_MM_VM_INTERNAL_H
#define KERNEL_MM_VM_INTERNAL_H

#include "kernel/mm/vm.h"
#include "kernel/mm/kmem.h"

#define PAGE_MASK_LOW ((uint32_t)PAGE_SIZE - 1)

/* a rounded up to a page boundary (0 past the top: a wrap). */
static inline uint32_t page_up(uint32_t a)
{
	return (a + PAGE_MASK_LOW) & ~PAGE_MASK_LOW;
}

/* Any access at all: an area without these bits is PROT_NONE. */
#define PROT_ACCESS (PROT_READ | PROT_WRITE | PROT_EXEC)

extern struct objcache vma_cache;

/* Do the areas cover [start, end) without a hole? mm->lock held. */
bool range_covered(struct mm *mm, uint32_t start, uint32_t end);

/* The area containing addr, or NULL. */
struct vma *vma_find(struct mm *mm, uint32_t addr);


/* Unmaps every page of [start, end), and flushes the TLB before any of
 * those frames is freed. free_tables: munmap's, which also frees the
 * page tables the range left empty; madvise(MADV_DONTNEED) keeps them,
 * as Linux's zap_page_range does - the range stays mapped and is
 * touched again (glibc gives back each exiting thread's stack so), and
 * looking through a table for a used entry cost ~5,000 instructions. */
void vm_unmap_pages(struct mm *mm, uint32_t start, uint32_t end, bool free_tables);

/* Rewrites the PTEs of [start, end) (inside v) for v's current prot. */
void vm_protect_pages(struct mm *mm, const struct vma *v, uint32_t start, uint32_t end);

#endif
