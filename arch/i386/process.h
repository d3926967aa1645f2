/* arch/i386/process.h - the i386 half of tasks: switching, new stacks,
 * entering user mode. */
#ifndef ARCH_I386_PROCESS_H
#define ARCH_I386_PROCESS_H

#include "lib/types.h"
#include "lib/abi.h"
#include "arch/i386/desc.h"
#include "arch/i386/context.h"
#include "arch/i386/cpu.h"

struct task;
struct trapframe;
struct cpu;

/* Called by schedule() with the run-queue lock held and interrupts off
 * (schedule's switch_checks asserts both, kernel/sched.c): load_TLS,
 * TSS.esp0, CR3 and LDT for next, then switch_context. */
void switch_to(struct task *prev, struct task *next);

/* tls-2.5.31-D9's load_TLS: a task's three TLS descriptors into this
 * CPU's GDT entries 6..8, three 8-byte copies and no branch ("3 TLS
 * entries, 9 cycles copying and no branches in the context-switch path").
 * Inline, so in switch_to it is exactly six load/store pairs: make bench
 * prints switch_to's disassembly to show them. */
static inline void load_TLS(const struct thread_struct *t, struct cpu *c)
{
	/* LAB 2: BEGIN SOLUTION */
#define C(i) c->gdt[GDT_ENTRY_TLS_MIN + i] = t->tls_array[i]
	C(0); C(1); C(2);
#undef C
	/* LAB 2: END SOLUTION */
#if 0 /* LAB 2: STUB */
	/* Lab 2: copy t's three TLS descriptors into c's GDT entries
	 * GDT_ENTRY_TLS_MIN.. (docs/labs/lab2-switch.md). */
	(void)t;
	(void)c;
#endif /* LAB 2: END STUB */
}

/* clone's i386 half (Linux's copy_thread), for a child not yet visible:
 * its three TLS descriptors the parent's, one replaced by *utls when
 * settls (CLONE_SETTLS, validated as set_thread_area: the seed's
 * copy_thread did it too); a copy of the parent's FPU state, its own
 * (abi.md section 10); and a kernel stack that returns to user mode with
 * a copy of the parent's registers (eax = 0, esp = user_sp unless 0)
 * through ret_from_fork. 0, or -EFAULT/-EINVAL (a bad *utls) or -ENOMEM:
 * then the caller frees the child. */
int copy_thread(struct task *child, struct task *parent, uint32_t user_sp,
		bool settls, uint32_t utls);

/* The base address of t's TLS slot i (0..2: GDT entry 6 + i), which
 * /proc/tasks shows. */
static inline uint32_t tls_slot_base(const struct thread_struct *t, int i)
{
	return desc_base(&t->tls_array[i]);
}

/* Prepares a kernel thread's stack to run fn(arg) (then exit). */
void copy_kthread(struct task *t, void (*fn)(void *), void *arg);

/* A fresh user register frame at the top of current's kernel stack:
 * %cs/%ds/... user selectors, %fs=%gs=0, eflags IF, the given eip/esp,
 * every general register 0 (abi.md section 2). */
void start_user_frame(struct trapframe *tf, uint32_t eip, uint32_t esp);
/* Leaves the kernel through trap_ret with current's frame. */
void return_to_user(struct trapframe *tf) __attribute__((noreturn));

/* Linux's flush_thread, for execve: current's three TLS descriptors
 * cleared (also in this CPU's GDT), and its FPU state fninit's, MXCSR
 * 0x1f80 (abi.md sections 5 and 10): nothing of the old program's
 * thread state survives. */
void flush_thread(void);

/* execve's auxv (kernel/exec.c): AT_HWCAP, the CPU's feature bits
 * CPUID.1:EDX (SDM Vol. 2A, CPUID), as Linux's ELF_HWCAP on i386; and
 * AT_PLATFORM's string, Linux's ELF_PLATFORM for a CPU of family 6 and
 * up: "i686". */
uint32_t elf_hwcap(void);
#define ELF_PLATFORM "i686"

/* fork's copy of the parent's LDT (abi.md section 5, ldt.c). */
struct mm;
int ldt_dup(struct mm *child, struct mm *parent);          /* fork */

#endif
