/* kernel/clock.c - the tick counter and the TSC clock (clock.h). */
#include "kernel/clock.h"
#include "kernel/chaos.h"
#include "kernel/linux_hooks.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "arch/i386/cpu.h"
#include "arch/i386/timer.h"
#include "arch/i386/timex.h"

static volatile uint64_t ticks;
static uint64_t tsc_hz;
static uint64_t tsc_boot;

/* Every CPU's tick, whatever chip gave it (arch/i386/timer.h): the
 * scheduler's time slice on every CPU; the count and the timers on the
 * boot CPU alone (Linux's tick_do_timer_cpu), so that time advances once
 * per tick, not once per CPU. */
void clock_tick(void)
{
	int cpu = current_thread_info()->cpu;

	if (cpu == 0) {
		ticks++;
		timers_run();
		linux_tick();           /* the load average */
	}
	sched_tick();
	chaos_tick();           /* chaos=SEED: this CPU's next period (chaos.h) */
}

void clock_init(void)
{
	tsc_boot = get_cycles();
	tsc_hz = cycles_calibrate_hz();
	if (tsc_hz == 0)
		tsc_hz = 1;             /* never divide by zero below */
	timer_start(HZ);
	chaos_init();
}

uint64_t clock_ticks(void)
{
	uint64_t a, b;

	/* A 64-bit read is two loads, and the boot CPU's timer may change
	 * the value between them: read until two reads agree. */
	do {
		a = ticks;
		b = ticks;
	} while (a != b);
	return a;
}

uint64_t clock_tsc_hz(void)
{
	return tsc_hz;
}

/* ns = cycles * 1e9 / hz, split so the product cannot overflow 64 bits
 * for any uptime shorter than centuries. */
uint64_t clock_ns(void)
{
	uint64_t cycles = get_cycles() - tsc_boot;
	uint64_t secs = cycles / tsc_hz;
	uint64_t rem = cycles % tsc_hz;

	return secs * 1000000000ull + rem * 1000000000ull / tsc_hz;
}
