/* arch/i386/mmu_context.c - switching this CPU's address space
 * (mmu_context.h). */
#include "arch/i386/mmu_context.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "arch/i386/x86.h"
#include "kernel/panic.h"
#include "kernel/mm/vm.h"

void switch_mm(struct mm *prev, struct mm *next)
{
	struct cpu *c = this_cpu();

	ASSERT(prev == c->active_mm);
	if (prev == next)
		return;
	/* First say so (a full barrier), then load: a shootdown that misses
	 * this CPU because it read the old active_mm is harmless, as the CR3
	 * load below happens after the change and flushes (tlb.c). */
	__atomic_store_n(&c->active_mm, next, __ATOMIC_SEQ_CST);
	write_cr3(V2P(next ? next->pgdir : kernel_pgdir));
	/* Two threads' address spaces may share no LDT pointer unless both
	 * have none: only then is the loaded one already right. */
	if (!next || !prev || prev->ldt != next->ldt)
		ldt_load(next, c);
}
