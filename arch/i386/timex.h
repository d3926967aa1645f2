/* arch/i386/timex.h - a cycle counter, as Linux's asm/timex.h.
 *
 * What it hides: the TSC and rdtsc (SDM Vol. 3B 17.17). Under QEMU
 * -icount the TSC counts guest instructions, which make bench relies on
 * (kernel/clock.c turns it into nanoseconds). */
#ifndef ARCH_I386_TIMEX_H
#define ARCH_I386_TIMEX_H

#include "lib/types.h"
#include "arch/i386/x86.h"

/* A counter that only grows, at a fixed rate (cycles_calibrate_hz,
 * timer.h, measures it; kernel/clock.c keeps it: clock_tsc_hz), the same
 * on every CPU of one machine. Cheap: for
 * clocks and for mixing into random numbers. */
static inline uint64_t get_cycles(void)
{
	return rdtsc();
}

#endif
