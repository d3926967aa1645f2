/* arch/i386/kstack.c - the guarded kernel stack area (kstack.h).
 *
 * A slot is free, in use, or dirty: freed, its pages unmapped and given
 * back, but maybe still in another CPU's TLB (only this CPU's entries
 * were flushed at the free: an IPI for every thread that exits would be
 * too dear). A dirty slot is not handed out again until every CPU has
 * flushed its TLB, which happens in one cross-call when no clean slot is
 * left: with thousands of slots, rarely. */
#include "arch/i386/kstack.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "arch/i386/pgtable.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/tlb.h"
#include "arch/i386/x86.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "lib/string.h"

#define MAX_SLOTS ((KSTACK_AREA_END - KERNBASE) / KSTACK_SLOT)
#define WORDS (MAX_SLOTS / 32)

static uint32_t area_start, nslots, inuse, hint;
/* 1 = in use / dirty / dirty, and a flush of every TLB under way */
static uint32_t used[WORDS], dirty[WORDS], flushing[WORDS];
static uint32_t *ptes;                          /* the area's PTEs, in a row */
static struct spinlock lock = SPINLOCK_INIT("kstack area");

void kstack_area_init(uint32_t ram_top)
{
	uint32_t top = KERNBASE + ((ram_top + PGDIR_SIZE - 1) & ~(uint32_t)(PGDIR_SIZE - 1));
	uint32_t ntables;

	if (ram_top >= KSTACK_AREA_END - KERNBASE)
		panic("kstack: no addresses left for the stack area above %u MiB of RAM",
		      ram_top >> 20);
	area_start = top;
	nslots = (KSTACK_AREA_END - top) / KSTACK_SLOT;
	if (nslots > ram_top / KSTACK_SIZE)
		nslots = ram_top / KSTACK_SIZE;
	nslots &= ~31u;
	ntables = (nslots * KSTACK_SLOT + PGDIR_SIZE - 1) / PGDIR_SIZE;
	/* The page tables, contiguous, so that the PTE of slot i's page j
	 * is ptes[i * 4 + j]; zeroed: nothing mapped yet. */
	ptes = pmm_alloc_boot(ntables * PAGE_SIZE);
	for (uint32_t i = 0; i < ntables; i++)
		kernel_pgdir[(top >> PGDIR_SHIFT) + i] =
			(uint32_t)V2P(ptes + i * 1024) | PTE_P | PTE_W;
	write_cr3(read_cr3());
	kprintf("kstack: %u guarded stacks at 0x%08x-0x%08x (%u page tables)\n", nslots,
		area_start, area_start + nslots * KSTACK_SLOT, ntables);
}

static uint32_t slot_stack(uint32_t i)
{
	return area_start + i * KSTACK_SLOT + 2 * PAGE_SIZE;
}

/* A slot neither in use nor dirty, marked in use, or -1. lock held. */
static int take_clean_locked(void)
{
	ASSERT(spin_held(&lock));
	for (uint32_t n = 0; n < nslots / 32; n++) {
		uint32_t w = (hint + n) % (nslots / 32);
		uint32_t avail = ~(used[w] | dirty[w] | flushing[w]);
		if (avail) {
			uint32_t i = w * 32 + (uint32_t)__builtin_ctz(avail);
			used[w] |= 1u << (i % 32);
			hint = w;
			return (int)i;
		}
	}
	return -1;
}

static bool any_dirty_locked(void)
{
	ASSERT(spin_held(&lock));
	for (uint32_t w = 0; w < nslots / 32; w++)
		if (dirty[w])
			return true;
	return false;
}

static void flush_all(struct mm *mm, uint32_t start, uint32_t end)
{
	(void)mm;
	(void)start;
	(void)end;
	write_cr3(read_cr3());          /* every non-global entry goes */
}

void *kstack_alloc(void)
{
	void *pg[2] = { page_alloc(0), page_alloc(0) };
	uint32_t flags, va;
	int i;

	if (!pg[0] || !pg[1])
		goto fail;
	flags = spin_lock_irqsave(&lock);
	i = take_clean_locked();
	if (i < 0 && any_dirty_locked() && (flags & EFLAGS_IF)) {
		/* Every CPU forgets the freed stacks, then they are clean.
		 * Any flush that starts after a slot became "flushing" covers
		 * it, so whoever finishes one cleans them all. */
		for (uint32_t w = 0; w < nslots / 32; w++) {
			flushing[w] |= dirty[w];
			dirty[w] = 0;
		}
		spin_unlock_irqrestore(&lock, flags);
		flush_all(NULL, 0, 0);
		tlb_shootdown_all(flush_all);
		flags = spin_lock_irqsave(&lock);
		memset(flushing, 0, sizeof(uint32_t) * (nslots / 32));
		i = take_clean_locked();
	}
	if (i >= 0)
		inuse++;
	spin_unlock_irqrestore(&lock, flags);
	if (i < 0)
		goto fail;
	/* A not-present PTE is never in a TLB (SDM Vol. 3A 4.10.2.3): no
	 * flush for mapping. */
	va = slot_stack((uint32_t)i);
	ptes[i * 4 + 2] = (uint32_t)V2P(pg[0]) | PTE_P | PTE_W;
	ptes[i * 4 + 3] = (uint32_t)V2P(pg[1]) | PTE_P | PTE_W;
	return (void *)va;
fail:
	if (pg[0])
		page_free(pg[0], 0);
	if (pg[1])
		page_free(pg[1], 0);
	return NULL;
}

void kstack_free(void *stack)
{
	uint32_t va = (uint32_t)stack, i = (va - area_start) / KSTACK_SLOT, flags;
	void *pg[2];

	if (va < area_start || i >= nslots || va != slot_stack(i) ||
	    !(used[i / 32] & (1u << (i % 32))))
		panic("kstack_free: %p is not a stack in use", stack);
	for (int j = 0; j < 2; j++) {
		pg[j] = P2V(ptes[i * 4 + 2 + j] & ~(uint32_t)(PAGE_SIZE - 1));
		ptes[i * 4 + 2 + j] = 0;
		invlpg(va + (uint32_t)j * PAGE_SIZE);
	}
	page_free(pg[0], 0);
	page_free(pg[1], 0);
	flags = spin_lock_irqsave(&lock);
	used[i / 32] &= ~(1u << (i % 32));
	dirty[i / 32] |= 1u << (i % 32);
	inuse--;
	spin_unlock_irqrestore(&lock, flags);
}

uint32_t kstack_inuse(void)
{
	return __atomic_load_n(&inuse, __ATOMIC_RELAXED);
}

bool kstack_guard_hit(uint32_t addr, uint32_t *stack)
{
	uint32_t i = (addr - area_start) / KSTACK_SLOT;

	if (addr < area_start || i >= nslots || addr >= slot_stack(i))
		return false;
	*stack = slot_stack(i);
	return true;
}
