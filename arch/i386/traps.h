/* arch/i386/traps.h - interrupt vectors and the trap dispatcher. */
#ifndef ARCH_I386_TRAPS_H
#define ARCH_I386_TRAPS_H

/* Exceptions (Intel SDM Vol. 3A 6.15, Table 6-1). */
#define T_DIVIDE   0   /* #DE divide error */
#define T_DEBUG    1   /* #DB debug */
#define T_NMI      2   /* non-maskable interrupt */
#define T_BRKPT    3   /* #BP breakpoint (int3) */
#define T_OFLOW    4   /* #OF overflow (into) */
#define T_BOUND    5   /* #BR bound range exceeded */
#define T_ILLOP    6   /* #UD invalid opcode */
#define T_DEVICE   7   /* #NM device not available */
#define T_DBLFLT   8   /* #DF double fault */
#define T_COPROC   9   /* coprocessor segment overrun (reserved) */
#define T_TSS     10   /* #TS invalid TSS */
#define T_SEGNP   11   /* #NP segment not present */
#define T_STACK   12   /* #SS stack-segment fault */
#define T_GPFLT   13   /* #GP general protection */
#define T_PGFLT   14   /* #PF page fault */
#define T_RES15   15   /* reserved */
#define T_FPERR   16   /* #MF x87 floating-point error */
#define T_ALIGN   17   /* #AC alignment check */
#define T_MCHK    18   /* #MC machine check */
#define T_SIMDERR 19   /* #XM SIMD floating-point */
#define T_VIRT    20   /* #VE virtualization exception */
#define T_CTRLPROT 21  /* #CP control protection */

#define T_IRQ0    32   /* PIC IRQ n arrives as T_IRQ0 + n (pic.c) */
#define T_SYSCALL 0x80 /* int $0x80, DPL 3 */

#define IRQ_TIMER  0
#define IRQ_COM1   4
#define NR_IRQS   16

#ifndef __ASSEMBLER__
#include "arch/i386/trapframe.h"

typedef void (*irq_handler_t)(struct trapframe *tf);

void idt_init(void);          /* build the IDT (once) */
void idt_load(void);          /* lidt on this CPU */
void irq_register(int irq, irq_handler_t h);
/* Every CPU's periodic tick (timer.h): from the T_LAPIC_TIMER vector
 * after its EOI, or, on a machine without a local APIC, as IRQ 0's
 * handler. Calls clock_tick(). */
void timer_interrupt(struct trapframe *tf);
const char *trap_name(unsigned trapno);
void trap(struct trapframe *tf);
#endif

#endif
