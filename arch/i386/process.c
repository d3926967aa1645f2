/* arch/i386/process.c - the i386 half of a task (process.h). */
#include "arch/i386/process.h"
#include "arch/i386/cpu.h"
#include "arch/i386/fpu.h"
#include "arch/i386/mmu_context.h"
#include "arch/i386/paging.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/x86.h"
#include "kernel/task.h"
#include "kernel/panic.h"
#include "kernel/mm/vm.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Where copy_thread and copy_kthread make a new task start (its first
 * switch_context "returns" there): arch/i386/task_entry.S. */
extern void ret_from_fork(void);
extern void kthread_start(void);

static void switch_mm_cpu(struct cpu *c, struct mm *prev, struct mm *next);

void switch_to(struct task *prev, struct task *next)
{
	struct cpu *c = this_cpu();
	struct mm *pmm = prev->mm, *nmm = next->mm;

	c->tss.esp0 = next->thread.esp0;
	/* make bochs-debug: stop before the TLS copy when next has a slot-6
	 * descriptor (a thread of tls-demo, not the idle task). */
	if (!desc_empty(&next->thread.tls_array[0]))
		bochs_magic_break();
	load_TLS(&next->thread, c);
	/* Between two tasks without FPU state (most switches) there is
	 * nothing to do: prev not live means CR0.TS is already set, which
	 * is what next needs (arch/i386/fpu.h). */
	if (prev->thread.fpu.live || next->thread.fpu.used)
		fpu_switch(prev, next);
	/* CR3, active_mm and the LDT (mmu_context.h). Two threads of one
	 * process, the common case, cost not even the call. */
	if (nmm != pmm)
		switch_mm_cpu(c, pmm, nmm);
	/* next->cpu already names this CPU: kernel/sched.c queues a task
	 * only on the queue its t->cpu names (enqueue asserts it). Its
	 * thread_info, which this_cpu() reads, follows it here. */
	next->ti->cpu = c->id;
	switch_context(&prev->ctx, next->ctx);
}

/* mmu_context.h: CR3, active_mm and the LDT have this one owner.
 * switch_to knows its struct cpu already, and passes it. */
static void switch_mm_cpu(struct cpu *c, struct mm *prev, struct mm *next)
{
	ASSERT(prev == c->active_mm);
	if (prev == next)
		return;
	/* First say so (a full barrier), then load: a shootdown that misses
	 * this CPU because it read the old active_mm is harmless, as the CR3
	 * load below happens after the change and flushes (tlb.c). */
	__atomic_store_n(&c->active_mm, next, __ATOMIC_SEQ_CST);
	write_cr3(V2P(next ? next->pgdir : kernel_pgdir));
	/* The LDT loaded is prev's: none for no address space (a kernel
	 * thread, a task that has given its mm up: mmu_context.h's rule).
	 * Two address spaces share no LDT pointer unless both have none -
	 * most have none: TLS lives in the GDT -, and then the loaded one is
	 * already right. A modify_ldt on another CPU that gives prev a table
	 * now makes us load next's, which is right too; its IPI, taken once
	 * we run next, does nothing (mm_cross_call_interrupt). */
	if ((prev ? prev->ldt : NULL) != (next ? next->ldt : NULL))
		ldt_load(next, c);
}

void switch_mm(struct mm *prev, struct mm *next)
{
	switch_mm_cpu(this_cpu(), prev, next);
}

/* Builds, below a trapframe at the top of t's stack, the context that
 * switch_context pops: callee-saved registers 0 and eip = entry. */
static struct context *push_context(struct trapframe *tf, void (*entry)(void))
{
	struct context *ctx = (struct context *)tf - 1;

	*ctx = (struct context){ .eip = (uint32_t)entry };
	return ctx;
}

static struct trapframe *stack_frame(struct task *t)
{
	return (struct trapframe *)((uint8_t *)t->ti + KSTACK_SIZE) - 1;
}

/* CLONE_SETTLS: the child's descriptor, validated as set_thread_area
 * (abi.md section 5), but with no allocation: entry 6..8 only. */
static int tls_set_for_child(struct thread_struct *t, uint32_t utls)
{
	struct user_desc info;
	struct desc d;
	int err;

	if (copy_from_user(&info, utls, sizeof(info)))
		return -EFAULT;
	if (info.entry_number < GDT_ENTRY_TLS_MIN || info.entry_number > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	if ((err = user_desc_to_tls(&info, &d)) < 0)
		return err;
	t->tls_array[info.entry_number - GDT_ENTRY_TLS_MIN] = d;
	return 0;
}

int copy_thread(struct task *child, struct task *parent, uint32_t user_sp,
		bool settls, uint32_t utls)
{
	struct trapframe *tf = stack_frame(child);
	int err;

	/* The child inherits the three TLS descriptors, three 8-byte copies
	 * as load_TLS makes them; SETTLS replaces one (an empty or all-zero
	 * one clears it). */
	_Static_assert(GDT_ENTRY_TLS_ENTRIES == 3, "three TLS descriptors to copy");
	child->thread.tls_array[0] = parent->thread.tls_array[0];
	child->thread.tls_array[1] = parent->thread.tls_array[1];
	child->thread.tls_array[2] = parent->thread.tls_array[2];
	if (settls && (err = tls_set_for_child(&child->thread, utls)) < 0)
		return err;
	if ((err = fpu_copy(child, parent)) < 0)
		return err;
	/* memcpy (lib/string.c: rep movsl) rather than `*tf = *parent->tf`,
	 * which gcc makes a loop of 19 load/store rounds: 60 instructions
	 * of every clone and fork. */
	memcpy(tf, parent->tf, sizeof(*tf));
	tf->eax = 0;                    /* the child's return value */
	if (user_sp)
		tf->esp = user_sp;
	child->tf = tf;
	child->thread.esp0 = (uint32_t)(tf + 1);
	child->ctx = push_context(tf, ret_from_fork);
	return 0;
}

void copy_kthread(struct task *t, void (*fn)(void *), void *arg)
{
	struct trapframe *tf = stack_frame(t);

	memset(tf, 0, sizeof(*tf));
	fpu_release(t);         /* a recycled task's area: kernel threads use none */
	/* kthread_start finds fn and arg in the callee-saved registers. */
	t->ctx = push_context(tf, kthread_start);
	t->ctx->ebx = (uint32_t)fn;
	t->ctx->esi = (uint32_t)arg;
	t->thread.esp0 = (uint32_t)(tf + 1);
	t->tf = tf;
}

void start_user_frame(struct trapframe *tf, uint32_t eip, uint32_t esp)
{
	memset(tf, 0, sizeof(*tf));
	tf->cs = __USER_CS;
	tf->ds = tf->es = tf->ss = __USER_DS;
	tf->fs = tf->gs = 0;
	tf->eflags = EFLAGS_IF | 0x2;   /* bit 1 is always 1 (SDM 2.3) */
	tf->eip = eip;
	tf->esp = esp;
}

static void tls_clear_all(struct thread_struct *t)
{
	memset(t->tls_array, 0, sizeof(t->tls_array));
}

void flush_thread(void)
{
	tls_clear_all(&current->thread);
	load_TLS(&current->thread, this_cpu());
	fpu_exec_reset();
}

uint32_t elf_hwcap(void)
{
	return cpuid_1_edx();
}
