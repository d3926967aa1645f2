/* tests/guest/ktest_vm_map.c - group vm: the mapping calls on an mm,
 * munmap, mprotect, mmap2 and brk, and the translation futexes use
 * (tests/guest/ktest_vm.h). */
#include "tests/guest/ktest_vm.h"

/* ---- munmap ---- */

VM_TEST(munmap_then_access_faults)
{
	struct mm *mm = vm_new(c, mm_create());
	uint32_t free0, free1;

	KCHECK(mm && vm_add_area(mm, A, 4 * P, RW, 0) == 0);
	KCHECK_EQ(vm_add_area(mm, 0x30000000u, P, RW, 0), 0);
	/* An untouched area keeps the vma cache's slab alive throughout, so
	 * the frame counts below are pages and page tables only. */
	KCHECK_EQ(vm_add_area(mm, 0x40000000u, P, RW, 0), 0);
	vm_enter(mm);
	free0 = pmm_free_frames();
	for (uint32_t i = 0; i < 4; i++)
		KCHECK_EQ(put32(A + i * P, 10 + i), 0);         /* TLB has them */
	KCHECK_EQ(put32(0x30000000u, 1), 0);
	free1 = pmm_free_frames();
	KCHECK_EQ(free1, free0 - 7);                            /* 5 pages, 2 tables */
	KCHECK_EQ(vm_munmap(mm, A + P, 2 * P), 0);
	KCHECK_EQ(pmm_free_frames(), free1 + 2);
	KCHECK_AREAS(mm, { A, A + P, RW, 0 }, { A + 3 * P, A + 4 * P, RW, 0 },
		     { 0x30000000u, 0x30000000u + P, RW, 0 },
		     { 0x40000000u, 0x40000000u + P, RW, 0 });
	KCHECK_EQ(get32(A + P), 0xdeadbeefu);
	KCHECK_EQ(put32(A + 2 * P, 1), -EFAULT);
	KCHECK_EQ(get32(A), 10);
	KCHECK_EQ(get32(A + 3 * P), 13);
	KCHECK_EQ(mm->rss_pages, 3);
	/* Length rounds up; the emptied page table goes back too. */
	KCHECK_EQ(vm_munmap(mm, 0x30000000u, 1), 0);
	KCHECK_EQ(pmm_free_frames(), free1 + 4);
	KCHECK_EQ(vm_munmap(mm, A, 4 * P), 0);                 /* spans the hole */
	KCHECK_AREAS(mm, { 0x40000000u, 0x40000000u + P, RW, 0 });
	KCHECK_EQ(mm->rss_pages, 0);
	KCHECK_EQ(pmm_free_frames(), free0);
	KCHECK_EQ(get32(A), 0xdeadbeefu);
}

VM_TEST(munmap_checks)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm && vm_add_area(mm, A, 2 * P, RW, 0) == 0);
	KCHECK_EQ(vm_munmap(mm, A + 1, P), -EINVAL);
	KCHECK_EQ(vm_munmap(mm, A, 0), -EINVAL);
	KCHECK_EQ(vm_munmap(mm, USER_TOP, P), -EINVAL);
	KCHECK_EQ(vm_munmap(mm, USER_TOP - P, 2 * P), -EINVAL);
	KCHECK_EQ(vm_munmap(mm, A, 0xFFFFFFFFu), -EINVAL);
	KCHECK_EQ(vm_munmap(mm, 0xFFFFF000u, P), -EINVAL);
	KCHECK_AREAS(mm, { A, A + 2 * P, RW, 0 });
	KCHECK_EQ(vm_munmap(mm, 0x50000000u, 16 * P), 0);      /* nothing there */
	KCHECK_EQ(vm_munmap(mm, 0, P), 0);
	KCHECK_EQ(vm_munmap(mm, USER_TOP - P, P), 0);
	KCHECK_AREAS(mm, { A, A + 2 * P, RW, 0 });
}

/* ---- mprotect ---- */

VM_TEST(mprotect_splits_and_merges_areas)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm && vm_add_area(mm, A, 4 * P, RW, 0) == 0);
	vm_enter(mm);
	for (uint32_t i = 0; i < 4; i++)
		KCHECK_EQ(put32(A + i * P, 20 + i), 0);         /* writable in the TLB */
	KCHECK_EQ(vm_mprotect(mm, A + P, 2 * P, PROT_READ), 0);
	KCHECK_AREAS(mm, { A, A + P, RW, 0 }, { A + P, A + 3 * P, PROT_READ, 0 },
		     { A + 3 * P, A + 4 * P, RW, 0 });
	/* A kernel write there now fails (CR0.WP, the TLB flushed). */
	KCHECK_EQ(put32(A + P, 1), -EFAULT);
	KCHECK_EQ(put32(A + 2 * P + 8, 1), -EFAULT);
	KCHECK_EQ(get32(A + P), 21);
	KCHECK_EQ(put32(A, 1), 0);
	KCHECK_EQ(put32(A + 3 * P, 1), 0);
	/* Back to read-write: one area again, writable at once. */
	KCHECK_EQ(vm_mprotect(mm, A + P, 2 * P, RW), 0);
	KCHECK_AREAS(mm, { A, A + 4 * P, RW, 0 });
	KCHECK(pte_of(mm, A + P) & PTE_W);
	KCHECK_EQ(put32(A + P, 2), 0);
	/* The head, the tail, then across two areas. */
	KCHECK_EQ(vm_mprotect(mm, A, P, PROT_READ), 0);
	KCHECK_EQ(vm_mprotect(mm, A + 3 * P, 1, PROT_EXEC), 0);       /* len rounds */
	KCHECK_AREAS(mm, { A, A + P, PROT_READ, 0 }, { A + P, A + 3 * P, RW, 0 },
		     { A + 3 * P, A + 4 * P, PROT_EXEC, 0 });
	KCHECK_EQ(vm_mprotect(mm, A + 2 * P, 2 * P, PROT_READ), 0);
	KCHECK_AREAS(mm, { A, A + P, PROT_READ, 0 }, { A + P, A + 2 * P, RW, 0 },
		     { A + 2 * P, A + 4 * P, PROT_READ, 0 });
	KCHECK_EQ(vm_mprotect(mm, A, 4 * P, PROT_READ), 0);
	KCHECK_AREAS(mm, { A, A + 4 * P, PROT_READ, 0 });
	KCHECK_EQ(put32(A + P, 3), -EFAULT);
	KCHECK_EQ(get32(A + P), 2);
}

VM_TEST(mprotect_none_keeps_the_data)
{
	struct mm *mm = vm_new(c, mm_create());
	uint32_t free;

	KCHECK(mm && vm_add_area(mm, A, 2 * P, RW, 0) == 0);
	vm_enter(mm);
	KCHECK_EQ(put32(A, 0x5a5a), 0);
	KCHECK_EQ(put32(A + P, 0xa5a5), 0);
	free = pmm_free_frames();
	KCHECK_EQ(vm_mprotect(mm, A, 2 * P, PROT_NONE), 0);
	KCHECK_EQ(pte_of(mm, A) & PTE_P, 0);
	KCHECK_EQ(get32(A), 0xdeadbeefu);
	KCHECK_EQ(put32(A + P, 0), -EFAULT);
	KCHECK_EQ(mm->rss_pages, 2);
	KCHECK_EQ(vm_mprotect(mm, A, 2 * P, PROT_READ), 0);
	KCHECK_EQ(get32(A), 0x5a5a);
	KCHECK_EQ(get32(A + P), 0xa5a5);
	KCHECK_EQ(pmm_free_frames(), free);
	/* A PROT_NONE page is still shared copy-on-write at fork. */
	KCHECK_EQ(vm_mprotect(mm, A, P, PROT_NONE), 0);
	struct mm *child = vm_new(c, mm_copy(mm));
	KCHECK(child);
	KCHECK_EQ(refs_at(mm, A), 2);
	KCHECK_EQ(vm_mprotect(child, A, P, RW), 0);
	KCHECK_EQ(pte_of(child, A) & (PTE_P | PTE_W), PTE_P);   /* still COW */
	vm_enter(child);
	KCHECK_EQ(put32(A, 0x77), 0);
	KCHECK_EQ(refs_at(mm, A), 1);
}

VM_TEST(mprotect_checks)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm && vm_add_area(mm, A, 2 * P, RW, 0) == 0);
	KCHECK_EQ(vm_add_area(mm, A + 3 * P, P, RW, 0), 0);
	KCHECK_EQ(vm_mprotect(mm, A + 1, P, PROT_READ), -EINVAL);
	KCHECK_EQ(vm_mprotect(mm, A, P, 0x8), -EINVAL);
	KCHECK_EQ(vm_mprotect(mm, A, 0, PROT_READ), 0);
	KCHECK_EQ(vm_mprotect(mm, 0x50000000u, 0, PROT_READ), 0);
	KCHECK_EQ(vm_mprotect(mm, 0x50000000u, P, PROT_READ), -ENOMEM);
	KCHECK_EQ(vm_mprotect(mm, A - P, 2 * P, PROT_READ), -ENOMEM);
	KCHECK_EQ(vm_mprotect(mm, A, 4 * P, PROT_READ), -ENOMEM);     /* hole */
	KCHECK_EQ(vm_mprotect(mm, A, 0xFFFFFFFFu, PROT_READ), -ENOMEM);
	KCHECK_EQ(vm_mprotect(mm, USER_TOP - P, 2 * P, PROT_READ), -ENOMEM);
	KCHECK_EQ(vm_mprotect(mm, USER_TOP, P, PROT_READ), -ENOMEM);
	/* Nothing changed by the failures. */
	KCHECK_AREAS(mm, { A, A + 2 * P, RW, 0 }, { A + 3 * P, A + 4 * P, RW, 0 });
}

/* ---- mmap2 ---- */

VM_TEST(mmap_places_anonymous_memory_top_down)
{
	struct mm *mm = vm_new(c, mm_create());
	long a, b, h, d;

	KCHECK(mm);
	a = vm_mmap(mm, 0, 3 * P, RW, ANON_PRIVATE, -1, 0);
	KCHECK_EQ(a, (long)(USER_MMAP_BASE - 3 * P));
	b = vm_mmap(mm, 0, P + 1, RW, ANON_PRIVATE, 7, 99);    /* fd, pgoff ignored */
	KCHECK_EQ(b, a - 2 * P);
	KCHECK_AREAS(mm, { (uint32_t)b, USER_MMAP_BASE, RW, 0 });       /* merged */
	d = vm_mmap(mm, 0, P, PROT_READ, ANON_PRIVATE, -1, 0);
	KCHECK_EQ(d, b - P);
	/* A free hint is taken (rounded up to a page); a busy one is not. */
	h = vm_mmap(mm, 0x20000010u, P, RW, ANON_PRIVATE, -1, 0);
	KCHECK_EQ(h, 0x20001000);
	h = vm_mmap(mm, (uint32_t)a, P, RW, ANON_PRIVATE, -1, 0);
	KCHECK_EQ(h, d - P);
	KCHECK_AREAS(mm, { 0x20001000u, 0x20002000u, RW, 0 },
		     { (uint32_t)h, (uint32_t)d, RW, 0 },
		     { (uint32_t)d, (uint32_t)b, PROT_READ, 0 },
		     { (uint32_t)b, USER_MMAP_BASE, RW, 0 });
	vm_enter(mm);
	KCHECK_EQ(get32((uint32_t)a + 2 * P), 0);
	KCHECK_EQ(put32((uint32_t)a + 2 * P, 1), 0);
	KCHECK_EQ(put32((uint32_t)d, 1), -EFAULT);
	/* Nothing fits below mmap_base: the highest gap anywhere. */
	mm->mmap_base = USER_BASE;
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, ANON_PRIVATE, -1, 0), (long)(USER_TOP - P));
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
		  (long)(USER_TOP - 2 * P));
}

VM_TEST(mmap_checks)
{
	struct mm *mm = vm_new(c, mm_create());
	long a;

	KCHECK(mm);
	KCHECK_EQ(vm_mmap(mm, 0, 0, RW, ANON_PRIVATE, -1, 0), -EINVAL);
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, MAP_ANONYMOUS, -1, 0), -EINVAL);
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, MAP_ANONYMOUS | MAP_SHARED | MAP_PRIVATE, -1, 0), -EINVAL);
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, MAP_PRIVATE, -1, 0), -EBADF);
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, MAP_PRIVATE, 3, 0), -ENODEV);
	KCHECK_EQ(vm_mmap(mm, A + 1, P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), -EINVAL);
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), -EINVAL);
	/* Not fitting below USER_TOP: ENOMEM, as Linux. */
	KCHECK_EQ(vm_mmap(mm, USER_TOP, P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), -ENOMEM);
	KCHECK_EQ(vm_mmap(mm, 0xC0100000u, P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), -ENOMEM);
	KCHECK_EQ(vm_mmap(mm, 0xFFFFF000u, 2 * P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), -ENOMEM);
	KCHECK_EQ(vm_mmap(mm, USER_TOP - P, 2 * P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), -ENOMEM);
	KCHECK_EQ(vm_mmap(mm, 0, 0xFFFFFFFFu, RW, ANON_PRIVATE, -1, 0), -ENOMEM);
	KCHECK_EQ(vm_mmap(mm, 0, USER_TOP, RW, ANON_PRIVATE, -1, 0), -ENOMEM);
	KCHECK(mm->vmas == NULL);
	/* All of user space in one mapping (lazy: costs no page), then no room. */
	a = vm_mmap(mm, 0, USER_TOP - USER_BASE, PROT_READ | 0x100, ANON_PRIVATE, -1, 0);
	KCHECK_EQ(a, (long)USER_BASE);
	KCHECK_AREAS(mm, { USER_BASE, USER_TOP, PROT_READ, 0 });
	KCHECK_EQ(vm_mmap(mm, 0, P, RW, ANON_PRIVATE, -1, 0), -ENOMEM);
	/* MAP_FIXED still may replace part of it. */
	KCHECK_EQ(vm_mmap(mm, A, P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0), (long)A);
	KCHECK_AREAS(mm, { USER_BASE, A, PROT_READ, 0 }, { A, A + P, RW, 0 },
		     { A + P, USER_TOP, PROT_READ, 0 });
}

VM_TEST(mmap_fixed_replaces_a_mapping)
{
	struct mm *mm = vm_new(c, mm_create());
	uint32_t free;

	KCHECK(mm && vm_add_area(mm, A, 4 * P, RW, 0) == 0);
	KCHECK_EQ(vm_add_area(mm, A + 6 * P, 2 * P, RW, VMA_HEAP), 0);
	vm_enter(mm);
	for (uint32_t i = 0; i < 4; i++)
		KCHECK_EQ(put32(A + i * P, 30 + i), 0);
	KCHECK_EQ(put32(A + 6 * P, 36), 0);
	free = pmm_free_frames();
	KCHECK_EQ(vm_mmap(mm, A + P, 2 * P, PROT_READ, ANON_PRIVATE | MAP_FIXED, -1, 0),
		  (long)(A + P));
	KCHECK_EQ(pmm_free_frames(), free + 2);                 /* old pages gone */
	KCHECK_AREAS(mm, { A, A + P, RW, 0 }, { A + P, A + 3 * P, PROT_READ, 0 },
		     { A + 3 * P, A + 4 * P, RW, 0 },
		     { A + 6 * P, A + 8 * P, RW, VMA_HEAP });
	KCHECK_EQ(get32(A + P), 0);                             /* fresh zero page */
	KCHECK_EQ(get32(A + 2 * P), 0);
	KCHECK_EQ(put32(A + P, 1), -EFAULT);
	KCHECK_EQ(get32(A), 30);
	KCHECK_EQ(get32(A + 3 * P), 33);
	/* Over two areas and the gap between them. */
	KCHECK_EQ(vm_mmap(mm, A + 2 * P, 5 * P, RW, ANON_PRIVATE | MAP_FIXED, -1, 0),
		  (long)(A + 2 * P));
	KCHECK_AREAS(mm, { A, A + P, RW, 0 }, { A + P, A + 2 * P, PROT_READ, 0 },
		     { A + 2 * P, A + 7 * P, RW, 0 },
		     { A + 7 * P, A + 8 * P, RW, VMA_HEAP });
	KCHECK_EQ(get32(A + 6 * P), 0);
	KCHECK_EQ(get32(A + 3 * P), 0);
	/* Exactly over an area. */
	KCHECK_EQ(vm_mmap(mm, A, P, PROT_EXEC, ANON_PRIVATE | MAP_FIXED, -1, 0), (long)A);
	KCHECK_EQ(get32(A), 0);
	KCHECK_EQ(mm->vmas->prot, PROT_EXEC);
}

/* ---- brk ---- */

VM_TEST(brk_grows_and_shrinks)
{
	struct mm *mm = vm_new(c, mm_create());
	const uint32_t H = 0x08050000u;
	uint32_t free;

	KCHECK(mm);
	KCHECK_EQ(vm_brk(mm, H), 0);                    /* no program: no heap */
	mm->brk_start = mm->brk = H;
	KCHECK_EQ(vm_brk(mm, 0), H);                    /* the query */
	KCHECK(mm->vmas == NULL);
	KCHECK_EQ(vm_brk(mm, H + 3 * P + 5), H + 3 * P + 5);
	KCHECK_AREAS(mm, { H, H + 4 * P, RW, VMA_HEAP });
	vm_enter(mm);
	free = pmm_free_frames();
	for (uint32_t i = 0; i < 4; i++) {
		KCHECK_EQ(get32(H + i * P), 0);
		KCHECK_EQ(put32(H + i * P, 40 + i), 0);
	}
	KCHECK_EQ(pmm_free_frames(), free - 5);         /* 4 pages, 1 table */
	KCHECK_EQ(vm_brk(mm, H + P + 100), H + P + 100);      /* shrink */
	KCHECK_AREAS(mm, { H, H + 2 * P, RW, VMA_HEAP });
	KCHECK_EQ(pmm_free_frames(), free - 3);
	KCHECK_EQ(get32(H + 2 * P), 0xdeadbeefu);
	KCHECK_EQ(get32(H + P), 41);
	/* Grow again: one area, new pages zero. */
	KCHECK_EQ(vm_brk(mm, H + 4 * P), H + 4 * P);
	KCHECK_AREAS(mm, { H, H + 4 * P, RW, VMA_HEAP });
	KCHECK_EQ(get32(H + 3 * P), 0);
	/* Failures give the old break. */
	KCHECK_EQ(vm_brk(mm, H - 1), H + 4 * P);
	KCHECK_EQ(vm_brk(mm, 0xFFFFFFFFu), H + 4 * P);
	KCHECK_EQ(vm_brk(mm, USER_TOP + 1), H + 4 * P);
	KCHECK_EQ(vm_add_area(mm, H + 8 * P, P, PROT_READ, 0), 0);
	KCHECK_EQ(vm_brk(mm, H + 9 * P), H + 4 * P);   /* into an area */
	KCHECK_EQ(vm_brk(mm, H + 8 * P), H + 8 * P);   /* right up to it */
	KCHECK_EQ(vm_brk(mm, H), H);                    /* all the way down */
	KCHECK_AREAS(mm, { H + 8 * P, H + 9 * P, PROT_READ, 0 });
	KCHECK_EQ(mm->rss_pages, 0);
	KCHECK_EQ(pmm_free_frames(), free);
}

/* ---- futex translation ---- */

VM_TEST(translate_gives_the_frame)
{
	struct mm *mm = vm_new(c, mm_create()), *child;
	uint32_t pa, pa2;

	KCHECK(mm && vm_add_area(mm, A, P, RW, 0) == 0);
	KCHECK_EQ(vm_add_area(mm, A + P, P, PROT_READ, 0), 0);
	KCHECK_EQ(vm_translate(mm, A - 4, false), 0);
	KCHECK_EQ(vm_translate(mm, USER_TOP + 8, false), 0);
	KCHECK_EQ(vm_translate(mm, A + P, true), 0);                  /* read-only */
	pa = vm_translate(mm, A + 12, false);                           /* faults in */
	KCHECK(pa != 0);
	KCHECK_EQ(pa, (pte_of(mm, A) & PTE_FRAME) + 12);
	KCHECK(vm_translate(mm, A + P + 4, false) != 0);
	child = vm_new(c, mm_copy(mm));
	KCHECK(child);
	KCHECK_EQ(vm_translate(child, A + 12, false), pa);              /* shared */
	pa2 = vm_translate(child, A + 12, true);                         /* breaks COW */
	KCHECK(pa2 != 0 && pa2 != pa);
	KCHECK_EQ(refs_at(mm, A), 1);
	KCHECK_EQ(vm_translate(mm, A + 12, true), pa);                  /* sole user */
}

