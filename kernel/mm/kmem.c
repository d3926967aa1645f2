/* kernel/mm/kmem.c - object caches and kmalloc (kmem.h). */
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/page.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "arch/i386/mmu.h"
#include "lib/string.h"

#define KMALLOC_MIN_SHIFT 4
#define KMALLOC_MAX_SHIFT 11
#define NR_KMALLOC (KMALLOC_MAX_SHIFT - KMALLOC_MIN_SHIFT + 1)

static struct page *pages;              /* pmm_nframes() entries */
static struct objcache *all_caches;
static struct spinlock caches_lock = SPINLOCK_INIT("cache list");
static struct objcache kmalloc_caches[NR_KMALLOC];
static const char *const kmalloc_names[NR_KMALLOC] = {
	"kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-128",
	"kmalloc-256", "kmalloc-512", "kmalloc-1024", "kmalloc-2048",
};

/* The descriptor of the frame holding kernel address va (panics if va is
 * not in the kernel's mapping of RAM); page_address goes back. */
static struct page *virt_to_page(const void *va)
{
	uint32_t pfn = V2P(va) >> PAGE_SHIFT;

	if ((uintptr_t)va < KERNBASE || pfn >= pmm_nframes())
		panic("kmem: %p is not in the kernel's RAM", va);
	return &pages[pfn];
}

static void *page_address(const struct page *pg)
{
	return P2V((uint32_t)(pg - pages) << PAGE_SHIFT);
}

#define page_of virt_to_page
#define page_va page_address

void *user_page_alloc(void)
{
	void *va = page_alloc(0);

	if (va) {
		memset(va, 0, PAGE_SIZE);
		virt_to_page(va)->refcount = 1;
	}
	return va;
}

void user_page_get(void *va)
{
	__atomic_add_fetch(&virt_to_page(va)->refcount, 1, __ATOMIC_SEQ_CST);
}

void user_page_put(void *va)
{
	int32_t r = __atomic_sub_fetch(&virt_to_page(va)->refcount, 1, __ATOMIC_SEQ_CST);

	if (r < 0)
		panic("user_page_put(%p): reference count below zero", va);
	if (r == 0)
		page_free(va, 0);
}

int user_page_refs(const void *va)
{
	return virt_to_page(va)->refcount;
}

/* The smallest slab order that wastes at most 1/8 of the slab (or that
 * fits one object at all): few pages per slab, little waste. */
static unsigned pick_order(uint32_t objsize)
{
	for (unsigned order = 0; order <= 3; order++) {
		uint32_t slab = (uint32_t)PAGE_SIZE << order;
		uint32_t n = slab / objsize;
		if (n >= 1 && (slab - n * objsize) * 8 <= slab)
			return order;
	}
	for (unsigned order = 0;; order++)
		if (((uint32_t)PAGE_SIZE << order) >= objsize)
			return order;
}

void objcache_init(struct objcache *c, const char *name, size_t size, size_t align)
{
	if (align < sizeof(void *))
		align = sizeof(void *);
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->objsize = (uint32_t)((size + align - 1) & ~(align - 1));
	c->order = pick_order(c->objsize);
	c->per_slab = ((uint32_t)PAGE_SIZE << c->order) / c->objsize;
	c->lock = (struct spinlock)SPINLOCK_INIT(name);

	uint32_t flags = spin_lock_irqsave(&caches_lock);
	c->next = all_caches;
	all_caches = c;
	spin_unlock_irqrestore(&caches_lock, flags);
}

static void partial_add(struct objcache *c, struct page *head)
{
	head->prev = NULL;
	head->next = c->partial;
	if (c->partial)
		c->partial->prev = head;
	c->partial = head;
}

static void partial_remove(struct objcache *c, struct page *head)
{
	if (head->prev)
		head->prev->next = head->next;
	else
		c->partial = head->next;
	if (head->next)
		head->next->prev = head->prev;
	head->next = head->prev = NULL;
}

/* A fresh slab: all its objects chained, in address order. */
static struct page *slab_new(struct objcache *c)
{
	uint8_t *base = page_alloc(c->order);
	struct page *head;

	if (!base)
		return NULL;
	head = page_of(base);
	for (uint32_t i = 0; i < (1u << c->order); i++)
		head[i].cache = c;
	head->inuse = 0;
	head->freelist = NULL;
	for (uint32_t i = c->per_slab; i-- > 0;) {
		void **obj = (void **)(base + i * c->objsize);
		*obj = head->freelist;
		head->freelist = obj;
	}
	c->nr_slabs++;
	return head;
}

static void slab_release(struct objcache *c, struct page *head)
{
	for (uint32_t i = 0; i < (1u << c->order); i++)
		head[i].cache = NULL;
	c->nr_slabs--;
	page_free(page_va(head), c->order);
}

void *objcache_alloc(struct objcache *c)
{
	uint32_t flags = spin_lock_irqsave(&c->lock);
	struct page *head = c->partial;
	void **obj;

	if (!head) {
		head = slab_new(c);
		if (!head) {
			spin_unlock_irqrestore(&c->lock, flags);
			return NULL;
		}
		partial_add(c, head);
	}
	obj = head->freelist;
	head->freelist = *obj;
	head->inuse++;
	if (!head->freelist)
		partial_remove(c, head);        /* now full */
	c->nr_inuse++;
	c->nr_allocs++;
	spin_unlock_irqrestore(&c->lock, flags);
	return obj;
}

/* Are c's objects poisoned when freed? Not those of a page or more:
 * filling them at every free would cost more than the rest of the work
 * (kernel stacks are not in a cache at all: they are unmapped when
 * freed, arch/i386/kstack.h); nor any too small to hold a second word. */
static bool poisoned(const struct objcache *c)
{
	return c->objsize < PAGE_SIZE && c->objsize >= 2 * sizeof(uint32_t);
}

void objcache_free(struct objcache *c, void *obj)
{
	struct page *pg = page_of(obj);
	struct page *head = pg - ((pg - pages) & ((1u << c->order) - 1));
	uint32_t off = (uint32_t)((uint8_t *)obj - (uint8_t *)page_va(head));
	uint32_t flags;

	if (pg->cache != c || off % c->objsize != 0 || off / c->objsize >= c->per_slab)
		panic("objcache_free(%s, %p): not an object of this cache",
		      c->name, obj);
	flags = spin_lock_irqsave(&c->lock);
	/* A double free would chain the object twice and hand it out twice
	 * later. Proving one means walking the slab's freelist (up to 256
	 * objects: 4,000 instructions a fork spent here), so the walk is
	 * made only for an object that may be on it: a poisoned cache's
	 * free objects hold the poison in their second word (the first is
	 * the link), so one that does not is in use. (A use after free that
	 * wrote that word between the two frees would slip past.) */
	if (!poisoned(c) || ((uint32_t *)obj)[1] == POISON_WORD)
		for (void **f = head->freelist; f; f = *f)
			if (f == obj)
				panic("objcache_free(%s, %p): double free", c->name, obj);
	/* Poison it, so a use after free shows as 0x6b6b6b6b in GDB. */
	if (poisoned(c))
		memset(obj, POISON_FREE, c->objsize);
	if (!head->freelist)
		partial_add(c, head);           /* was full */
	*(void **)obj = head->freelist;
	head->freelist = obj;
	head->inuse--;
	c->nr_inuse--;
	if (head->inuse == 0) {
		partial_remove(c, head);
		slab_release(c, head);
	}
	spin_unlock_irqrestore(&c->lock, flags);
}

void kmem_init(void)
{
	pages = pmm_alloc_boot(pmm_nframes() * sizeof(struct page));
	for (int i = 0; i < NR_KMALLOC; i++)
		objcache_init(&kmalloc_caches[i], kmalloc_names[i],
			      1u << (KMALLOC_MIN_SHIFT + i), 8);
}

/* Frames held by kmallocs too large for a cache (/proc/kstat). */
static uint32_t large_pages;

uint32_t kmalloc_large_pages(void)
{
	return __atomic_load_n(&large_pages, __ATOMIC_RELAXED);
}

void *kmalloc(size_t size)
{
	unsigned order = 0;
	void *p;

	if (size == 0)
		return NULL;
	for (int i = 0; i < NR_KMALLOC; i++)
		if (size <= (1u << (KMALLOC_MIN_SHIFT + i)))
			return objcache_alloc(&kmalloc_caches[i]);
	while (((uint32_t)PAGE_SIZE << order) < size)
		if (++order > FRAMES_MAX_ORDER)
			return NULL;
	p = page_alloc(order);
	if (p) {
		page_of(p)->large_order = (uint16_t)(order + 1);
		__atomic_add_fetch(&large_pages, 1u << order, __ATOMIC_RELAXED);
	}
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	struct page *pg;

	if (!p)
		return;
	pg = page_of(p);
	if (pg->cache) {
		objcache_free(pg->cache, p);
	} else if (pg->large_order) {
		unsigned order = pg->large_order - 1u;
		if ((uintptr_t)p & (PAGE_SIZE - 1))
			panic("kfree(%p): not the start of a kmalloc block", p);
		pg->large_order = 0;
		__atomic_sub_fetch(&large_pages, 1u << order, __ATOMIC_RELAXED);
		page_free(p, order);
	} else {
		panic("kfree(%p): not allocated by kmalloc", p);
	}
}

struct objcache *kmem_caches(void)
{
	return all_caches;
}
