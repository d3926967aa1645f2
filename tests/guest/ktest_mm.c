/* tests/guest/ktest_mm.c - group mm: page_alloc/page_free (kernel/mm/pmm.h),
 * object caches and kmalloc (kernel/mm/kmem.h), on the machine's real
 * frame pool. Every test ends by checking that pmm_free_frames() is back
 * to exactly what it was: kmem.h promises that an empty slab goes straight
 * back to the pool, so a workload that frees everything leaves no trace.
 * Two tests run the pool dry on purpose, to show that running out is a
 * NULL return, never a panic. */
#include "tests/guest/ktest.h"
#include "kernel/bootinfo.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/mmu.h"
#include "lib/string.h"

#define POISON_FREE 0x6b        /* kmem.c's byte for freed objects */

extern char _text[], _end[];

/* Is [p, p+n) filled with byte b? */
static bool filled(const void *p, size_t n, uint8_t b)
{
	const uint8_t *q = p;

	for (size_t i = 0; i < n; i++)
		if (q[i] != b)
			return false;
	return true;
}

/* Do [a, a+an) and [b, b+bn) share a byte? */
static bool overlap(const void *a, size_t an, const void *b, size_t bn)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y + bn && y < x + an;
}

/* Is physical [pa, pa+n) inside what the kernel must never hand out: the
 * first MiB, the kernel image, a loader module? */
static bool in_reserved(uint32_t pa, uint32_t n)
{
	if (pa < 0x100000)
		return true;
	if (pa < V2P(_end) && pa + n > V2P(_text))
		return true;
	for (int i = 0; i < bootinfo.nmods; i++)
		if (pa < bootinfo.mods[i].end && pa + n > bootinfo.mods[i].start)
			return true;
	return false;
}

/* A block page_alloc may return: in the kernel's mapping of RAM, aligned
 * to its size, clear of the reserved ranges. */
static bool good_block(const void *va, unsigned order)
{
	uint32_t size = (uint32_t)PAGE_SIZE << order;

	return (uintptr_t)va >= KERNBASE && V2P(va) % size == 0 &&
	       V2P(va) + size <= pmm_ram_top() && !in_reserved(V2P(va), size);
}

/* ---- the frame pool ---- */

KTEST(mm, pool_counts_are_sane)
{
	uint32_t nfree = pmm_free_frames();
	/* Where the loader's mem_upper says RAM ends (it counts KiB from
	 * 1 MiB, up to the first hole), capped as pmm_init caps it. */
	uint64_t upper = 0x100000 + (uint64_t)bootinfo.mem_upper_kb * 1024;

	if (upper > LOWMEM_MAX)
		upper = LOWMEM_MAX;
	KCHECK(nfree >= 256);                   /* pmm_init's own minimum */
	KCHECK(nfree <= pmm_total_frames());
	KCHECK(pmm_total_frames() <= pmm_nframes());
	KCHECK_EQ(pmm_ram_top(), pmm_nframes() << PAGE_SHIFT);
	/* The memory map's RAM ends within a MiB of that (firmware keeps
	 * the last pages below the top for ACPI tables). */
	KCHECK(pmm_ram_top() <= upper);
	KCHECK(pmm_ram_top() + 0x100000 >= upper);
}

KTEST(mm, page_round_trip_every_order)
{
	uint32_t before = pmm_free_frames();

	for (unsigned order = 0; order <= FRAMES_MAX_ORDER; order++) {
		uint32_t size = (uint32_t)PAGE_SIZE << order;
		uint8_t *p = page_alloc(order);

		KCHECK(p != NULL);
		KCHECK(good_block(p, order));
		KCHECK_EQ(pmm_free_frames(), before - (1u << order));
		p[0] = 0x5a;
		p[size - 1] = 0xa5;
		KCHECK_EQ(p[0], 0x5a);
		KCHECK_EQ(p[size - 1], 0xa5);
		page_free(p, order);
		KCHECK_EQ(pmm_free_frames(), before);
	}
	KCHECK(page_alloc(FRAMES_MAX_ORDER + 1) == NULL);
	KCHECK_EQ(pmm_free_frames(), before);
}

/* Kernel stacks are order-1 blocks found by masking %esp (mmu.h). */
#define NR_ORDER1 32

KTEST(mm, order1_blocks_are_8k_aligned)
{
	static uint8_t *blk[NR_ORDER1];
	uint32_t before = pmm_free_frames();

	for (int i = 0; i < NR_ORDER1; i++) {
		blk[i] = page_alloc(1);
		KCHECK(blk[i] != NULL);
		KCHECK_EQ((uintptr_t)blk[i] % KSTACK_SIZE, 0);
		KCHECK_EQ(V2P(blk[i]) % KSTACK_SIZE, 0);
		KCHECK(good_block(blk[i], 1));
		memset(blk[i], i, KSTACK_SIZE);
	}
	KCHECK_EQ(pmm_free_frames(), before - 2 * NR_ORDER1);
	/* Each still holds its own bytes: no two blocks overlap. */
	for (int i = 0; i < NR_ORDER1; i++)
		KCHECK(filled(blk[i], KSTACK_SIZE, (uint8_t)i));
	for (int i = 0; i < NR_ORDER1; i++)
		page_free(blk[i], 1);
	KCHECK_EQ(pmm_free_frames(), before);
}

/* ---- kmalloc ---- */

/* Around every class boundary (16..2048), then whole pages. */
static const uint32_t kmalloc_sizes[] = {
	1, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255,
	256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 2000, 2047, 2048,
	2049, 4095, 4096, 4097, 3 * 4096, 65536,
};
#define NR_SIZES (sizeof(kmalloc_sizes) / sizeof(kmalloc_sizes[0]))
#define PER_SIZE 5

KTEST(mm, kmalloc_every_size_class)
{
	static uint8_t *obj[NR_SIZES * PER_SIZE];
	static uint32_t len[NR_SIZES * PER_SIZE];
	uint32_t before = pmm_free_frames();
	int n = 0;

	for (unsigned s = 0; s < NR_SIZES; s++)
		for (int k = 0; k < PER_SIZE; k++, n++) {
			len[n] = kmalloc_sizes[s];
			obj[n] = kmalloc(len[n]);
			KCHECK(obj[n] != NULL);
			KCHECK_EQ((uintptr_t)obj[n] % 8, 0);
			if (len[n] > 2048)      /* whole pages */
				KCHECK_EQ((uintptr_t)obj[n] % PAGE_SIZE, 0);
			memset(obj[n], n + 1, len[n]);
		}
	KCHECK(pmm_free_frames() < before);
	for (int i = 0; i < n; i++) {
		KCHECK(filled(obj[i], len[i], (uint8_t)(i + 1)));
		for (int j = i + 1; j < n; j++)
			KCHECK(!overlap(obj[i], len[i], obj[j], len[j]));
	}
	/* Freed in an order unlike the allocation's: every third, then the
	 * rest backwards. */
	for (int i = 0; i < n; i += 3)
		kfree(obj[i]);
	for (int i = n - 1; i >= 0; i--)
		if (i % 3)
			kfree(obj[i]);
	KCHECK_EQ(pmm_free_frames(), before);
}

/* kmalloc's cache for a size: kmem.h's power-of-two classes, 16..2048. */
static struct objcache *kmalloc_cache_for(uint32_t size)
{
	static const char *const names[] = {
		"kmalloc-16", "kmalloc-32", "kmalloc-64", "kmalloc-128",
		"kmalloc-256", "kmalloc-512", "kmalloc-1024", "kmalloc-2048",
	};
	unsigned k = 0;

	while ((16u << k) < size)
		k++;
	for (struct objcache *c = kmem_caches(); c; c = c->next)
		if (strcmp(c->name, names[k]) == 0)
			return c;
	return NULL;
}

/* Each small size comes from the smallest class that holds it, and only
 * sizes above 2048 take whole pages. */
KTEST(mm, kmalloc_picks_the_smallest_class)
{
	uint32_t before = pmm_free_frames();

	for (unsigned s = 0; s < NR_SIZES; s++) {
		uint32_t size = kmalloc_sizes[s];
		struct objcache *c = size <= 2048 ? kmalloc_cache_for(size) : NULL;
		uint32_t inuse = c ? c->nr_inuse : 0;
		void *p;

		if (size <= 2048) {
			KCHECK(c != NULL);
			KCHECK(c->objsize >= size && c->objsize < 2 * size + 16);
		}
		p = kmalloc(size);
		KCHECK(p != NULL);
		if (c) {
			KCHECK_EQ(c->nr_inuse, inuse + 1);
		} else {
			/* Whole pages: the smallest block that holds it. */
			unsigned order = 0;
			while (((uint32_t)PAGE_SIZE << order) < size)
				order++;
			KCHECK_EQ(pmm_free_frames(), before - (1u << order));
		}
		kfree(p);
		if (c)
			KCHECK_EQ(c->nr_inuse, inuse);
	}
	KCHECK_EQ(pmm_free_frames(), before);
}

KTEST(mm, kmalloc_zero_and_oversized_give_null)
{
	uint32_t before = pmm_free_frames();

	KCHECK(kmalloc(0) == NULL);
	KCHECK(kzalloc(0) == NULL);
	/* The largest block is order FRAMES_MAX_ORDER (4 MiB). */
	KCHECK(kmalloc((PAGE_SIZE << FRAMES_MAX_ORDER) + 1) == NULL);
	KCHECK(kmalloc(64u << 20) == NULL);
	KCHECK(kmalloc(0xffffffffu) == NULL);
	kfree(NULL);
	KCHECK_EQ(pmm_free_frames(), before);
}

KTEST(mm, kzalloc_zeroes)
{
	static const uint32_t sizes[] = { 24, 200, 2048, 5000 };
	uint32_t before = pmm_free_frames();

	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint8_t *p = kmalloc(sizes[i]);
		KCHECK(p != NULL);
		memset(p, 0xa5, sizes[i]);
		kfree(p);                       /* poisoned or back in the pool */
		p = kzalloc(sizes[i]);
		KCHECK(p != NULL);
		KCHECK(filled(p, sizes[i], 0));
		kfree(p);
	}
	KCHECK_EQ(pmm_free_frames(), before);
}

/* ---- object caches ---- */

/* Tests run once per boot, and objcache_init links the cache into the
 * global list, so each cache here is initialised exactly once. */
static void cache_once(struct objcache *c, bool *done, const char *name,
		       size_t size, size_t align)
{
	if (!*done)
		objcache_init(c, name, size, align);
	*done = true;
}

static uint32_t slab_bytes(const struct objcache *c)
{
	return (uint32_t)PAGE_SIZE << c->order;
}

/* The slab an object lives in: slabs are naturally aligned blocks. */
static uintptr_t slab_of(const struct objcache *c, const void *obj)
{
	return (uintptr_t)obj & ~(uintptr_t)(slab_bytes(c) - 1);
}

/* How many distinct slabs hold the live objects obj[0..n) (NULL = freed). */
static uint32_t live_slabs(const struct objcache *c, void *const *obj, int n)
{
	uint32_t count = 0;

	for (int i = 0; i < n; i++) {
		bool first = obj[i] != NULL;
		for (int j = 0; j < i && first; j++)
			if (obj[j] && slab_of(c, obj[j]) == slab_of(c, obj[i]))
				first = false;
		count += first;
	}
	return count;
}

#define NR_COUNTED 40

KTEST(mm, objcache_counters_track_allocs)
{
	static struct objcache cache;
	static bool ready;
	static void *obj[NR_COUNTED];
	uint32_t before = pmm_free_frames(), inuse = 0;

	cache_once(&cache, &ready, "ktest-1000", 1000, 8);
	KCHECK_EQ(cache.objsize, 1000);
	KCHECK(cache.per_slab >= 1);
	KCHECK(cache.per_slab * cache.objsize <= slab_bytes(&cache));
	KCHECK_EQ(cache.nr_inuse, 0);
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK(kmem_caches() == &cache);        /* newest first */

	for (int i = 0; i < NR_COUNTED; i++) {
		obj[i] = objcache_alloc(&cache);
		KCHECK(obj[i] != NULL);
		KCHECK_EQ((uintptr_t)obj[i] % 8, 0);
		/* Inside its slab, on an object boundary. */
		uint32_t off = (uint32_t)((uintptr_t)obj[i] - slab_of(&cache, obj[i]));
		KCHECK_EQ(off % cache.objsize, 0);
		KCHECK(off / cache.objsize < cache.per_slab);
		KCHECK_EQ(cache.nr_inuse, i + 1);
		KCHECK_EQ(cache.nr_allocs, i + 1);
		/* A new slab only when the others are full. */
		KCHECK_EQ(cache.nr_slabs, (uint32_t)i / cache.per_slab + 1);
		KCHECK_EQ(live_slabs(&cache, obj, i + 1), cache.nr_slabs);
		KCHECK_EQ(pmm_free_frames(), before - (cache.nr_slabs << cache.order));
		memset(obj[i], i, cache.objsize);
	}
	for (int i = 0; i < NR_COUNTED; i++) {
		KCHECK(filled(obj[i], cache.objsize, (uint8_t)i));
		for (int j = i + 1; j < NR_COUNTED; j++)
			KCHECK(obj[i] != obj[j]);
	}

	/* Free the even ones, then the odd ones: a slab goes back to the
	 * pool exactly when its last object does. */
	inuse = NR_COUNTED;
	for (int pass = 0; pass < 2; pass++)
		for (int i = pass; i < NR_COUNTED; i += 2) {
			objcache_free(&cache, obj[i]);
			obj[i] = NULL;
			inuse--;
			KCHECK_EQ(cache.nr_inuse, inuse);
			KCHECK_EQ(cache.nr_slabs, live_slabs(&cache, obj, NR_COUNTED));
			KCHECK_EQ(pmm_free_frames(), before - (cache.nr_slabs << cache.order));
		}
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK_EQ(cache.nr_allocs, NR_COUNTED);
	KCHECK_EQ(pmm_free_frames(), before);
}

#define NR_BIG 8

KTEST(mm, objcache_8k_objects_are_8k_aligned)
{
	static struct objcache cache;
	static bool ready;
	static uint8_t *obj[NR_BIG];
	uint32_t before = pmm_free_frames();

	cache_once(&cache, &ready, "ktest-8192", 8192, 8);
	KCHECK_EQ(cache.objsize, 8192);
	for (int i = 0; i < NR_BIG; i++) {
		obj[i] = objcache_alloc(&cache);
		KCHECK(obj[i] != NULL);
		KCHECK_EQ((uintptr_t)obj[i] % 8192, 0);
		KCHECK_EQ(V2P(obj[i]) % 8192, 0);
		KCHECK(!in_reserved(V2P(obj[i]), 8192));
		memset(obj[i], 0x30 + i, 8192);
	}
	KCHECK_EQ(cache.nr_inuse, NR_BIG);
	KCHECK_EQ(cache.nr_slabs, (NR_BIG + cache.per_slab - 1) / cache.per_slab);
	KCHECK_EQ(pmm_free_frames(), before - (cache.nr_slabs << cache.order));
	for (int i = 0; i < NR_BIG; i++)
		KCHECK(filled(obj[i], 8192, (uint8_t)(0x30 + i)));
	for (int i = 0; i < NR_BIG; i++)
		objcache_free(&cache, obj[i]);
	KCHECK_EQ(cache.nr_inuse, 0);
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK_EQ(pmm_free_frames(), before);
}

KTEST(mm, freed_object_is_poisoned)
{
	static struct objcache cache;
	static bool ready;
	uint32_t before = pmm_free_frames();
	uint8_t *a, *b;

	cache_once(&cache, &ready, "ktest-poison", 1000, 8);
	KCHECK(cache.per_slab >= 2);
	a = objcache_alloc(&cache);
	b = objcache_alloc(&cache);             /* keeps the slab alive */
	KCHECK(a != NULL && b != NULL);
	KCHECK_EQ(slab_of(&cache, a), slab_of(&cache, b));
	memset(a, 0, cache.objsize);
	memset(b, 0x11, cache.objsize);
	objcache_free(&cache, a);
	/* The first word is the free-list link: NULL or another free object
	 * of the same slab. The rest is poison. */
	void *link = *(void **)a;
	KCHECK(link == NULL || slab_of(&cache, link) == slab_of(&cache, a));
	KCHECK(link != a && link != b);
	KCHECK(filled(a + sizeof(void *), cache.objsize - sizeof(void *), POISON_FREE));
	KCHECK(filled(b, cache.objsize, 0x11));         /* the neighbour is untouched */
	KCHECK_EQ(cache.nr_inuse, 1);
	KCHECK_EQ(cache.nr_slabs, 1);

	/* The slab with a free object is used before any new one. */
	uint8_t *c = objcache_alloc(&cache);
	KCHECK(c != NULL && c != b);
	KCHECK_EQ(slab_of(&cache, c), slab_of(&cache, b));
	KCHECK_EQ(cache.nr_slabs, 1);
	objcache_free(&cache, c);
	objcache_free(&cache, b);
	KCHECK_EQ(cache.nr_inuse, 0);
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK_EQ(pmm_free_frames(), before);
}

#define LOOPS 10000

KTEST(mm, ten_thousand_alloc_free_leave_no_trace)
{
	static struct objcache cache;
	static bool ready;
	uint32_t before = pmm_free_frames();
	void *held;

	cache_once(&cache, &ready, "ktest-loop", 1000, 8);
	/* Each round trip takes a slab and gives it back. */
	for (int i = 0; i < LOOPS; i++) {
		void *p = objcache_alloc(&cache);
		KCHECK(p != NULL);
		memset(p, i, cache.objsize);
		objcache_free(&cache, p);
	}
	KCHECK_EQ(cache.nr_inuse, 0);
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK_EQ(cache.nr_allocs, LOOPS);
	KCHECK_EQ(pmm_free_frames(), before);

	/* With one object held, the slab stays and is reused. */
	held = objcache_alloc(&cache);
	KCHECK(held != NULL);
	for (int i = 0; i < LOOPS; i++) {
		void *p = objcache_alloc(&cache);
		KCHECK(p != NULL && p != held);
		KCHECK_EQ(slab_of(&cache, p), slab_of(&cache, held));
		objcache_free(&cache, p);
	}
	KCHECK_EQ(cache.nr_inuse, 1);
	KCHECK_EQ(cache.nr_slabs, 1);
	objcache_free(&cache, held);
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK_EQ(cache.nr_allocs, 2 * LOOPS + 1);
	KCHECK_EQ(pmm_free_frames(), before);

	/* kmalloc, every class and a page block in turn. */
	for (int i = 0; i < LOOPS; i++) {
		size_t size = i % 9 == 8 ? 5000 : (size_t)16 << (i % 9);
		void *p = kmalloc(size);
		KCHECK(p != NULL);
		((uint8_t *)p)[size - 1] = (uint8_t)i;
		kfree(p);
	}
	KCHECK_EQ(pmm_free_frames(), before);
}

/* Objects of about 64 KiB (order-4 slabs of one object) until the pool
 * has no 64 KiB block left. The live objects are chained through their
 * first word, so the test needs no array as large as memory. Everything
 * is measured first and checked after the objects are freed: a failed
 * KCHECK returns, and must not leave the machine out of memory. */
KTEST(mm, objcache_out_of_memory_gives_null)
{
	static struct objcache cache;
	static bool ready;
	uint32_t before = pmm_free_frames(), n = 0;
	uint32_t inuse, allocs, slabs, nfree;
	void **list = NULL, **p, *none;

	cache_once(&cache, &ready, "ktest-60000", 60000, 8);
	while ((p = objcache_alloc(&cache)) != NULL) {
		*p = list;
		list = p;
		if (++n > pmm_nframes())        /* more objects than frames */
			break;
	}
	inuse = cache.nr_inuse;
	allocs = (uint32_t)cache.nr_allocs;
	slabs = cache.nr_slabs;
	nfree = pmm_free_frames();
	/* The failure is the pool's: no block of a slab's size is left. */
	none = page_alloc(cache.order);
	if (none)
		page_free(none, cache.order);

	while (list) {
		p = list;
		list = *list;
		objcache_free(&cache, p);
	}
	KCHECK_EQ(pmm_free_frames(), before);
	KCHECK_EQ(cache.nr_inuse, 0);
	KCHECK_EQ(cache.nr_slabs, 0);
	KCHECK(n >= 1 && n <= pmm_nframes());
	KCHECK_EQ(inuse, n);
	KCHECK_EQ(allocs, n);
	KCHECK_EQ(slabs, (n + cache.per_slab - 1) / cache.per_slab);
	KCHECK_EQ(nfree, before - (slabs << cache.order));
	KCHECK(none == NULL);
}

/* Every free frame, one page at a time, chained through the pages. None
 * may be reserved memory, and at the end the pool is exactly empty. */
KTEST(mm, page_exhaustion_gives_null_and_recovers)
{
	static struct objcache cache;
	static bool ready;
	uint32_t before = pmm_free_frames(), n = 0, bad = 0;
	void **list = NULL, **p;
	bool empty, page_null, kmalloc_null, cache_null, cache_unchanged;
	void *q;

	cache_once(&cache, &ready, "ktest-oom", 256, 8);
	while ((p = page_alloc(0)) != NULL) {
		bad += !good_block(p, 0);
		*p = list;
		list = p;
		if (++n > before)
			break;
	}
	/* Measured while the pool is dry, checked once it is refilled: a
	 * failed KCHECK returns, and must not leave the machine empty. */
	empty = pmm_free_frames() == 0;
	q = page_alloc(0);
	page_null = q == NULL;
	if (q)
		page_free(q, 0);
	q = kmalloc(4097);
	kmalloc_null = q == NULL;
	kfree(q);
	p = objcache_alloc(&cache);
	cache_null = p == NULL;
	cache_unchanged = cache.nr_slabs == 0 && cache.nr_inuse == 0;
	if (p)
		objcache_free(&cache, p);

	while (list) {
		p = list;
		list = *list;
		page_free(p, 0);
	}
	KCHECK_EQ(pmm_free_frames(), before);
	KCHECK_EQ(n, before);
	KCHECK_EQ(bad, 0);
	KCHECK(empty);
	KCHECK(page_null);
	KCHECK(kmalloc_null);
	KCHECK(cache_null);
	KCHECK(cache_unchanged);
}
