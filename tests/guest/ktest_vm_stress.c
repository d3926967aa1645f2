/* tests/guest/ktest_vm_stress.c - group vm: running the frame pool dry
 * under an mm (an error, never a leak), and many small areas that come
 * and go (tests/guest/ktest_vm.h). */
#include "tests/guest/ktest_vm.h"

/* ---- running out of memory ---- */

/* Takes every free frame, chained through their first words. */
static void *drain_pool(void)
{
	void *chain = NULL, *p;

	while ((p = page_alloc(0))) {
		*(void **)p = chain;
		chain = p;
	}
	return chain;
}

static void *release_one(void *chain)
{
	void *next = *(void **)chain;

	page_free(chain, 0);
	return next;
}

static void release_all(void *chain)
{
	while (chain)
		chain = release_one(chain);
}

/* While the pool is dry a failed check must not return early (the frames
 * would never come back): record it and go on. */
#define CHECK_ON(cond) do { \
	if (!(cond)) \
		ktest_fail(__FILE__, __LINE__, "%s", #cond); \
} while (0)

VM_TEST(out_of_memory_is_an_error_not_a_leak)
{
	struct mm *mm = vm_new(c, mm_create()), *child = NULL;
	void *chain;
	int attempts = 0;
	long r;

	KCHECK(mm);
	KCHECK_EQ(build_busy_mm(mm), 0);
	chain = drain_pool();
	CHECK_ON(pmm_free_frames() == 0);
	CHECK_ON(mm_create() == NULL);
	CHECK_ON(vm_fault(mm, A + 16 * P, false) == 0);                 /* present */
	/* A fresh page needs a frame: -ENOMEM, and -EFAULT for the kernel. */
	CHECK_ON(vm_fault(mm, 0x20000000u + P, true) == -ENOMEM);
	CHECK_ON(put32(0x20000000u + P, 1) == -EFAULT);
	CHECK_ON(vm_translate(mm, 0x20000000u + 3 * P, false) == 0);
	CHECK_ON(vm_load(mm, 0x20000000u + 3 * P, &r, 4) == -ENOMEM);
	/* Calls that need a struct vma either work or change nothing. */
	r = vm_mprotect(mm, A + P, P, PROT_READ);
	if (r == -ENOMEM) {
		const struct area want[] = { { A, A + 8 * P, RW, 0 },
			{ A + 16 * P, A + 18 * P, PROT_READ, 0 },
			{ 0x20000000u, 0x20000000u + 4 * P, RW, 0 } };
		CHECK_ON(areas_match(mm, want, 3));
	} else {
		CHECK_ON(r == 0);
	}
	/* fork with one more frame at a time: every failure leaves the
	 * counts exactly as they were, until it works. */
	while (!child && chain) {
		uint32_t free = pmm_free_frames();
		child = mm_copy(mm);
		attempts++;
		if (!child) {
			CHECK_ON(pmm_free_frames() == free);
			chain = release_one(chain);
		}
	}
	release_all(chain);
	KCHECK(child);
	vm_new(c, child);
	vm_enter(child);
	KCHECK_EQ(get32(A + 5 * P), 5);
	KCHECK(attempts > 3);           /* pgdir, two tables: it did fail */
	kprintf("  mm_copy worked at attempt %d\n", attempts);
}

/* Many small areas, alternate protections, all gone again. */
VM_TEST(many_areas_come_and_go)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm);
	for (uint32_t i = 0; i < 300; i++)
		KCHECK_EQ(vm_mmap(mm, A + 2 * i * P, P, (i & 1) ? PROT_READ : RW,
				  ANON_PRIVATE | MAP_FIXED, -1, 0), (long)(A + 2 * i * P));
	vm_enter(mm);
	for (uint32_t i = 0; i < 300; i += 2)
		KCHECK_EQ(put32(A + 2 * i * P, i), 0);
	KCHECK_EQ(vm_mprotect(mm, A, 600 * P, RW), -ENOMEM);    /* gaps */
	KCHECK_EQ(vm_mmap(mm, A, 600 * P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), (long)A);
	KCHECK_AREAS(mm, { A, A + 600 * P, RW, 0 });
	KCHECK_EQ(get32(A), 0);
	KCHECK_EQ(vm_munmap(mm, A, 600 * P), 0);
	KCHECK(mm->vmas == NULL);
	KCHECK_EQ(mm->rss_pages, 0);
}
