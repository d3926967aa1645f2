/* arch/i386/lapic.h - the local APIC of each CPU, in xAPIC (MMIO) mode:
 * its timer, end-of-interrupt, and inter-processor interrupts (Intel SDM
 * Vol. 3A chapter 10). */
#ifndef ARCH_I386_LAPIC_H
#define ARCH_I386_LAPIC_H

#include "lib/types.h"

/* Vectors the local APICs deliver. The priority class of a vector is
 * vector >> 4 (SDM 10.8.3.1): the stop IPI outranks everything. */
#define T_LAPIC_TIMER     0x40  /* every CPU's periodic tick (timer.h) */
#define T_IPI_RESCHEDULE  0xFC  /* reserved for the scheduler: not dispatched here */
#define T_IPI_TLB         0xFD  /* reserved for TLB shootdown: not dispatched here */
#define T_IPI_STOP        0xFE  /* panic: stop this CPU (smp_stop_others) */
#define T_LAPIC_SPURIOUS  0xFF  /* SVR's spurious vector: never gets an EOI */

#define LAPIC_DEFAULT_PHYS 0xFEE00000u

/* True if this CPU has a local APIC that is enabled in xAPIC mode
 * (CPUID.1:EDX.APIC, IA32_APIC_BASE.EN and not .EXTD). */
bool lapic_usable(void);
/* Records where the registers are (mapped by paging_map_mmio first). */
void lapic_set_base(uint32_t phys);
bool lapic_mapped(void);

/* Sets up this CPU's local APIC: software-enabled with the spurious
 * vector, task priority 0, LINT0/LINT1 masked on the APs (and LINT0 on the
 * boot CPU when the 8259s are not used), error and timer LVTs masked. */
void lapic_setup(bool boot_cpu, bool mask_lint0);
uint32_t lapic_id(void);            /* this CPU's APIC id */
void lapic_eoi(void);

/* Measures the timer's count rate against PIT channel 2 (boot CPU, once),
 * then starts this CPU's timer: periodic, hz times a second, on
 * T_LAPIC_TIMER. */
void lapic_timer_calibrate(void);
void lapic_timer_start(unsigned hz);
uint32_t lapic_timer_hz(void);      /* the calibrated counts a second */

/* Inter-processor interrupts (SDM 10.6): fixed delivery, physical
 * destination. Each waits until the APIC has sent the previous one. */
void lapic_send_ipi(uint32_t apic_id, int vector);
void lapic_send_nmi(uint32_t apic_id);
/* The MP start-up sequence's pieces (SDM 8.4.4.1, 10.6.1). */
void lapic_send_init(uint32_t apic_id);
void lapic_send_startup(uint32_t apic_id, uint32_t page_phys);
uint32_t lapic_error(void);         /* the ESR, after a write to latch it */

#endif
