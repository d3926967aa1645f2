/* kernel/clock.h - time: the timer tick and the TSC clock.
 *
 * Every CPU takes a tick HZ times a second (arch/i386/timer.h says from
 * which chip), and calls clock_tick(); the boot CPU's count the ticks
 * (jiffies). The TSC, calibrated against the PIT at boot, gives
 * nanoseconds since boot. Under QEMU
 * -icount the TSC counts guest instructions, which is what make bench
 * relies on. */
#ifndef KERNEL_CLOCK_H
#define KERNEL_CLOCK_H

#include "lib/types.h"

#define HZ 100

void clock_init(void);              /* calibrate the TSC, start the tick */
uint64_t clock_ticks(void);         /* the boot CPU's ticks since clock_init */
uint64_t clock_ns(void);            /* TSC-based nanoseconds since boot */
uint64_t clock_tsc_hz(void);        /* the calibrated TSC frequency */

/* Called from the timer interrupt, on every CPU: gives the scheduler its
 * tick; on the boot CPU also counts it and wakes timed sleepers. */
void clock_tick(void);

#endif
