/* tests/guest/ktest_vm_cow.c - group vm: copy-on-write after mm_copy
 * (fork's copy), over three generations and a thousand copies, the LDT at
 * put, and shared anonymous memory (tests/guest/ktest_vm.h). */
#include "tests/guest/ktest_vm.h"

/* ---- copy-on-write ---- */

VM_TEST(cow_after_copy)
{
	struct mm *parent = vm_new(c, mm_create()), *child;
	uint32_t pframe, free;

	KCHECK(parent && vm_add_area(parent, A, 2 * P, RW, 0) == 0);
	parent->brk_start = parent->brk = A + 8 * P;
	vm_enter(parent);
	KCHECK_EQ(put32(A, 0x11111111), 0);                     /* in the TLB now */
	pframe = pte_of(parent, A) & PTE_FRAME;
	child = vm_new(c, mm_copy(parent));
	KCHECK(child);
	KCHECK_AREAS(child, { A, A + 2 * P, RW, 0 });
	KCHECK_EQ(child->brk, A + 8 * P);
	KCHECK_EQ(child->brk_start, A + 8 * P);
	KCHECK_EQ(child->rss_pages, 1);
	/* One frame, two mappings, both read-only. */
	KCHECK_EQ(pte_of(child, A) & PTE_FRAME, pframe);
	KCHECK_EQ(refs_at(parent, A), 2);
	KCHECK_EQ(pte_of(parent, A) & PTE_W, 0);
	KCHECK_EQ(pte_of(child, A) & PTE_W, 0);
	KCHECK(!pte_has_page(pte_of(child, A + P)));
	/* The parent writes first (mm_copy must have flushed its TLB entry):
	 * it gets a copy; the child keeps the original, alone. */
	KCHECK_EQ(put32(A, 0x22222222), 0);
	KCHECK(pframe != (pte_of(parent, A) & PTE_FRAME));
	KCHECK_EQ(refs_at(parent, A), 1);
	KCHECK_EQ(refs_at(child, A), 1);
	vm_enter(child);
	KCHECK_EQ(get32(A), 0x11111111);
	/* The child is the sole user now: its write copies nothing. */
	free = pmm_free_frames();
	KCHECK_EQ(put32(A, 0x33333333), 0);
	KCHECK_EQ(pmm_free_frames(), free);
	KCHECK_EQ(pte_of(child, A) & (PTE_FRAME | PTE_W), pframe | PTE_W);
	KCHECK_EQ(put32(A + P, 0x44), 0);                       /* child only */
	vm_enter(parent);
	KCHECK_EQ(get32(A), 0x22222222);
	KCHECK_EQ(get32(A + P), 0);
	vm_enter(child);
	KCHECK_EQ(get32(A), 0x33333333);
	KCHECK_EQ(get32(A + P), 0x44);
}

VM_TEST(cow_three_generations)
{
	struct mm *a = vm_new(c, mm_create()), *b, *g;

	KCHECK(a && vm_add_area(a, A, P, RW, 0) == 0);
	vm_enter(a);
	KCHECK_EQ(put32(A, 1), 0);
	b = vm_new(c, mm_copy(a));
	KCHECK(b);
	vm_enter(b);
	g = vm_new(c, mm_copy(b));
	KCHECK(g);
	KCHECK_EQ(refs_at(a, A), 3);
	KCHECK_EQ(put32(A, 2), 0);                              /* b copies */
	KCHECK_EQ(refs_at(a, A), 2);
	KCHECK_EQ(refs_at(b, A), 1);
	vm_enter(a);
	current->mm = NULL;
	switch_mm(this_cpu()->active_mm, NULL);
	vm_drop(c, a);                                          /* a goes first */
	KCHECK_EQ(refs_at(g, A), 1);
	vm_enter(g);
	KCHECK_EQ(get32(A), 1);
	KCHECK_EQ(put32(A, 3), 0);
	vm_enter(b);
	KCHECK_EQ(get32(A), 2);
}

VM_TEST(copy_and_put_thousand_times)
{
	struct mm *mm = vm_new(c, mm_create());
	uint32_t free;
	uint32_t inuse_vma = 0, inuse_mm = 0;

	KCHECK(mm);
	KCHECK_EQ(build_busy_mm(mm), 0);
	KCHECK_EQ(mm->rss_pages, 11);
	free = pmm_free_frames();
	for (struct objcache *oc = kmem_caches(); oc; oc = oc->next) {
		if (strcmp(oc->name, "vma") == 0)
			inuse_vma = oc->nr_inuse;
		if (strcmp(oc->name, "mm") == 0)
			inuse_mm = oc->nr_inuse;
	}
	KCHECK_EQ(inuse_vma, 3);
	KCHECK_EQ(inuse_mm, 1);
	for (int i = 0; i < 1000; i++) {
		struct mm *child = mm_copy(mm);
		KCHECK(child);
		KCHECK_EQ(refs_at(mm, A + 3 * P), 2);
		if (i % 100 == 0) {
			/* Now and then the child writes (and copies). */
			vm_enter(child);
			if (put32(A + 3 * P, 0xc0ffee) || get32(A + 3 * P) != 0xc0ffee) {
				vm_enter(mm);
				mm_put(child);
				KCHECK(!"the child could not write its copy");
			}
			vm_enter(mm);
		}
		mm_put(child);
		KCHECK_EQ(refs_at(mm, A + 3 * P), 1);
	}
	KCHECK_EQ(pmm_free_frames(), free);
	for (struct objcache *oc = kmem_caches(); oc; oc = oc->next) {
		if (strcmp(oc->name, "vma") == 0)
			KCHECK_EQ(oc->nr_inuse, 3);
		if (strcmp(oc->name, "mm") == 0)
			KCHECK_EQ(oc->nr_inuse, 1);
	}
	for (uint32_t i = 0; i < 8; i++) {
		KCHECK_EQ(refs_at(mm, A + i * P), 1);
		KCHECK_EQ(get32(A + i * P), i);
	}
	/* Sole user again: a write copies nothing. */
	KCHECK_EQ(put32(A, 42), 0);
	KCHECK_EQ(pmm_free_frames(), free);
}

/* mm_put frees the LDT with the rest; mm_copy leaves it to fork's
 * ldt_dup (arch/i386/ldt.c). */
VM_TEST(put_frees_the_ldt)
{
	struct mm *mm = vm_new(c, mm_create()), *child;

	KCHECK(mm);
	mm->ldt = kzalloc(3 * sizeof(struct desc));
	KCHECK(mm->ldt);
	mm->ldt_entries = 3;
	child = vm_new(c, mm_copy(mm));
	KCHECK(child);
	KCHECK(child->ldt == NULL && child->ldt_entries == 0);
	/* vm_end's mm_put frees the table: kmalloc-32 must balance. */
}

VM_TEST(shared_anonymous_memory_stays_shared)
{
	struct mm *mm = vm_new(c, mm_create()), *child;
	long a;

	KCHECK(mm);
	a = vm_mmap(mm, 0, 2 * P, RW, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	KCHECK(!is_err(a));
	KCHECK_AREAS(mm, { (uint32_t)a, (uint32_t)a + 2 * P, RW, VMA_SHARED });
	vm_enter(mm);
	KCHECK_EQ(put32((uint32_t)a, 5), 0);                    /* page 1 untouched */
	child = vm_new(c, mm_copy(mm));
	KCHECK(child);
	KCHECK_EQ(refs_at(mm, (uint32_t)a + P), 2);            /* filled at fork */
	KCHECK(pte_of(child, (uint32_t)a) & PTE_W);
	vm_enter(child);
	KCHECK_EQ(put32((uint32_t)a, 6), 0);
	KCHECK_EQ(put32((uint32_t)a + P, 7), 0);
	vm_enter(mm);
	KCHECK_EQ(get32((uint32_t)a), 6);
	KCHECK_EQ(get32((uint32_t)a + P), 7);
	/* A futex key is the same frame in both. */
	KCHECK_EQ(vm_translate(mm, (uint32_t)a + P + 8, true),
		  vm_translate(child, (uint32_t)a + P + 8, true));
}
