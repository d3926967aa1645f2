/* tests/guest/ktest_vm.h - what the files of group vm share: user address
 * spaces (kernel/mm/vm.h) driven directly. A test builds an mm, adds
 * areas, loads it in CR3 as the running task's mm, and touches user
 * addresses from the kernel with copy_to_user/copy_from_user: the same
 * path a system call takes, so every page arrives through a real #PF and
 * vm_fault (demand zero, copy-on-write, protection).
 *
 * Every test runs inside vm_begin/vm_end: vm_end puts back the task's mm
 * and CR3, puts the test's address spaces, and checks that the free frame
 * count and every object cache's nr_inuse are EXACTLY what they were (no
 * page, page table, pgdir, vma or mm leaked), even when the test failed
 * half-way.
 *
 * The group's tests, in the order they run (the files link in name order):
 *   ktest_vm.c         creating and destroying, areas, faults, exec's loading
 *   ktest_vm_cow.c     copy-on-write, fork's copy and put
 *   ktest_vm_map.c     munmap, mprotect, mmap2, brk, futex translation
 *   ktest_vm_stress.c  running out of memory, many areas
 * and ktest_vm_ctx.c holds the context and the helpers declared here. */
#ifndef TESTS_GUEST_KTEST_VM_H
#define TESTS_GUEST_KTEST_VM_H

#include "tests/guest/ktest.h"
#include "kernel/task.h"
#include "kernel/printf.h"
#include "kernel/mm/vm.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/page.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/mmu_context.h"

/* The physical address the test's mm maps at uaddr (faulted in), or 0:
 * vm_translate_locked under the mm's lock. */
static inline uint32_t vm_translate(struct mm *mm, uint32_t uaddr, bool write)
{
	uint32_t pa;

	spin_lock(&mm->lock);
	pa = vm_translate_locked(mm, uaddr, write, NULL);
	spin_unlock(&mm->lock);
	return pa;
}
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
	struct mm *saved_active;        /* this CPU's active_mm at vm_begin */
	struct mm *mms[MAX_MMS];        /* put by vm_end if still set */
};

void vm_begin(struct vm_ctx *c);
/* A new mm that vm_end will put. */
struct mm *vm_new(struct vm_ctx *c, struct mm *mm);
/* Puts mm now (and forgets it). */
void vm_drop(struct vm_ctx *c, struct mm *mm);
/* Makes mm the running task's address space, as switch_to would. */
void vm_enter(struct mm *mm);
void vm_end(struct vm_ctx *c);

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

static inline int put32(uint32_t ua, uint32_t v) { return put_user32(ua, v); }

/* The word at ua, or 0xdeadbeef if reading faults. */
static inline uint32_t get32(uint32_t ua)
{
	uint32_t v;
	return get_user32(&v, ua) == 0 ? v : 0xdeadbeefu;
}

static inline uint32_t pte_of(struct mm *mm, uint32_t va)
{
	uint32_t *pte = pte_lookup(mm->pgdir, va);
	return pte ? *pte : 0;
}

static inline int refs_at(struct mm *mm, uint32_t va)
{
	uint32_t pte = pte_of(mm, va);
	return pte_has_page(pte) ? user_page_refs(pte_page(pte)) : 0;
}

static inline bool is_err(long r) { return (unsigned long)r >= (unsigned long)-4095; }

struct area {
	uint32_t start, end, prot, flags;
};

/* Does mm have exactly the areas want[0..n)? If not, prints them. */
bool areas_match(struct mm *mm, const struct area *want, int n);

#define KCHECK_AREAS(mm, ...) do { \
	const struct area _want[] = { __VA_ARGS__ }; \
	KCHECK(areas_match((mm), _want, (int)(sizeof(_want) / sizeof(_want[0])))); \
} while (0)

/* An address space with pages in three areas, two page tables. */
int build_busy_mm(struct mm *mm);

#endif
