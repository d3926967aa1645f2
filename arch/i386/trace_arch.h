/* arch/i386/trace_arch.h - what the event tracer (kernel/trace.c) needs
 * from the CPU: a clock and the TLS descriptors a switch loads.
 *
 * The clock is the time-stamp counter (Intel SDM Vol. 3B section 17.17):
 * one instruction, no lock, per CPU. QEMU's -icount makes it advance with
 * the instruction count, so a trace made under icount is the same from
 * run to run; the host tool turns cycles into microseconds with
 * clock_tsc_hz(), which the dump prints. */
#ifndef ARCH_I386_TRACE_ARCH_H
#define ARCH_I386_TRACE_ARCH_H

#include "lib/types.h"
#include "arch/i386/cpu.h"
#include "arch/i386/x86.h"

struct thread_struct;

static inline uint64_t arch_trace_clock(void)
{
	return rdtsc();
}

/* Interrupts off on this CPU, and back as they were: an event is written
 * by its own CPU with interrupts off, so an interrupt handler's event
 * cannot land in the middle of it, and no lock is needed. */
static inline uint32_t arch_trace_irq_save(void)
{
	uint32_t flags = read_eflags();

	cli();
	return flags;
}

static inline void arch_trace_irq_restore(uint32_t flags)
{
	if (flags & EFLAGS_IF)
		sti();
}

/* This CPU's index (interrupts off, so it cannot change under us). */
static inline int arch_trace_cpu(void)
{
	return this_cpu()->id;
}

/* The bases of t's three TLS descriptors (GDT entries 6, 7, 8, which
 * load_TLS copies into the CPU's GDT) in base[0..2], and a mask of the
 * slots that are not empty (bit i: entry 6 + i), as the return value. */
unsigned arch_trace_tls(const struct thread_struct *t, uint32_t base[3]);

#endif
