/* compat/linux/loadavg.c - the 1, 5 and 15 minute load averages (Linux's
 * kernel/sched/loadavg.c, cut down to one CPU's arithmetic).
 *
 * Every LOAD_FREQ ticks (5 s) the boot CPU counts the tasks that are
 * running or waiting to run on every CPU (Linux also counts tasks in
 * uninterruptible sleep, which Spindle hardly has) and folds the count
 * n into each average as an exponentially-weighted mean:
 *
 *     load = load * e + n * (1 - e),   e = exp(-5 s / period)
 *
 * in FSHIFT-bit fixed point, so EXP_1 = 2048 / exp(5/60) = 1884. After a
 * minute of one busy task the 1-minute average is 1 - 1/e = 0.63. */
#include "compat/linux/loadavg.h"
#include "kernel/clock.h"
#include "kernel/sched.h"
#include "arch/i386/cpu.h"

#define LOAD_FREQ (5 * HZ + 1)  /* Linux's: + 1 to stay out of step with 5 s timers */
#define EXP_1  1884
#define EXP_5  2014
#define EXP_15 2037

static unsigned long avenrun[3];
static unsigned countdown = LOAD_FREQ;

/* Linux's calc_load, which rounds up while the load is rising so that
 * a steady n is reached, not approached for ever from below. In 64 bits:
 * a thread bomb's 12,000 tasks times 2048 times 2037 do not fit in 32. */
static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	uint64_t newload = (uint64_t)load * exp + (uint64_t)active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return (unsigned long)(newload / FIXED_1);
}

void linux_tick(void)
{
	unsigned long active = 0;
	uint32_t online;

	if (--countdown)
		return;
	countdown = LOAD_FREQ;
	online = sched_online_mask();
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (online & (1u << cpu))
			active += (unsigned long)sched_nr_running(cpu);
	active *= FIXED_1;
	__atomic_store_n(&avenrun[0], calc_load(avenrun[0], EXP_1, active), __ATOMIC_RELAXED);
	__atomic_store_n(&avenrun[1], calc_load(avenrun[1], EXP_5, active), __ATOMIC_RELAXED);
	__atomic_store_n(&avenrun[2], calc_load(avenrun[2], EXP_15, active), __ATOMIC_RELAXED);
}

void loadavg_get(unsigned long avg[3])
{
	for (int i = 0; i < 3; i++)
		avg[i] = __atomic_load_n(&avenrun[i], __ATOMIC_RELAXED);
}
