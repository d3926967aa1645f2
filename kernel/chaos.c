/* kernel/chaos.c - the schedule seed's perturbations (chaos.h,
 * docs/races.md).
 *
 * Each CPU owns a xorshift32 generator (Marsaglia, "Xorshift RNGs", 2003)
 * that only that CPU draws from, interrupts off (its ticks, its points):
 * no lock, and the draws come at the same instructions in every run.
 * What a tick draws:
 *   - the period until this CPU's next tick, in 256ths of a tick period
 *     (timer_start at another rate: arch/i386/timer.h). QEMU under -icount
 *     runs its virtual CPUs in turns, each up to its share of the time to
 *     the next timer deadline (QEMU's icount_percpu_budget), so the
 *     deadlines are where one CPU stops and another goes on; they are
 *     also where the scheduler preempts. The boot CPU's tick counts time
 *     (kernel/clock.c), so its period only wavers, 1/2 to 3/2 of a tick,
 *     a tick on average; every other CPU's ranges from 1/256 of a tick to
 *     one, most of them short: many more deadlines, many more places
 *     where the CPUs change turns;
 *   - at one tick in CHAOS_DELAY_ONE_IN, a delay of up to CHAOS_DELAY_MAX
 *     rounds of an empty loop before the interrupted code goes on: it
 *     shifts this CPU's work against the timers' deadlines and the other
 *     CPUs' work, so that even one CPU is preempted at other instructions;
 *   - at one tick in CHAOS_YIELD_ONE_IN, a PAUSE (cpu_relax). On a real
 *     CPU it is a hint and nothing more; under QEMU's TCG it ends this
 *     virtual CPU's turn (QEMU's helper_pause: "let another CPU run"), so
 *     the others run while the code the tick interrupted stays stopped
 *     exactly where it was: in the middle of a read-modify-write, say.
 * The same delay (shorter) and pause may come at each of the tracer's
 * events (chaos_point, from trace_record): after a wake-up, a clone,
 * an exit, on each side of a switch, when an IPI is sent or received -
 * the places where one CPU's work starts another's. The pause alone, at
 * one release in CHAOS_UNLOCK_PAUSE_ONE_IN, comes after a spinlock is let
 * go (chaos_unlock_point, from spin_unlock: arch/i386/spinlock.h), where
 * another CPU's taker goes in. And two choices the scheduler makes are
 * drawn too:
 *   - at one tick or event in CHAOS_RESCHED_ONE_IN, a reschedule is asked
 *     for (sched_need_resched), which this CPU makes at its next return
 *     to user mode (return_to_user_prepare): a task gives way to another
 *     on its CPU where no time slice would have ended;
 *   - a task woken (or added, or moved) goes to the front of its run
 *     queue instead of the back at one time in two (chaos_wake_first,
 *     kernel/sched.c enqueue): woken tasks run in another order. */
#include "kernel/chaos.h"
#include "kernel/bootinfo.h"
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/trace.h"
#include "lib/string.h"
#include "arch/i386/cpu.h"
#include "arch/i386/irqflags.h"
#include "arch/i386/thread_info.h"
#include "arch/i386/timer.h"

#define CHAOS_DELAY_ONE_IN 4
#define CHAOS_YIELD_ONE_IN 2
#define CHAOS_DELAY_MAX 20000       /* rounds of an empty loop, a few instructions each */
#define CHAOS_POINT_DELAY_MAX 2000  /* at the tracer's events: many more of them */
#define CHAOS_UNLOCK_PAUSE_ONE_IN 4 /* releases: more of them still, no delay */
#define CHAOS_RESCHED_ONE_IN 8

bool chaos_on;
static uint32_t state[NR_CPUS];     /* each CPU's generator: its own only */

static uint32_t next(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* CPU cpu's first state: SEED and the CPU number mixed (Murmur3's
 * finalizer), never 0, which xorshift would keep forever. */
static uint32_t first_state(uint32_t seed, int cpu)
{
	uint32_t h = seed * 0x9e3779b9u + (uint32_t)cpu * 0x85ebca6bu;

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h ? h : 1;
}

/* What a tick or an event draws. One time in CHAOS_DELAY_ONE_IN, up to
 * max rounds of an empty loop: not cpu_relax(), since under QEMU's TCG a
 * PAUSE leaves the translated code (arch/i386/pit.c says more) and the
 * delay is to cost instructions, not the host's time. Then one time in
 * CHAOS_YIELD_ONE_IN, the PAUSE that ends this CPU's turn; and one time
 * in CHAOS_RESCHED_ONE_IN, a reschedule asked for. Interrupts off: x is
 * this CPU's generator. */
static void perturb(uint32_t *x, uint32_t max)
{
	if (next(x) % CHAOS_DELAY_ONE_IN == 0)
		for (volatile uint32_t spins = next(x) % max; spins; spins--)
			;
	if (next(x) % CHAOS_YIELD_ONE_IN == 0)
		cpu_relax();
	if (next(x) % CHAOS_RESCHED_ONE_IN == 0)
		sched_need_resched[current_thread_info()->cpu] = true;
}

/* This CPU's generator, interrupts off (asserted by the callers' paths:
 * a tick, or local_irq_save below). */
static uint32_t *my_state(void)
{
	ASSERT(irqs_disabled());
	return &state[current_thread_info()->cpu];
}

void chaos_init(void)
{
	uint32_t seed_of_run = (uint32_t)bootinfo.cmdline.chaos;

	if (seed_of_run == 0)
		return;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		state[cpu] = first_state(seed_of_run, cpu);
	if (strcmp(timer_source(), "LAPIC") != 0) {
		kprintf("chaos: seed %u ignored: the PIT ticks, not the CPUs' own timers\n",
			seed_of_run);
		return;
	}
	kprintf("chaos: seed %u: cpu0 ticks 1/2 to 3/2 periods apart, the others 1/256 to 1; "
		"a delay at 1 tick in %d, a pause at 1 in %d\n", seed_of_run, CHAOS_DELAY_ONE_IN,
		CHAOS_YIELD_ONE_IN);
	chaos_on = true;
	trace_hooks_enable();           /* the tracer's events are points too */
	chaos_tick_slow();              /* the boot CPU's first period (an AP's: ap_main) */
}

void chaos_tick_slow(void)
{
	uint32_t *x = my_state();       /* a tick: interrupts are off */
	uint32_t period;                /* in 256ths of a tick */

	if (current_thread_info()->cpu == 0)
		period = 128 + next(x) % 256;
	else
		period = (256 + next(x) % 256) >> (1 + next(x) % 9);
	timer_start(HZ * 256 / (period ? period : 1));
	perturb(x, CHAOS_DELAY_MAX);
}

void chaos_point(void)
{
	uint32_t flags;

	if (!chaos_on)
		return;
	local_irq_save(flags);          /* a tick must not draw in between */
	perturb(my_state(), CHAOS_POINT_DELAY_MAX);
	local_irq_restore(flags);
}

void chaos_unlock_point(void)
{
	uint32_t flags;

	local_irq_save(flags);
	if (next(my_state()) % CHAOS_UNLOCK_PAUSE_ONE_IN == 0)
		cpu_relax();
	local_irq_restore(flags);
}

bool chaos_wake_first_slow(void)
{
	return next(my_state()) % 2 == 0;   /* a run-queue lock: interrupts off */
}
