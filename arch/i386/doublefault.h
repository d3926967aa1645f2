/* arch/i386/doublefault.h - the double-fault task (SDM Vol. 3A 6.15,
 * interrupt 8; 7.3, task switching).
 *
 * A kernel stack overflow runs into the guard page under the stack
 * (kstack.h); the page fault's frame cannot be pushed there, which is a
 * double fault, whose frame cannot be pushed either. An interrupt gate
 * would triple-fault (a reset); a task gate instead switches to another
 * task, with a stack of its own: vector 8 is a task gate to GDT entry 23,
 * each CPU's own double-fault TSS. That task reads the state the CPU saved
 * in the CPU's main TSS and panics - "kernel stack overflow" when the
 * faulting address is a guard page - with a backtrace of the stack that
 * overflowed, as Linux i386's doublefault.c did. */
#ifndef ARCH_I386_DOUBLEFAULT_H
#define ARCH_I386_DOUBLEFAULT_H

struct cpu;

/* Fills CPU c's double-fault TSS and its GDT entry 23 (gdt_init_cpu). */
void doublefault_init_cpu(struct cpu *c);

#endif
