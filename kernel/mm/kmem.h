/* kernel/mm/kmem.h - fixed-size object caches and kmalloc.
 *
 * An object cache hands out objects of one size from slabs: blocks of
 * 2^order pages, naturally aligned, carved into equal objects. Free objects
 * are chained through their first word. A slab whose last object is freed
 * goes straight back to the frame pool, so after a workload ends the free
 * frame count is exactly what it was (the thread storm tests rely on it).
 * Per-page descriptors (struct page) find an object's slab and cache from
 * its address, as Linux's struct page does.
 *
 * Task structs and kernel stacks come from caches (a kernel stack is an
 * order-1 slab holding one 8 KiB object, so it is 8 KiB aligned).
 * kmalloc(n) uses power-of-two caches of 16..2048 bytes and whole pages
 * above that. */
#ifndef KERNEL_MM_KMEM_H
#define KERNEL_MM_KMEM_H

#include "lib/types.h"
#include "arch/i386/spinlock.h"

struct page;

/* Linux's byte for freed objects: objcache_free fills an object with it
 * (but the first word, the free-list link), so a pointer read from freed
 * memory is 0x6b6b6b6b. */
#define POISON_FREE 0x6b
#define POISON_WORD (POISON_FREE * 0x01010101u)   /* four POISON_FREE bytes */

struct objcache {
	const char *name;
	uint32_t objsize;           /* bytes, a multiple of the alignment */
	unsigned order;             /* a slab is 2^order pages */
	uint32_t per_slab;          /* objects in one slab */
	struct page *partial;       /* slabs with at least one free object */
	struct spinlock lock;
	/* statistics: what tests and the monitor read */
	uint32_t nr_inuse;          /* objects handed out now */
	uint32_t nr_slabs;          /* slabs held now */
	uint64_t nr_allocs;         /* objects handed out ever */
	struct objcache *next;      /* all caches (kmem_caches) */
};

void kmem_init(void);           /* after pmm_init */

void objcache_init(struct objcache *c, const char *name, size_t size, size_t align);
void *objcache_alloc(struct objcache *c);       /* NULL when out of memory */
void objcache_free(struct objcache *c, void *obj);  /* panics on a bad free */

void *kmalloc(size_t size);     /* NULL for 0 bytes or out of memory */
void *kzalloc(size_t size);     /* kmalloc + zero */
void kfree(void *p);            /* NULL is fine */
uint32_t kmalloc_large_pages(void);     /* frames of kmallocs above 2 KiB */

struct objcache *kmem_caches(void);     /* the list, for statistics */

#endif
