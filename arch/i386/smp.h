/* arch/i386/smp.h - finding and starting the other CPUs, and stopping
 * them all on a panic.
 *
 * Boot order (kernel/main.c): smp_init on the boot CPU once the kernel
 * page directory exists and before the first interrupt is routed (it maps
 * the APIC registers into kernel_pgdir, which user page directories copy
 * at creation); smp_boot_aps once the scheduler and the clock run. Each
 * AP then runs ap_main: its own GDT and TSS, the IDT, its local APIC and
 * timer, its run queue, and finally its idle loop.
 *
 * This header is included by ap_boot.S: #defines only outside the
 * __ASSEMBLER__ part. */
#ifndef ARCH_I386_SMP_H
#define ARCH_I386_SMP_H

/* The start-up page: below 1 MiB, 4 KiB aligned (a SIPI names a page
 * number, SDM Vol. 3A 8.4.4.1), in the first MiB that pmm_init keeps
 * out of the frame pool. */
#define AP_TRAMPOLINE_PHYS  0x8000
/* The parameters the boot CPU leaves for the AP, at the page's end. */
#define AP_PARAMS_OFFSET    0xF00
#define AP_PARAM_PGDIR      0   /* physical: the start-up page directory */
#define AP_PARAM_CR0        4   /* the boot CPU's CR0 and CR4, to copy */
#define AP_PARAM_CR4        8
#define AP_PARAM_STACK      12  /* virtual: top of the AP's idle stack */
#define AP_PARAM_STAGE      16  /* how far the AP got (AP_STAGE_*) */
#define AP_PARAMS_SIZE      20

#define AP_STAGE_REAL       1   /* ran the first instruction (real mode) */
#define AP_STAGE_PROTECTED  2   /* protected mode, temporary GDT */
#define AP_STAGE_PAGING     3   /* paging on, about to call ap_main */
#define AP_STAGE_C          4   /* in ap_main */

#define AP_BOOT_CS          0x08    /* the trampoline's temporary GDT */
#define AP_BOOT_DS          0x10

#ifndef __ASSEMBLER__
#include "lib/types.h"

struct trapframe;

struct ap_boot_params {
	uint32_t pgdir;
	uint32_t cr0, cr4;
	uint32_t stack_top;
	volatile uint32_t stage;
};
_Static_assert(__builtin_offsetof(struct ap_boot_params, pgdir) == AP_PARAM_PGDIR, "ap_boot.S");
_Static_assert(__builtin_offsetof(struct ap_boot_params, cr0) == AP_PARAM_CR0, "ap_boot.S");
_Static_assert(__builtin_offsetof(struct ap_boot_params, cr4) == AP_PARAM_CR4, "ap_boot.S");
_Static_assert(__builtin_offsetof(struct ap_boot_params, stack_top) == AP_PARAM_STACK, "ap_boot.S");
_Static_assert(__builtin_offsetof(struct ap_boot_params, stage) == AP_PARAM_STAGE, "ap_boot.S");
_Static_assert(sizeof(struct ap_boot_params) == AP_PARAMS_SIZE, "ap_boot.S");

/* Boot CPU: the 8259s remapped and masked; then find the CPUs (MADT,
 * else MP table), honour smp=N, map the APIC registers, set up this CPU's
 * local APIC and the IOAPIC routing, calibrate the local APIC timer (the
 * tick of every CPU, timer.h). */
void smp_init(void);
/* Boot CPU: start each AP in turn, waiting (1 s at most) for each. */
void smp_boot_aps(void);
/* One line per running CPU: "cpuN: apic id A, GDT at 0x..., TSS at 0x...". */
void smp_print_cpus(void);

/* Where an AP enters C, on its idle task's stack (ap_boot.S). */
void ap_main(void) __attribute__((noreturn));
/* Sends vector to the CPU with index cpu (cpus[cpu].apic_id). */
void smp_send_ipi(int cpu, int vector);

/* Panic: stop every other CPU (T_IPI_STOP, then an NMI for any CPU that
 * did not answer in 100 ms: it has interrupts off). Each stopped CPU waits
 * silently; smp_report_stopped then lets them print one line each, in CPU
 * order, and returns when they have (or after a timeout). */
void smp_stop_others(void);
void smp_report_stopped(void);
bool smp_stopping(void);            /* a stop is under way (for T_NMI) */
/* The T_IPI_STOP (or NMI) handler: never returns. */
void smp_stop_this_cpu(struct trapframe *tf) __attribute__((noreturn));

/* For tests and the monitor. */
extern int smp_cpus_listed;         /* enabled CPUs the firmware listed */
/* What an AP saw right after loading its GDT and TSS (ap_main). */
struct ap_report {
	uint32_t gdt_base;
	uint16_t gdt_limit;
	uint16_t tr;                    /* str(): the task register */
	uint16_t cs, ds, ss;
	uint32_t cr0, cr3, cr4;
};
extern struct ap_report smp_ap_reports[];

#endif
#endif
