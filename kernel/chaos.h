/* kernel/chaos.h - schedule seeds: `chaos=SEED` on the kernel command
 * line perturbs the schedule deterministically from SEED (docs/races.md).
 *
 * Under QEMU's instruction counting (`make race`, `make replay`) a run is
 * a function of the kernel, the initrd, the command line and the input:
 * the same run every time, so a race that hides at the default schedule
 * hides every time. A seed moves the schedule: each CPU's next tick comes
 * after a pseudo-random fraction of a tick period, and some ticks, and
 * some of the tracer's events (wake-ups, IPIs, switches...), hold their
 * CPU in a pseudo-random delay first (kernel/chaos.c). QEMU switches
 * between virtual CPUs at the timers' deadlines, so both move where one
 * CPU stops and another runs. Each CPU draws from its own generator,
 * seeded from SEED and its number, in its own tick: the same seed gives
 * the same numbers at the same points, hence the same run.
 *
 * Off by default. The chaos engine is the full kernel's (CONFIG_CHAOS,
 * Makefile), as the tracer is; in the seed kernel the hooks below
 * compile to nothing. With chaos off the tick pays one load, a test and
 * a branch; the event points are reached through the tracer's hooks
 * (trace_hooks_on), which cost what they cost without seeds. */
#ifndef KERNEL_CHAOS_H
#define KERNEL_CHAOS_H

#ifdef CONFIG_CHAOS
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
/* The seed's points at the tracer's events: chaos_point, declared with
 * the tracer's hooks (kernel/trace_events.h), its only caller. */
#else
#define chaos_init() do { } while (0)
#define chaos_tick() do { } while (0)
#endif

#endif
