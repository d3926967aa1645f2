/* arch/i386/mmu_context.h - which address space this CPU runs, as
 * Linux's asm/mmu_context.h: the one owner of CR3, of cpu->active_mm and
 * of the LDT register.
 *
 * The rule it keeps (cpu.h): this CPU's active_mm is the struct mm whose
 * page directory CR3 holds (NULL: kernel_pgdir), and the LDT loaded is
 * that mm's. TLB shootdown (tlb.c) reads other CPUs' active_mm to know
 * which must flush, so active_mm is written before CR3 (switch_mm). No
 * other code writes CR3 with a different directory, nor active_mm. */
#ifndef ARCH_I386_MMU_CONTEXT_H
#define ARCH_I386_MMU_CONTEXT_H

#include "lib/types.h"
#include "arch/i386/cpu.h"

struct mm;

/* Makes next this CPU's address space: active_mm, CR3 (kernel_pgdir for
 * NULL: a kernel thread or a task that gave its mm up runs on no user
 * page directory that another CPU might free) and, if it differs,
 * next's LDT. prev must be the address space this CPU runs now (checked);
 * prev == next does nothing, as loading CR3 would flush every non-global
 * TLB entry (SDM Vol. 3A 4.10.4.1). Called by switch_to, exec (the new
 * program's mm), exit (NULL, before the mm may be freed) and mm_put. */
void switch_mm(struct mm *prev, struct mm *next);

/* Is mm the address space this CPU runs? Then a change to mm's page
 * tables must flush this CPU's TLB too (vm_flush_range), and the last
 * mm_put must first switch this CPU off it. */
static inline bool mm_active_here(const struct mm *mm)
{
	return this_cpu()->active_mm == mm;
}

/* Loads mm's LDT (or none) into this CPU's GDT entry 15 and LDTR
 * (ldt.c): switch_mm, and modify_ldt for the caller's own table. */
void ldt_load(struct mm *mm, struct cpu *c);

#endif
