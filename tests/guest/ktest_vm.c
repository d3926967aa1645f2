/* tests/guest/ktest_vm.c - group vm, first part: creating and destroying
 * address spaces, adding areas, faults (demand zero, protection) and
 * exec's loading. The group's context and helpers, and its other files,
 * are in tests/guest/ktest_vm.h. */
#include "tests/guest/ktest_vm.h"

/* ---- creating and destroying ---- */

VM_TEST(create_and_destroy)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm);
	KCHECK_EQ((uintptr_t)mm->pgdir % P, 0);
	for (uint32_t i = 0; i < KERNEL_PDE; i++)
		KCHECK_EQ(mm->pgdir[i], 0);
	for (uint32_t i = KERNEL_PDE; i < 1024; i++)
		KCHECK_EQ(mm->pgdir[i], kernel_pgdir[i]);
	KCHECK_EQ(mm->users, 1);
	KCHECK_EQ(mm->mmap_base, USER_MMAP_BASE);
	KCHECK(mm->vmas == NULL && mm->ldt == NULL && mm->rss_pages == 0);
	/* A second user (CLONE_VM): the first put frees nothing. */
	mm_get(mm);
	mm_put(mm);
	KCHECK_EQ(mm->users, 1);
}

VM_TEST(put_of_the_loaded_mm_goes_back_to_kernel_pgdir)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm && vm_add_area(mm, A, P, RW, 0) == 0);
	vm_enter(mm);
	KCHECK_EQ(put32(A, 7), 0);
	KCHECK_EQ(read_cr3(), V2P(mm->pgdir));
	current->mm = c->saved_mm;
	vm_drop(c, mm);
	KCHECK_EQ(read_cr3(), V2P(kernel_pgdir));
	switch_mm(this_cpu()->active_mm, NULL);
	KCHECK_EQ(read_cr3(), V2P(kernel_pgdir));
}

/* ---- areas ---- */

VM_TEST(add_area_checks)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm);
	KCHECK_EQ(vm_add_area(mm, A + 1, P, RW, 0), -EINVAL);
	KCHECK_EQ(vm_add_area(mm, A, P + 1, RW, 0), -EINVAL);
	KCHECK_EQ(vm_add_area(mm, A, 0, RW, 0), -EINVAL);
	KCHECK_EQ(vm_add_area(mm, 0, P, RW, 0), -EINVAL);          /* page 0 */
	KCHECK_EQ(vm_add_area(mm, USER_TOP - P, 2 * P, RW, 0), -EINVAL);
	KCHECK_EQ(vm_add_area(mm, USER_TOP, P, RW, 0), -EINVAL);
	KCHECK_EQ(vm_add_area(mm, 0xFFFFF000u, 2 * P, RW, 0), -EINVAL);  /* wraps */
	KCHECK_EQ(vm_add_area(mm, A, P, 0x8, 0), -EINVAL);          /* prot bit */
	KCHECK(mm->vmas == NULL);

	KCHECK_EQ(vm_add_area(mm, A, 4 * P, RW, 0), 0);
	KCHECK_EQ(vm_add_area(mm, A, 4 * P, RW, 0), -EINVAL);       /* same */
	KCHECK_EQ(vm_add_area(mm, A - P, 2 * P, RW, 0), -EINVAL);   /* head */
	KCHECK_EQ(vm_add_area(mm, A + 3 * P, 2 * P, RW, 0), -EINVAL);  /* tail */
	KCHECK_EQ(vm_add_area(mm, A + P, P, RW, 0), -EINVAL);       /* inside */
	KCHECK_EQ(vm_add_area(mm, A - P, 6 * P, RW, 0), -EINVAL);   /* around */
	/* Neighbours merge when prot and flags agree, and only then. */
	KCHECK_EQ(vm_add_area(mm, A + 4 * P, P, RW, 0), 0);
	KCHECK_EQ(vm_add_area(mm, A - P, P, PROT_READ, 0), 0);
	KCHECK_EQ(vm_add_area(mm, A + 5 * P, P, RW, VMA_HEAP), 0);
	KCHECK_EQ(vm_add_area(mm, USER_BASE, P, PROT_NONE, 0), 0);
	KCHECK_EQ(vm_add_area(mm, USER_TOP - P, P, RW, VMA_STACK), 0);
	KCHECK_AREAS(mm, { USER_BASE, USER_BASE + P, PROT_NONE, 0 },
		     { A - P, A, PROT_READ, 0 }, { A, A + 5 * P, RW, 0 },
		     { A + 5 * P, A + 6 * P, RW, VMA_HEAP },
		     { USER_TOP - P, USER_TOP, RW, VMA_STACK });
}

/* ---- faults: demand zero, protection ---- */

VM_TEST(demand_zero_pages_read_as_zero)
{
	struct mm *mm = vm_new(c, mm_create());
	static uint8_t buf[P];
	uint32_t before;

	KCHECK(mm && vm_add_area(mm, A, 16 * P, RW, 0) == 0);
	vm_enter(mm);
	before = pmm_free_frames();
	for (uint32_t i = 0; i < 16; i++)
		KCHECK_EQ(get32(A + i * P + 4 * i), 0);
	KCHECK_EQ(mm->rss_pages, 16);
	KCHECK_EQ(pmm_free_frames(), before - 17);      /* 16 pages, 1 table */
	memset(buf, 0xff, sizeof(buf));
	KCHECK_EQ(copy_from_user(buf, A + 5 * P, P), 0);
	for (uint32_t i = 0; i < P; i++)
		KCHECK_EQ(buf[i], 0);
	/* Written and read back, across a page boundary too. */
	for (uint32_t i = 0; i < 16; i++)
		KCHECK_EQ(put32(A + i * P, 0x1000 + i), 0);
	KCHECK_EQ(put32(A + 2 * P - 2, 0xa1b2c3d4u), 0);
	for (uint32_t i = 3; i < 16; i++)
		KCHECK_EQ(get32(A + i * P), 0x1000 + i);
	KCHECK_EQ(get32(A + 2 * P - 2), 0xa1b2c3d4u);
	KCHECK_EQ(get32(A), 0x1000);
	/* The PTEs: present, user, writable (the area is, one user). */
	KCHECK_EQ(pte_of(mm, A) & (PTE_P | PTE_U | PTE_W), PTE_P | PTE_U | PTE_W);
	KCHECK_EQ(mm->rss_pages, 16);
}

VM_TEST(access_outside_areas_faults)
{
	struct mm *mm = vm_new(c, mm_create());
	uint32_t v = 0;

	KCHECK(mm && vm_add_area(mm, A, 2 * P, RW, 0) == 0);
	vm_enter(mm);
	KCHECK_EQ(get_user32(&v, 0), -EFAULT);                  /* NULL */
	KCHECK_EQ(get_user32(&v, A - 4), -EFAULT);
	KCHECK_EQ(get_user32(&v, A + 2 * P), -EFAULT);
	KCHECK_EQ(put_user32(A + 2 * P - 2, 1), -EFAULT);       /* straddles */
	KCHECK_EQ(get_user32(&v, USER_TOP), -EFAULT);           /* kernel */
	KCHECK_EQ(get_user32(&v, USER_TOP - 2), -EFAULT);
	KCHECK_EQ(put32(A + P, 5), 0);
	KCHECK_EQ(get32(A + P), 5);
	/* vm_fault itself, on the same mm. */
	KCHECK_EQ(vm_fault(mm, A - 1, false), -EFAULT);
	KCHECK_EQ(vm_fault(mm, 0, true), -EFAULT);
	KCHECK_EQ(vm_fault(mm, 0xFFFFFFFFu, false), -EFAULT);
	KCHECK_EQ(vm_fault(mm, A, true), 0);
	KCHECK_EQ(mm->rss_pages, 2);
}

VM_TEST(readonly_area_refuses_writes)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm);
	KCHECK_EQ(vm_add_area(mm, A, P, PROT_READ, 0), 0);
	KCHECK_EQ(vm_add_area(mm, A + 2 * P, P, PROT_EXEC, 0), 0);
	KCHECK_EQ(vm_add_area(mm, A + 4 * P, P, PROT_WRITE, 0), 0);
	vm_enter(mm);
	KCHECK_EQ(get32(A), 0);
	KCHECK_EQ(put32(A, 1), -EFAULT);
	KCHECK_EQ(pte_of(mm, A) & (PTE_P | PTE_W), PTE_P);
	KCHECK_EQ(get32(A), 0);
	KCHECK_EQ(vm_fault(mm, A, true), -EFAULT);
	/* i386 without PAE cannot refuse reads: exec-only reads, write-only
	 * reads and writes (as on Linux/i386). */
	KCHECK_EQ(get32(A + 2 * P), 0);
	KCHECK_EQ(put32(A + 2 * P, 1), -EFAULT);
	KCHECK_EQ(put32(A + 4 * P, 9), 0);
	KCHECK_EQ(get32(A + 4 * P), 9);
}

VM_TEST(prot_none_area_refuses_everything)
{
	struct mm *mm = vm_new(c, mm_create());

	KCHECK(mm && vm_add_area(mm, A, P, PROT_NONE, 0) == 0);
	vm_enter(mm);
	KCHECK_EQ(get32(A), 0xdeadbeefu);
	KCHECK_EQ(put32(A, 1), -EFAULT);
	KCHECK_EQ(vm_fault(mm, A, false), -EFAULT);
	KCHECK_EQ(mm->rss_pages, 0);
	KCHECK_EQ(vm_translate(mm, A, false), 0);
}

/* ---- exec's loading ---- */

VM_TEST(load_fills_pages_of_an_inactive_mm)
{
	struct mm *mm = vm_new(c, mm_create());
	static uint8_t img[5000], back[3 * P];

	for (uint32_t i = 0; i < sizeof(img); i++)
		img[i] = (uint8_t)(i * 7 + 1);
	KCHECK(mm);
	/* Text read-only and data read-write, adjacent, as exec makes them. */
	KCHECK_EQ(vm_add_area(mm, A, 2 * P, PROT_READ | PROT_EXEC, 0), 0);
	KCHECK_EQ(vm_add_area(mm, A + 2 * P, P, RW, 0), 0);
	KCHECK_EQ(vm_load(mm, A + 100, img, sizeof(img)), 0);
	KCHECK_EQ(vm_load(mm, A + 2 * P - 8, img, 16), 0);      /* two areas */
	KCHECK_EQ(vm_load(mm, A, img, 0), 0);
	KCHECK_EQ(vm_load(mm, A - P, img, 4), -EFAULT);
	KCHECK_EQ(vm_load(mm, A + 3 * P - 4, img, 8), -EFAULT); /* runs out */
	KCHECK_EQ(mm->rss_pages, 3);
	KCHECK(read_cr3() != V2P(mm->pgdir));
	vm_enter(mm);
	KCHECK_EQ(copy_from_user(back, A, sizeof(back)), 0);
	for (uint32_t i = 0; i < 100; i++)
		KCHECK_EQ(back[i], 0);
	KCHECK_EQ(memcmp(back + 100, img, sizeof(img)), 0);
	for (uint32_t i = 100 + sizeof(img); i < 2 * P - 8; i++)
		KCHECK_EQ(back[i], 0);
	KCHECK_EQ(memcmp(back + 2 * P - 8, img, 16), 0);
	for (uint32_t i = 2 * P + 8; i < 3 * P - 4; i++)
		KCHECK_EQ(back[i], 0);
	/* The text stays read-only for the program. */
	KCHECK_EQ(put32(A + 200, 0), -EFAULT);
	KCHECK_EQ(put32(A + 2 * P + 8, 3), 0);
}

