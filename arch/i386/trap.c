/* arch/i386/trap.c - where every interrupt and exception lands.
 *
 * trap_entry (vectors.S) calls trap(tf) with interrupts off. Hardware
 * interrupts go to the handler registered for their IRQ; an exception in
 * kernel mode is a kernel bug and panics with the exception's name and, for
 * a page fault, the faulting address from CR2 (SDM Vol. 3A 6.15, #PF). */
#include "arch/i386/traps.h"
#include "arch/i386/pic.h"
#include "arch/i386/x86.h"
#include "kernel/panic.h"
#include "kernel/printf.h"

static irq_handler_t irq_handlers[NR_IRQS];
static unsigned long spurious_irqs;

static const char *const exception_names[] = {
	[T_DIVIDE] = "divide error",
	[T_DEBUG] = "debug",
	[T_NMI] = "non-maskable interrupt",
	[T_BRKPT] = "breakpoint",
	[T_OFLOW] = "overflow",
	[T_BOUND] = "bound range exceeded",
	[T_ILLOP] = "invalid opcode",
	[T_DEVICE] = "device not available",
	[T_DBLFLT] = "double fault",
	[T_COPROC] = "coprocessor segment overrun",
	[T_TSS] = "invalid TSS",
	[T_SEGNP] = "segment not present",
	[T_STACK] = "stack-segment fault",
	[T_GPFLT] = "general protection fault",
	[T_PGFLT] = "page fault",
	[T_RES15] = "reserved exception 15",
	[T_FPERR] = "x87 floating-point error",
	[T_ALIGN] = "alignment check",
	[T_MCHK] = "machine check",
	[T_SIMDERR] = "SIMD floating-point exception",
	[T_VIRT] = "virtualization exception",
	[T_CTRLPROT] = "control protection exception",
};

const char *trap_name(unsigned trapno)
{
	if (trapno < sizeof(exception_names) / sizeof(exception_names[0]) &&
	    exception_names[trapno])
		return exception_names[trapno];
	if (trapno < T_IRQ0)
		return "reserved exception";
	if (trapno == T_SYSCALL)
		return "system call";
	if (trapno < T_IRQ0 + NR_IRQS)
		return "hardware interrupt";
	return "unexpected interrupt";
}

void irq_register(int irq, irq_handler_t h)
{
	irq_handlers[irq] = h;
	pic_unmask(irq);
}

static void handle_irq(struct trapframe *tf)
{
	int irq = (int)tf->trapno - T_IRQ0;

	if (pic_spurious(irq)) {
		spurious_irqs++;
		return;
	}
	/* EOI first: a handler may switch away and come back much later. */
	pic_eoi(irq);
	if (irq_handlers[irq])
		irq_handlers[irq](tf);
}

void trap(struct trapframe *tf)
{
	if (tf->trapno >= T_IRQ0 && tf->trapno < T_IRQ0 + NR_IRQS) {
		handle_irq(tf);
		return;
	}
	/* No user mode exists yet, so every other trap is a kernel bug. */
	panic_trap(tf);
}
