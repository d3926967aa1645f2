/* kernel/mm/page.h - one descriptor per physical frame (Linux's struct
 * page), for the object caches (kmem.c) and for user pages (vm.c).
 *
 * For a slab, every page names its cache, and the head page (the slab's
 * first) also keeps the free list and the count. A user page counts the
 * address spaces that map it: copy-on-write shares a page between a
 * parent and its forked child until one of them writes. */
#ifndef KERNEL_MM_PAGE_H
#define KERNEL_MM_PAGE_H

#include "lib/types.h"

struct objcache;

struct page {
	struct objcache *cache;     /* a slab page: its cache; else NULL */
	void *freelist;             /* slab head page: first free object */
	struct page *next, *prev;   /* slab head page: partial list */
	uint16_t inuse;             /* slab head page: objects handed out */
	uint16_t large_order;       /* kmalloc'ed pages: order + 1, else 0 */
	volatile int32_t refcount;  /* user page: mappings of it */
};

/* A user page: one zeroed frame with refcount 1 / one more mapping /
 * one less, freeing the frame at 0. */
void *user_page_alloc(void);
void user_page_get(void *va);
void user_page_put(void *va);
int user_page_refs(const void *va);

#endif
