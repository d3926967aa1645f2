/* tests/guest/ktest_selfcheck.c - group selfcheck: the kernel's own
 * checks on freed tasks and kernel stacks are in place (issue 11; the
 * crash_* groups in ktest_crash.c show them firing).
 *   - a freed task struct is POISON_FREE throughout (but the object
 *     cache's free-list word), and its kernel stack is a guarded one;
 *   - a self-reaping task parked in the per-CPU task cache is poisoned
 *     after its mm, the moment it parks;
 *   - double faults go to a task gate, to each CPU's TSS in entry 23. */
#include "tests/guest/ktest.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/cpu.h"
#include "arch/i386/kstack.h"
#include "arch/i386/segment.h"

static uint64_t desc_word(const struct desc *d)
{
	return ((uint64_t)d->b << 32) | d->a;
}

KTEST(selfcheck, freed_task_is_poisoned)
{
	struct task *t = task_alloc();
	const uint32_t *w = (const uint32_t *)t;
	uint32_t stack;

	KCHECK(t != NULL);
	/* Its stack is a guarded one: the page under it is a guard. */
	KCHECK(kstack_guard_hit((uint32_t)t->ti - 1, &stack));
	KCHECK_EQ(stack, (uint32_t)t->ti);
	task_free(t);
	/* Word 0 holds the task cache's free-list link (kmem.h). */
	for (size_t i = 1; i < sizeof(struct task) / 4; i++)
		KCHECK_EQ(w[i], POISON_WORD);
}

/* spin_held (arch/i386/spinlock.h), what the "lock held" assertions
 * use: true only while this CPU holds the lock. A lock another CPU holds
 * (made by hand here: locked, another owner) is not held by this one. */
KTEST(selfcheck, spin_held_means_held_by_this_cpu)
{
	static struct spinlock l = SPINLOCK_INIT("selfcheck");
	struct spinlock other = { 1, "other cpu's", current_thread_info()->cpu + 1 };

	KCHECK(!spin_held(&l));
	spin_lock(&l);
	KCHECK(spin_held(&l));
	spin_unlock(&l);
	KCHECK(!spin_held(&l));
	KCHECK(!spin_held(&other));
}

static void exit_at_once(void *arg)
{
	(void)arg;
}

KTEST(selfcheck, parked_task_is_poisoned)
{
	/* Without init, the first task hashed gets tid 1, and its exit
	 * would be taken for init's (kernel/exit.c): hold tid 1 here. */
	struct task *one = task_alloc(), *t;
	uint32_t flags;

	KCHECK(one != NULL);
	KCHECK(task_hash(one) > 0);
	t = kthread_create("parks", exit_at_once, NULL);
	KCHECK(t != NULL && t->tgid != 1);
	for (int i = 0; i < 100000 && (t->state != TASK_DEAD || t->on_cpu); i++)
		schedule();
	KCHECK(t->state == TASK_DEAD);
	/* Parked (or already freed by the next to park: poisoned all the
	 * same). */
	KCHECK(t->mm == NULL);          /* switch_to still reads it */
	KCHECK_EQ((uint32_t)t->files, POISON_WORD);
	KCHECK_EQ((uint32_t)t->sighand, POISON_WORD);
	KCHECK_EQ((uint32_t)t->parent, POISON_WORD);
	KCHECK_EQ((uint32_t)t->tf, POISON_WORD);
	flags = spin_lock_irqsave(&tasklist_lock);
	task_unhash_locked(one);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	task_free(one);
}

KTEST(selfcheck, doublefault_tss_in_entry_23)
{
	for (int c = 0; c < ncpus; c++) {
		uint64_t d = desc_word(&gdt_for_cpu(c)[GDT_ENTRY_DOUBLEFAULT_TSS]);
		/* Present, DPL 0, an available 32-bit TSS (never entered:
		 * not busy), 104 bytes. */
		KCHECK_EQ((d >> 40) & 0xff, 0x89);
		KCHECK_EQ(d & 0xffff, 103);
	}
}
