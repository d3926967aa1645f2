/* arch/i386/tlb.c - cross-CPU calls for an address space: TLB shootdown
 * and LDT reloads.
 *
 * Each CPU caches translations in its own TLB, and a change to a page
 * table is not seen by the others until they flush (Intel SDM Vol. 3A
 * 4.10.5, "Propagation of Paging-Structure Changes to Multiple
 * Processors"): the changing CPU must interrupt every CPU that may hold
 * the old entry and wait for it to flush, before the old page is reused.
 * Those are the CPUs whose active_mm is the address space (cpu.h).
 *
 * One call at a time (call_lock); the caller spins with interrupts on, so
 * a CPU waiting for call_lock still answers the current call's IPI. */
#include "arch/i386/tlb.h"
#include "arch/i386/cpu.h"
#include "arch/i386/lapic.h"
#include "arch/i386/pgtable.h"
#include "arch/i386/smp.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/x86.h"
#include "kernel/panic.h"

static struct spinlock call_lock = SPINLOCK_INIT("mm cross-call");
static struct {
	bool all;                       /* every CPU, whatever its mm */
	struct mm *mm;
	void (*fn)(struct mm *, uint32_t, uint32_t);
	uint32_t start, end;
	volatile int pending;           /* CPUs that have not answered */
} call;

static void cross_call(bool all, struct mm *mm,
		       void (*fn)(struct mm *, uint32_t, uint32_t), uint32_t start, uint32_t end)
{
	/* LAB 8: BEGIN SOLUTION */
	int self, targets[NR_CPUS], n = 0;

	if (ncpus == 1)
		return;
	if (!(read_eflags() & EFLAGS_IF))
		panic("mm_cross_call: called with interrupts off (could deadlock)");
	spin_lock(&call_lock);
	/* The page-table change is done; read active_mm only after it. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	self = this_cpu()->id;
	for (int i = 0; i < NR_CPUS; i++)
		if (i != self && cpus[i].started &&
		    (all || __atomic_load_n(&cpus[i].active_mm, __ATOMIC_SEQ_CST) == mm))
			targets[n++] = i;
	if (n) {
		call.all = all;
		call.mm = mm;
		call.fn = fn;
		call.start = start;
		call.end = end;
		__atomic_store_n(&call.pending, n, __ATOMIC_SEQ_CST);
		for (int i = 0; i < n; i++)
			smp_send_ipi(targets[i], T_IPI_TLB);
		while (__atomic_load_n(&call.pending, __ATOMIC_ACQUIRE))
			pause();
	}
	spin_unlock(&call_lock);
	/* LAB 8: END SOLUTION */
#if 0 /* LAB 8: STUB */
	/* Lab 8: interrupt every other started CPU that runs mm (or every
	 * one, if all) with T_IPI_TLB and wait until each has run fn
	 * (docs/labs/lab8-tlb.md). Doing nothing leaves their TLBs stale. */
	(void)all;
	(void)mm;
	(void)fn;
	(void)start;
	(void)end;
	(void)call_lock;
#endif /* LAB 8: END STUB */
}

void mm_cross_call(struct mm *mm, void (*fn)(struct mm *, uint32_t, uint32_t),
		   uint32_t start, uint32_t end)
{
	cross_call(false, mm, fn, start, end);
}

void tlb_shootdown_all(void (*fn)(struct mm *, uint32_t, uint32_t))
{
	cross_call(true, NULL, fn, 0, 0);
}

void mm_cross_call_interrupt(void)
{
	/* A CPU that switched away meanwhile has nothing to do: its next
	 * switch to mm loads CR3 (and the LDT) afresh. */
	if (call.all || this_cpu()->active_mm == call.mm)
		call.fn(call.mm, call.start, call.end);
	__atomic_sub_fetch(&call.pending, 1, __ATOMIC_RELEASE);
}

static void flush_range(struct mm *mm, uint32_t start, uint32_t end)
{
	(void)mm;
	tlb_flush_local(start, end);
}

void tlb_shootdown(struct mm *mm, uint32_t start, uint32_t end)
{
	mm_cross_call(mm, flush_range, start, end);
}
