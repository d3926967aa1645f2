/* kernel/chaos.h - schedule seeds: `chaos=SEED` on the kernel command
 * line perturbs the schedule deterministically from SEED (docs/races.md).
 *
 * Under QEMU's instruction counting (`make race`, `make replay`) a run is
 * a function of the kernel, the initrd, the command line and the input:
 * the same run every time, so a race that hides at the default schedule
 * hides every time. A seed moves the schedule: each CPU's next tick comes
 * after a pseudo-random fraction of a tick period, and some ticks, and
 * some of the tracer's events (wake-ups, IPIs, switches...), hold their
 * CPU in a pseudo-random delay first, or end its turn; so may a spinlock's
 * release; reschedules are asked for at random, and woken tasks queue in
 * another order (kernel/chaos.c). QEMU switches between virtual CPUs at
 * the timers' deadlines and at a PAUSE, so all of these move where one
 * CPU stops and another runs. Each CPU draws from its own generator,
 * seeded from SEED and its number, in its own tick: the same seed gives
 * the same numbers at the same points, hence the same run.
 *
 * Off by default. The chaos engine is the full kernel's (CONFIG_CHAOS,
 * Makefile), as the tracer is, and so are its hooks' declarations
 * (kernel/chaos_hooks.h); in the seed kernel the hooks are the empty
 * macros below. With chaos off a tick, a spinlock's release and a
 * run-queue insertion each pay one load, a test and a branch; the event
 * points are reached through the tracer's hooks (trace_hooks_on), which
 * cost what they cost without seeds. */
#ifndef KERNEL_CHAOS_H
#define KERNEL_CHAOS_H

#ifdef CONFIG_CHAOS
#include "kernel/chaos_hooks.h"
#else
#define chaos_init() do { } while (0)
#define chaos_tick() do { } while (0)
#define chaos_wake_first() false
#define CHAOS_UNLOCK_POINT() do { } while (0)
#endif

#endif
