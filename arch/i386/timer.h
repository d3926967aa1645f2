/* arch/i386/timer.h - the periodic tick and the cycle counter's rate, as
 * Linux's arch/x86/kernel/time.c and tsc.c: kernel/clock.c asks for a
 * tick and is told the rate; this says where they come from.
 *
 * What it hides: which chip ticks. Every CPU ticks the same way: its
 * local APIC timer (SDM Vol. 3A 10.5.4), periodic, calibrated once
 * against PIT channel 2 (lapic_timer_calibrate, from smp_init), on vector
 * T_LAPIC_TIMER, whose handler is timer_interrupt (trap.c), which calls
 * clock_tick(). Only a machine without a usable local APIC (`up/noapic`)
 * has its one CPU tick from PIT channel 0 on IRQ 0 instead, through the
 * same timer_interrupt. The PIT is otherwise used only to calibrate. */
#ifndef ARCH_I386_TIMER_H
#define ARCH_I386_TIMER_H

#include "lib/types.h"

/* Starts this CPU's periodic tick, hz times a second: clock_init on the
 * boot CPU (after smp_init), ap_main on every AP. */
void timer_start(unsigned hz);

/* "LAPIC" or "PIT": what ticks (the boot banner says it). */
const char *timer_source(void);

/* The cycle counter's rate (get_cycles, timex.h) in Hz, measured on the
 * boot CPU against PIT channel 2: the least of five 5 ms measurements, as
 * a busy host can only stretch the PIT wait, never shorten it. */
uint64_t cycles_calibrate_hz(void);

#endif
