/* arch/i386/tlb.h - telling the other CPUs that run an address space
 * about a change to it. */
#ifndef ARCH_I386_TLB_H
#define ARCH_I386_TLB_H

#include "lib/types.h"

struct mm;

/* Runs fn(mm, start, end) on every other started CPU whose active_mm is
 * mm, from an IPI, and waits until all have. Call with interrupts on and
 * no spinlock that an IPI handler might need. */
void mm_cross_call(struct mm *mm, void (*fn)(struct mm *, uint32_t, uint32_t),
		   uint32_t start, uint32_t end);
/* Runs fn on every other started CPU, whatever address space it runs
 * (kernel mappings: kstack.c), and waits; the same rules. */
void tlb_shootdown_all(void (*fn)(struct mm *, uint32_t, uint32_t));
/* TLB shootdown: the other CPUs drop their entries for [start, end). */
void tlb_shootdown(struct mm *mm, uint32_t start, uint32_t end);
/* The IPI's handler (trap.c). */
void mm_cross_call_interrupt(void);

#endif
