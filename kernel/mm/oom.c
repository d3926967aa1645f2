/* kernel/mm/oom.c - the out-of-memory policy (oom.h). */
#include "kernel/mm/oom.h"
#include "kernel/mm/vm.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "arch/i386/irqflags.h"
#include "lib/string.h"

#define OOM_WAIT_NS (10ull * 1000 * 1000)      /* one tick at 100 Hz */

static bool alive(const struct task *t)
{
	return t->state != TASK_ZOMBIE && t->state != TASK_DEAD;
}

/* Kills every task that uses mm - the victim's thread group, and any
 * other process sharing the address space by CLONE_VM (Linux's
 * oom_kill_process: otherwise the memory would not come back) - as
 * exit_group does: group_exiting, then SIGKILL. tasklist_lock held. */
static void kill_mm_users_locked(struct mm *mm)
{
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->mm != mm || !alive(t) || t->tgid == 1)
			continue;
		t->group_exiting = true;
		t->group_exit_code = SIGKILL;
		send_signal_task(t, SIGKILL);
	}
}

bool out_of_memory(void)
{
	struct task *self = current, *victim = NULL;
	bool dying = false, killed_self = false;
	uint32_t flags, rss = 0;
	struct list *pos;
	char comm[TASK_COMM_LEN];
	int pid = 0;

	/* Killed already: fail the allocation, the SIGKILL does the rest. */
	if (self->group_exiting)
		return false;
	flags = spin_lock_irqsave(&tasklist_lock);
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		/* Kernel threads and zombies have no mm; pid 1 is never
		 * chosen (Linux's is_global_init). */
		if (!t->mm || !alive(t) || t->tgid == 1)
			continue;
		if (t->group_exiting) {
			/* Linux's oom_evaluate_task: a victim on its way out
			 * aborts the choice; its memory is coming back. */
			dying = true;
			break;
		}
		if (!victim || t->mm->rss_pages > victim->mm->rss_pages)
			victim = t;
	}
	if (!dying && victim) {
		pid = victim->tgid;
		memcpy(comm, victim->comm, sizeof(comm));
		rss = victim->mm->rss_pages;
		killed_self = victim->mm == self->mm;
		kill_mm_users_locked(victim->mm);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);

	if (!dying && !victim)
		return false;           /* nothing to kill: the caller fails */
	if (victim)
		kprintf("Out of memory: Killed process %d (%s) anon-rss:%ukB\n", pid, comm,
			rss * (PAGE_SIZE / 1024));
	/* Only a caller that may sleep waits; one that may not fails its
	 * allocation, and the victim dies all the same. */
	if (killed_self || irqs_disabled() || !spin_none_held())
		return false;
	/* Give the victim time to run its exit and free its pages. */
	ASSERT(current_thread_info()->preempt_count == 0);
	self->state = TASK_UNINTERRUPTIBLE;
	schedule_timeout(OOM_WAIT_NS);
	return true;
}
