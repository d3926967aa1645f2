/* tests/guest/ktest_vm.c - group vm: user address spaces (kernel/mm/vm.h)
 * driven directly. A test builds an mm, adds areas, loads it in CR3 as
 * the running task's mm, and touches user addresses from the kernel with
 * copy_to_user/copy_from_user: the same path a system call takes, so every
 * page arrives through a real #PF and vm_fault (demand zero, copy-on-
 * write, protection).
 *
 * Every test runs inside vm_begin/vm_end: vm_end puts back the task's mm
 * and CR3, puts the test's address spaces, and checks that the free frame
 * count and every object cache's nr_inuse are EXACTLY what they were (no
 * page, page table, pgdir, vma or mm leaked), even when the test failed
 * half-way. */
#include "kernel/ktest.h"
#include "kernel/task.h"
#include "kernel/printf.h"
#include "kernel/mm/vm.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/page.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/paging.h"
#include "arch/i386/pgtable.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/x86.h"
#include "lib/errno.h"
#include "lib/string.h"

#define P PAGE_SIZE
#define A 0x10000000u           /* where most tests put their areas */
#define RW (PROT_READ | PROT_WRITE)
#define ANON_PRIVATE (MAP_ANONYMOUS | MAP_PRIVATE)
#define MAX_CACHES 32
#define MAX_MMS 4

struct vm_ctx {
	uint32_t free_frames;
	int ncaches;
	struct objcache *cache[MAX_CACHES];
	uint32_t inuse[MAX_CACHES];
	struct mm *saved_mm;
	uint32_t saved_cr3;
	struct mm *mms[MAX_MMS];        /* put by vm_end if still set */
};

static void vm_begin(struct vm_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->free_frames = pmm_free_frames();
	for (struct objcache *oc = kmem_caches(); oc && c->ncaches < MAX_CACHES; oc = oc->next) {
		c->cache[c->ncaches] = oc;
		c->inuse[c->ncaches++] = oc->nr_inuse;
	}
	c->saved_cr3 = read_cr3();
	if (current)
		c->saved_mm = current->mm;
}

/* A new mm that vm_end will put. */
static struct mm *vm_new(struct vm_ctx *c, struct mm *mm)
{
	for (int i = 0; i < MAX_MMS; i++)
		if (!c->mms[i]) {
			c->mms[i] = mm;
			return mm;
		}
	ktest_fail(__FILE__, __LINE__, "too many mms in one test");
	return mm;
}

/* Puts mm now (and forgets it). */
static void vm_drop(struct vm_ctx *c, struct mm *mm)
{
	for (int i = 0; i < MAX_MMS; i++)
		if (c->mms[i] == mm)
			c->mms[i] = NULL;
	mm_put(mm);
}

/* Makes mm the running task's address space, as switch_to would. */
static void vm_enter(struct mm *mm)
{
	current->mm = mm;
	mm_activate(mm);
}

static void vm_end(struct vm_ctx *c)
{
	if (current)
		current->mm = c->saved_mm;
	write_cr3(c->saved_cr3);
	for (int i = 0; i < MAX_MMS; i++)
		if (c->mms[i])
			mm_put(c->mms[i]);
	if (pmm_free_frames() != c->free_frames)
		ktest_fail(__FILE__, __LINE__, "free frames %u, were %u",
			   pmm_free_frames(), c->free_frames);
	for (int i = 0; i < c->ncaches; i++)
		if (c->cache[i]->nr_inuse != c->inuse[i])
			ktest_fail(__FILE__, __LINE__, "cache %s: %u in use, were %u",
				   c->cache[i]->name, c->cache[i]->nr_inuse, c->inuse[i]);
}

/* A test body gets the context; the wrapper always cleans up and checks. */
#define VM_TEST(name) \
	static void vm_test_##name(struct vm_ctx *c); \
	KTEST(vm, name) \
	{ \
		struct vm_ctx ctx; \
		vm_begin(&ctx); \
		if (!current) \
			ktest_fail(__FILE__, __LINE__, "no current task (task_init)"); \
		else \
			vm_test_##name(&ctx); \
		vm_end(&ctx); \
	} \
	static void vm_test_##name(struct vm_ctx *c)

/* ---- helpers ---- */

static int put32(uint32_t ua, uint32_t v) { return put_user32(ua, v); }

/* The word at ua, or 0xdeadbeef if reading faults. */
static uint32_t get32(uint32_t ua)
{
	uint32_t v;
	return get_user32(&v, ua) == 0 ? v : 0xdeadbeefu;
}

static uint32_t pte_of(struct mm *mm, uint32_t va)
{
	uint32_t *pte = pte_lookup(mm->pgdir, va);
	return pte ? *pte : 0;
}

static int refs_at(struct mm *mm, uint32_t va)
{
	uint32_t pte = pte_of(mm, va);
	return pte_has_page(pte) ? user_page_refs(pte_page(pte)) : 0;
}

static bool is_err(long r) { return (unsigned long)r >= (unsigned long)-4095; }

struct area {
	uint32_t start, end, prot, flags;
};

static bool areas_match(struct mm *mm, const struct area *want, int n)
{
	const struct vma *v = mm->vmas;
	int i;

	for (i = 0; i < n && v; i++, v = v->next)
		if (v->start != want[i].start || v->end != want[i].end ||
		    v->prot != want[i].prot || v->flags != want[i].flags)
			break;
	if (i == n && !v)
		return true;
	kprintf("  areas:");
	for (v = mm->vmas; v; v = v->next)
		kprintf(" [%08x,%08x) p%u f%u", v->start, v->end, v->prot, v->flags);
	kprintf("\n");
	return false;
}

#define KCHECK_AREAS(mm, ...) do { \
	const struct area _want[] = { __VA_ARGS__ }; \
	KCHECK(areas_match((mm), _want, (int)(sizeof(_want) / sizeof(_want[0])))); \
} while (0)

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
	mm_activate(NULL);
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
	mm_activate(NULL);
	vm_drop(c, a);                                          /* a goes first */
	KCHECK_EQ(refs_at(g, A), 1);
	vm_enter(g);
	KCHECK_EQ(get32(A), 1);
	KCHECK_EQ(put32(A, 3), 0);
	vm_enter(b);
	KCHECK_EQ(get32(A), 2);
}

/* An address space with pages in three areas, two page tables. */
static int build_busy_mm(struct mm *mm)
{
	int err = vm_add_area(mm, A, 8 * P, RW, 0);

	if (!err)
		err = vm_add_area(mm, A + 16 * P, 2 * P, PROT_READ, 0);
	if (!err)
		err = vm_add_area(mm, 0x20000000u, 4 * P, RW, 0);
	if (err)
		return err;
	vm_enter(mm);
	for (uint32_t i = 0; i < 8; i++)
		if (put32(A + i * P, i))
			return -EFAULT;
	for (uint32_t i = 0; i < 4; i += 2)
		if (put32(0x20000000u + i * P, i))
			return -EFAULT;
	return get32(A + 16 * P) == 0 ? 0 : -EFAULT;
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
