/* arch/i386/thread_info.h - the bottom of every kernel stack.
 *
 * As in Linux 2.5, a kernel stack is KSTACK_SIZE (8 KiB) bytes and
 * KSTACK_SIZE-aligned; its lowest bytes hold a struct thread_info, so
 * masking %esp finds it from anywhere on that stack in one instruction.
 * The magic word sits just above it: if the stack overflows into it, the
 * checks in the scheduler and the panic path say so. */
#ifndef ARCH_I386_THREAD_INFO_H
#define ARCH_I386_THREAD_INFO_H

#include "lib/types.h"
#include "arch/i386/mmu.h"

#define THREAD_INFO_MAGIC 0x5350494eu   /* "SPIN" */

struct task;

struct thread_info {
	struct task *task;      /* the task running on this stack */
	int cpu;                /* the CPU it runs on (cpu.h's rule) */
	int preempt_count;      /* > 0: no preemption */
	uint32_t magic;         /* THREAD_INFO_MAGIC: overflow canary */
};

static inline struct thread_info *current_thread_info(void)
{
	uint32_t esp;
	__asm__("movl %%esp, %0" : "=r"(esp));
	return (struct thread_info *)(esp & ~(uint32_t)(KSTACK_SIZE - 1));
}

#endif
