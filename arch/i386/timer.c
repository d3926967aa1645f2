/* arch/i386/timer.c - which chip ticks, and the cycle counter's rate
 * (timer.h). */
#include "arch/i386/timer.h"
#include "arch/i386/lapic.h"
#include "arch/i386/pit.h"
#include "arch/i386/thread_info.h"
#include "arch/i386/timex.h"
#include "arch/i386/traps.h"
#include "kernel/panic.h"

#define CALIBRATE_US 5000           /* 5 ms of PIT channel 2 ... */
#define CALIBRATE_RUNS 5            /* ... five times, keeping the least */

void timer_start(unsigned hz)
{
	/* smp_init calibrated the local APIC timer if there is a usable
	 * local APIC; only then can an AP be running. */
	if (lapic_timer_hz()) {
		lapic_timer_start(hz);
		return;
	}
	ASSERT(current_thread_info()->cpu == 0);
	/* No local APIC: the boot CPU, alone, ticks from the PIT, through
	 * the same timer_interrupt (trap.c). */
	pit_start_periodic(hz);
	irq_register(IRQ_TIMER, timer_interrupt);
}

const char *timer_source(void)
{
	return lapic_timer_hz() ? "LAPIC" : "PIT";
}

uint64_t cycles_calibrate_hz(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < CALIBRATE_RUNS; i++) {
		uint64_t t0 = get_cycles();
		pit_wait_us(CALIBRATE_US);
		uint64_t t1 = get_cycles();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best * (1000000 / CALIBRATE_US);
}
