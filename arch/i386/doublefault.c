/* arch/i386/doublefault.c - the double-fault task (doublefault.h). */
#include "arch/i386/doublefault.h"
#include "arch/i386/cpu.h"
#include "arch/i386/kstack.h"
#include "arch/i386/paging.h"
#include "arch/i386/x86.h"
#include "kernel/panic.h"
#include "lib/string.h"

static struct tss df_tss[NR_CPUS];
/* Each with a thread_info at the bottom, as every kernel stack, so that
 * this_cpu() works in the handler (panic stops the other CPUs). */
static uint8_t df_stack[NR_CPUS][KSTACK_SIZE] __attribute__((aligned(KSTACK_SIZE)));

static void __attribute__((noreturn)) doublefault_fn(void)
{
	/* The task switch saved the faulting state in this CPU's main TSS
	 * (SDM Vol. 3A 7.3, step 8): where it was, and its stack. */
	const struct tss *t = &this_cpu()->tss;
	uint32_t cr2 = read_cr2(), stack;

	if (kstack_guard_hit(cr2, &stack) || kstack_guard_hit(t->esp - 1, &stack))
		panic_at(t->eip, t->ebp,
			 "kernel stack overflow: esp=0x%08x cr2=0x%08x, in the guard page "
			 "under the stack at 0x%08x", t->esp, cr2, stack);
	panic_at(t->eip, t->ebp, "double fault at eip=0x%08x esp=0x%08x cr2=0x%08x",
		 t->eip, t->esp, cr2);
}

void doublefault_init_cpu(struct cpu *c)
{
	struct tss *t = &df_tss[c->id];
	struct thread_info *ti = (struct thread_info *)df_stack[c->id];

	memset(ti, 0, sizeof(*ti));
	ti->cpu = c->id;
	ti->magic = THREAD_INFO_MAGIC;
	ti->preempt_count = 1;
	memset(t, 0, sizeof(*t));
	t->cr3 = V2P(kernel_pgdir);
	t->eip = (uint32_t)doublefault_fn;
	t->eflags = 0x2;                /* reserved bit 1; interrupts off */
	/* A call's worth below the top: the handler never returns. */
	t->esp = (uint32_t)df_stack[c->id] + KSTACK_SIZE - 16;
	t->cs = __KERNEL_CS;
	t->ss = t->ds = t->es = __KERNEL_DS;
	t->iomap_base = sizeof(*t);
	c->gdt[GDT_ENTRY_DOUBLEFAULT_TSS] = desc_system((uint32_t)t, sizeof(*t) - 1,
							DESC_TYPE_TSS32);
}
