/* kernel/chaos_hooks.h - the schedule seeds' hooks as the full kernel
 * builds them (CONFIG_CHAOS); kernel/chaos.h documents them and is what
 * the code includes. */
#ifndef KERNEL_CHAOS_HOOKS_H
#define KERNEL_CHAOS_HOOKS_H

#include "lib/types.h"

extern bool chaos_on;
/* clock_init, on the boot CPU before any tick: reads chaos= from the
 * command line (bootinfo.cmdline.chaos), says so on the console and
 * draws the boot CPU's first period. */
void chaos_init(void);
/* Every CPU's tick, interrupts off, and ap_main once its timer is
 * started: draws this CPU's next tick period and delay. */
void chaos_tick_slow(void);
#define chaos_tick() do { if (chaos_on) chaos_tick_slow(); } while (0)
/* enqueue (kernel/sched.c), run-queue lock held: whether the task goes
 * to the front of the queue rather than the back (true one time in two
 * under a seed; never without one). */
bool chaos_wake_first_slow(void);
#define chaos_wake_first() (__builtin_expect(chaos_on, 0) && chaos_wake_first_slow())
/* spin_unlock (arch/i386/spinlock.h), after the release: a pause, at one
 * release in a few under a seed; the flag's test without one. */
void chaos_unlock_point(void);
#define CHAOS_UNLOCK_POINT() \
	do { if (__builtin_expect(chaos_on, 0)) chaos_unlock_point(); } while (0)
/* The seed's points at the tracer's events: chaos_point, declared with
 * the tracer's hooks (kernel/trace_events.h), its only caller. */

#endif
