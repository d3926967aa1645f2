/* kernel/mm/vm.c - address spaces and their pages (vm.h): creating,
 * copying (fork, copy-on-write) and freeing a struct mm, page faults,
 * exec's loading, futex translation, and the page-level halves of munmap
 * and mprotect. The area list and the system calls' logic are in vma.c;
 * how an i386 writes a mapping down is arch/i386/pgtable.c.
 *
 * Locking: mm->lock is a plain spinlock, taken with interrupts enabled.
 * That is safe because no interrupt handler touches an address space and
 * the kernel is not preemptible (sched.h): the holder runs until it
 * unlocks. Nothing here touches user memory through user addresses while
 * holding it (a fault would take the lock again); pages are reached
 * through their kernel mapping (P2V). page_alloc/objcache_alloc take their
 * own irq-safe locks, so allocating under mm->lock is fine. */
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "arch/i386/tlb.h"
#include "arch/i386/mmu_context.h"
#include "kernel/mm/vm_internal.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/oom.h"
#include "kernel/mm/page.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/pgtable.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/task.h"         /* tasklist_lock, for mm_put */

static struct objcache mm_cache;
struct objcache vma_cache;

void vm_init(void)
{
	objcache_init(&mm_cache, "mm", sizeof(struct mm), 8);
	objcache_init(&vma_cache, "vma", sizeof(struct vma), 8);
}

/* Drops stale TLB entries for [start, end) of mm after its PTEs changed:
 * this CPU's, when it runs mm (mm_active_here), and every other CPU's
 * that does; the one place SMP TLB shootdown goes. */
static void vm_flush_range(struct mm *mm, uint32_t start, uint32_t end)
{
	/* This CPU, then every other CPU running one of mm's threads (an
	 * IPI, as Linux's flush_tlb_range), before the caller frees any
	 * frame that was mapped there. */
	if (mm_active_here(mm))
		tlb_flush_local(start, end);
	tlb_shootdown(mm, start, end);
}

/* ---- the lifetime of an address space ---- */

struct mm *mm_create(void)
{
	struct mm *mm = objcache_alloc(&mm_cache);

	if (!mm)
		return NULL;
	memset(mm, 0, sizeof(*mm));
	mm->pgdir = pgdir_create();
	if (!mm->pgdir) {
		objcache_free(&mm_cache, mm);
		return NULL;
	}
	mm->users = 1;
	mm->lock = (struct spinlock)SPINLOCK_INIT("mm");
	mm->mmap_base = USER_MMAP_BASE;
	return mm;
}

void mm_get(struct mm *mm)
{
	__atomic_add_fetch(&mm->users, 1, __ATOMIC_SEQ_CST);
}

void mm_put(struct mm *mm)
{
	uint32_t va = 0, *pte;

	if (__atomic_sub_fetch(&mm->users, 1, __ATOMIC_SEQ_CST) > 0)
		return;
	/* /proc/PID/stat and cmdline find another process's mm under
	 * tasklist_lock and take a reference with mm_get_unless_zero
	 * (compat/linux/fs/proc_pid.c). Its last user has stored another mm or
	 * NULL in task->mm already, so a reader that takes the lock from now
	 * on cannot find this one; one that holds it now may be about to
	 * look at users (and see 0): wait for it to let go before freeing. */
	tasklist_lock_grace();
	/* The last user: nobody else can reach mm, so no lock. The CPU must
	 * not be walking tables we are about to free. */
	if (mm_active_here(mm))
		switch_mm(mm, NULL);
	for (; (pte = pte_next_page(mm->pgdir, &va, USER_TOP)); va += PAGE_SIZE) {
		user_page_put(pte_page(*pte));
		*pte = 0;
	}
	pgdir_destroy(mm->pgdir);
	while (mm->vmas) {
		struct vma *v = mm->vmas;
		mm->vmas = v->next;
		objcache_free(&vma_cache, v);
	}
	kfree(mm->ldt);
	objcache_free(&mm_cache, mm);
}

/* ---- one page ---- */

/* The PTE area v gives the user page at kernel address page: present and
 * user unless PROT_NONE; writable only if the area is, and the page is
 * this mm's alone (or the area is VMA_SHARED). */
static uint32_t vm_pte_for(const struct vma *v, void *page)
{
	uint32_t pte = mk_pte(page);

	if (!(v->prot & PROT_ACCESS))
		return pte;             /* held, not present (pgtable.h) */
	pte = pte_mkpresent_user(pte);
	if ((v->prot & PROT_WRITE) &&
	    ((v->flags & VMA_SHARED) || user_page_refs(page) == 1))
		pte = pte_mkwrite(pte);
	return pte;
}

/* Makes the page at va (page aligned, inside v) ready for an access: a
 * zeroed page if there was none; with write, a page of this mm's own,
 * copying a copy-on-write page that others still map. Then writes the PTE
 * v calls for. Returns the page (kernel address) or NULL: out of memory. */
static void *page_make_ready(struct mm *mm, const struct vma *v, uint32_t va, bool write)
{
	uint32_t *pte = pte_alloc(mm->pgdir, va);
	uint32_t old;
	void *page, *copy;

	if (!pte)
		return NULL;
	old = *pte;
	if (!pte_has_page(old)) {
		/* Demand zero. A not-present PTE is never cached in the
		 * TLB, so nothing to flush (SDM 4.10.4.3). */
		page = user_page_alloc();
		if (!page)
			return NULL;
		mm->rss_pages++;
		*pte = vm_pte_for(v, page);
		return page;
	}
	page = pte_page(old);
	if (write && !(v->flags & VMA_SHARED) && user_page_refs(page) > 1) {
		/* Break copy-on-write: our mapping moves to a copy; the old
		 * frame is released only after the TLB forgot it. */
		copy = user_page_alloc();
		if (!copy)
			return NULL;
		memcpy(copy, page, PAGE_SIZE);
		*pte = vm_pte_for(v, copy);
		vm_flush_range(mm, va, va + PAGE_SIZE);
		user_page_put(page);
		return copy;
	}
	/* Present already: a sole user's COW page becomes writable, or
	 * another thread beat us to it, or the TLB was stale. The CPU's
	 * Accessed and Dirty bits are kept. Only a loss of rights must reach
	 * the other CPUs; a gain need not: a CPU still holding the old,
	 * weaker entry faults on it, finds the PTE already good and just
	 * drops its own stale entry here (SDM Vol. 3A 4.10.4.3). Without
	 * this, every futex key of a threaded process broadcast an IPI. */
	*pte = pte_keep_young_dirty(vm_pte_for(v, page), old);
	if (pte_rights_lost(old, *pte))
		vm_flush_range(mm, va, va + PAGE_SIZE);
	else
		tlb_flush_one_local(va);        /* a stale entry of this CPU's own */
	return page;
}

/* May the access use area v at all? */
static bool access_ok(const struct vma *v, bool write)
{
	return v && (v->prot & PROT_ACCESS) && (!write || (v->prot & PROT_WRITE));
}

static int vm_fault_once(struct mm *mm, uint32_t addr, bool write)
{
	uint32_t va = addr & ~(uint32_t)(PAGE_SIZE - 1);
	struct vma *v;
	int err = 0;

	spin_lock(&mm->lock);
	v = vma_find(mm, addr);
	if (!access_ok(v, write))
		err = -EFAULT;
	else if (!page_make_ready(mm, v, va, write))
		err = -ENOMEM;
	spin_unlock(&mm->lock);
	return err;
}

bool vm_fault_done(int err, bool user)
{
	return err == 0 || (err == -ENOMEM && user && current->group_exiting);
}

int vm_fault(struct mm *mm, uint32_t addr, bool write)
{
	int err;

	/* No page: the out-of-memory policy kills the largest process and
	 * we try again, until it says to give up (kernel/mm/oom.h). */
	while ((err = vm_fault_once(mm, addr, write)) == -ENOMEM && out_of_memory())
		;
	return err;
}

uint32_t vm_translate_locked(struct mm *mm, uint32_t uaddr, bool write, bool *shared)
{
	uint32_t va = uaddr & ~(uint32_t)(PAGE_SIZE - 1);
	struct vma *v = vma_find(mm, uaddr);
	void *page;

	/* mm->lock held: vma_find, above, asserts it. */
	/* Faulting the page in, as Linux's get_user_pages does for futexes:
	 * the address must be that of the page the task really uses. */
	if (!access_ok(v, write) || !(page = page_make_ready(mm, v, va, write)))
		return 0;
	if (shared)
		*shared = v->flags & VMA_SHARED;
	return V2P(page) + (uaddr - va);
}

int vm_load(struct mm *mm, uint32_t uaddr, const void *src, uint32_t n)
{
	const uint8_t *s = src;

	while (n > 0) {
		uint32_t va = uaddr & ~(uint32_t)(PAGE_SIZE - 1), off = uaddr - va;
		uint32_t chunk = PAGE_SIZE - off < n ? PAGE_SIZE - off : n;
		struct vma *v;
		uint8_t *page;
		int err = 0;

		spin_lock(&mm->lock);
		v = vma_find(mm, uaddr);
		/* Protection is ignored (exec fills read-only text), but
		 * the write goes to a page of this mm's own. */
		if (!v)
			err = -EFAULT;
		else if (!(page = page_make_ready(mm, v, va, true)))
			err = -ENOMEM;
		else
			memcpy(page + off, s, chunk);
		spin_unlock(&mm->lock);
		if (err)
			return err;
		uaddr += chunk;
		s += chunk;
		n -= chunk;
	}
	return 0;
}

/* ---- ranges of pages: munmap and mprotect ---- */

/* Frames to free once the TLB has forgotten them (Linux's mmu_gather):
 * on SMP another CPU may still write through a stale entry until the
 * flush, so a frame is only freed after it. A page table is tagged by
 * setting bit 0 of its (page-aligned) address. */
#define UNMAP_BATCH 32

struct unmap_batch {
	struct mm *mm;
	uint32_t start, end;
	int n;
	void *frames[UNMAP_BATCH];
};

static void batch_finish(struct unmap_batch *b)
{
	vm_flush_range(b->mm, b->start, b->end);
	for (int i = 0; i < b->n; i++) {
		uintptr_t f = (uintptr_t)b->frames[i];
		if (f & 1)
			page_free((void *)(f & ~(uintptr_t)1), 0);
		else
			user_page_put((void *)f);
	}
	b->n = 0;
}

static void batch_add(struct unmap_batch *b, void *frame)
{
	if (b->n == UNMAP_BATCH)
		batch_finish(b);
	b->frames[b->n++] = frame;
}

void vm_unmap_pages(struct mm *mm, uint32_t start, uint32_t end, bool free_tables)
{
	struct unmap_batch b = { .mm = mm, .start = start, .end = end, .n = 0 };
	uint32_t va = start, *pte, *table;

	ASSERT(spin_held(&mm->lock));
	for (; (pte = pte_next_page(mm->pgdir, &va, end)); va += PAGE_SIZE) {
		batch_add(&b, pte_page(*pte));
		*pte = 0;
		mm->rss_pages--;
	}
	/* Page tables left with nothing in them go too. end <= USER_TOP,
	 * so va never wraps. */
	for (va = start & ~(uint32_t)(PGDIR_SIZE - 1); free_tables && va < end; va += PGDIR_SIZE)
		if ((table = pgtable_detach_if_empty(mm->pgdir, va)))
			batch_add(&b, (uint8_t *)table + 1);
	batch_finish(&b);
}

void vm_protect_pages(struct mm *mm, const struct vma *v, uint32_t start, uint32_t end)
{
	uint32_t va = start, *pte;

	ASSERT(spin_held(&mm->lock));
	for (; (pte = pte_next_page(mm->pgdir, &va, end)); va += PAGE_SIZE)
		*pte = vm_pte_for(v, pte_page(*pte));
	vm_flush_range(mm, start, end);
}

/* ---- fork ---- */

/* Shares every page of area v between src and dst. A private page
 * becomes read-only in both, counted once more (copy-on-write); a
 * VMA_SHARED area is first filled in completely, so that both see the
 * same frames for the pages not yet touched too. */
static int copy_area_pages(struct mm *dst, struct mm *src, const struct vma *v)
{
	uint32_t va, *spte, *dpte;

	if (v->flags & VMA_SHARED)
		for (va = v->start; va < v->end; va += PAGE_SIZE)
			if (!page_make_ready(src, v, va, false))
				return -ENOMEM;
	for (va = v->start; (spte = pte_next_page(src->pgdir, &va, v->end)); va += PAGE_SIZE) {
		if (!(dpte = pte_alloc(dst->pgdir, va)))
			return -ENOMEM;
		if (!(v->flags & VMA_SHARED))
			*spte = pte_wrprotect(*spte);
		user_page_get(pte_page(*spte));
		*dpte = *spte;
		dst->rss_pages++;
	}
	return 0;
}

struct mm *mm_copy(struct mm *src)
{
	struct mm *mm = mm_create();
	struct vma **tail, *c;
	int err = 0;

	if (!mm)
		return NULL;
	spin_lock(&src->lock);
	mm->brk_start = src->brk_start;
	mm->brk = src->brk;
	mm->mmap_base = src->mmap_base;
	/* The LDT is not copied here: fork calls ldt_dup (arch/i386/ldt.c). */
	tail = &mm->vmas;
	for (const struct vma *v = src->vmas; v && !err; v = v->next) {
		if (!(c = objcache_alloc(&vma_cache))) {
			err = -ENOMEM;
			break;
		}
		*c = *v;
		c->next = NULL;
		*tail = c;
		tail = &c->next;
		err = copy_area_pages(mm, src, v);
	}
	/* The parent's writable entries are read-only now. */
	vm_flush_range(src, 0, USER_TOP);
	spin_unlock(&src->lock);
	if (err) {
		/* Every page the child maps was counted: mm_put undoes it
		 * all; the parent keeps read-only PTEs, which its next write
		 * fault makes writable again (a sole user). */
		mm_put(mm);
		return NULL;
	}
	return mm;
}
