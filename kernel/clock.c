/* kernel/clock.c - the tick counter and the TSC clock (clock.h). */
#include "kernel/clock.h"
#include "kernel/cputime.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "arch/i386/pit.h"
#include "arch/i386/traps.h"
#include "arch/i386/x86.h"

#define CALIBRATE_US 5000           /* 5 ms of PIT channel 2 ... */
#define CALIBRATE_RUNS 5            /* ... five times, keeping the least */

static volatile uint64_t ticks;
static uint64_t tsc_hz;
static uint64_t tsc_boot;

static void timer_irq(struct trapframe *tf)
{
	account_tick(tf_from_user(tf)); /* the tick's CPU time (cputime.c) */
	clock_tick();
}

void clock_tick(void)
{
	ticks++;
	timers_run();
	sched_tick();
}

void clock_init(void)
{
	uint64_t best = UINT64_MAX;

	/* An emulator descheduled by a busy host lets the TSC run on while
	 * the PIT wait stalls, so a single measurement can come out twice
	 * too high, never too low: the smallest of several is the truest. */
	tsc_boot = rdtsc();
	for (int i = 0; i < CALIBRATE_RUNS; i++) {
		uint64_t t0 = rdtsc();
		pit_wait_us(CALIBRATE_US);
		uint64_t t1 = rdtsc();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	tsc_hz = best * (1000000 / CALIBRATE_US);
	if (tsc_hz == 0)
		tsc_hz = 1;             /* never divide by zero below */

	pit_start_periodic(HZ);
	irq_register(IRQ_TIMER, timer_irq);
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
	uint64_t cycles = rdtsc() - tsc_boot;
	uint64_t secs = cycles / tsc_hz;
	uint64_t rem = cycles % tsc_hz;

	return secs * 1000000000ull + rem * 1000000000ull / tsc_hz;
}
