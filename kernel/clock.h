/* kernel/clock.h - time: the timer tick and the TSC clock.
 *
 * The PIT interrupts HZ times a second (jiffies); the TSC, calibrated
 * against the PIT at boot, gives nanoseconds since boot. Under QEMU
 * -icount the TSC counts guest instructions, which is what make bench
 * relies on. */
#ifndef KERNEL_CLOCK_H
#define KERNEL_CLOCK_H

#include "lib/types.h"

#define HZ 100

void clock_init(void);              /* calibrate the TSC, start the tick */
uint64_t clock_ticks(void);         /* timer interrupts since clock_init */
uint64_t clock_ns(void);            /* TSC-based nanoseconds since boot */
uint64_t clock_tsc_hz(void);
/* CLOCK_REALTIME: ns since the epoch (kernel/time.c; file times). */
uint64_t clock_realtime_ns(void);        /* the calibrated TSC frequency */

/* Called from the timer interrupt: wakes timed sleepers and gives the
 * scheduler its tick. */
void clock_tick(void);

#endif
