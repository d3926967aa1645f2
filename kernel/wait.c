/* kernel/wait.c - wait4 and waitpid: reaping zombies.
 *
 * A parent waits for its children, and, as on Linux, for the children of
 * every task of its thread group. Which children a call may reap:
 *   pid > 0: that one; pid == -1: any; pid == 0: any in the caller's
 *   process group; pid < -1: any in process group -pid. A child whose exit signal is not SIGCHLD is a "clone child": only
 *   __WCLONE or __WALL wait for it; a detached child (exit signal -1,
 *   CLONE_DETACHED) is never waited for and does not count: with only
 *   detached children wait4 returns -ECHILD at once (abi.md section 4).
 * A struct rusage asked for gets the reaped child's CPU time and its
 * children's (kernel/cputime.c; the other fields are 0), and the child's
 * time goes to the caller's cutime/cstime. */
#include "kernel/wait.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/restart.h"
#include "kernel/task.h"
#include "kernel/exit.h"
#include "kernel/cputime.h"
#include "kernel/jobctl.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/irqflags.h"

#define __WNOTHREAD 0x20000000
#define WAIT_OPTIONS (WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL)

void notify_parent_locked(struct task *zombie)
{
	struct task *parent = zombie->parent;

	ASSERT(spin_held(&tasklist_lock));
	ASSERT(zombie->exit_signal != -1);      /* clone-detached-A1's BUG() */
	if (!parent)
		return;
	/* Not even a child's exit signal kills init (SIGNAL_UNKILLABLE). */
	if (zombie->exit_signal > 0 && !signal_init_ignores(parent, zombie->exit_signal))
		send_signal_group(parent, zombie->exit_signal);
	wake_up(&parent->group_leader->wait_chldexit);
}

static bool eligible(const struct task *c, int pid, uint32_t options)
{
	if (pid > 0 && c->tid != pid)
		return false;
	if (pid < -1 && c->pgid != -pid)        /* a process group */
		return false;
	if (c->exit_signal == -1)
		return false;
	if (options & __WALL)
		return true;
	/* A clone child only for __WCLONE, an ordinary one only without. */
	return (c->exit_signal != SIGCHLD) == !!(options & __WCLONE);
}

/* Looks through the children of every task of current's group. Returns a
 * zombie to reap (marked TASK_DEAD so nobody else takes it), or with
 * WUNTRACED/WCONTINUED a live child with a stop or continue to report
 * (*report: its wait status, taken; kernel/jobctl.c), or NULL and tells
 * whether any child qualified at all. tasklist_lock held. */
static struct task *find_zombie(int pid, uint32_t options, bool *any, int *report)
{
	struct task *t = current;
	struct list *g = &t->thread_group, *gpos = g;

	ASSERT(spin_held(&tasklist_lock));
	*any = false;
	do {
		struct task *member = list_entry(gpos, struct task, thread_group);
		struct list *pos;

		list_for_each(pos, &member->children) {
			struct task *c = list_entry(pos, struct task, sibling);
			if (!eligible(c, pid, options))
				continue;
			*any = true;
			if ((options & (WUNTRACED | WCONTINUED)) &&
			    (*report = jobctl_wait_report_locked(c, options)) != 0)
				return c;
			/* Linux's delay_group_leader: a group leader is reaped
			 * only once its threads are gone too; they still point
			 * at it (group_leader) and share its tgid. */
			if (c->state == TASK_ZOMBIE && !(c->group_leader == c && !group_dead(c))) {
				c->state = TASK_DEAD;
				return c;
			}
		}
		gpos = gpos->next;
	} while (gpos != g && !(options & __WNOTHREAD));
	return NULL;
}

static long do_wait4(int pid, uint32_t ustatus, uint32_t options, uint32_t urusage)
{
	struct waitqueue *wq = &current->group_leader->wait_chldexit;

	if (options & ~(uint32_t)WAIT_OPTIONS)
		return -EINVAL;
	if (pid == -2147483647 - 1)
		return -ESRCH;          /* -pid would overflow: Linux's answer */
	if (pid == 0)               /* our own process group (-1 for a kernel task) */
		pid = current->pgid ? -current->pgid : -1;
	for (;;) {
		DEFINE_WAIT(w);
		struct task *c;
		bool any;
		uint32_t flags;
		int report = 0, tid = 0;

		prepare_to_wait(wq, &w, TASK_INTERRUPTIBLE);
		flags = spin_lock_irqsave(&tasklist_lock);
		c = find_zombie(pid, options, &any, &report);
		if (c)
			tid = c->tid;   /* a reported child may be reaped meanwhile */
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (report) {
			/* A stop or continue: the child stays. Its report is
			 * taken, as on Linux, even if it cannot be written;
			 * the rusage of a live child is left 0 here. */
			finish_wait(wq, &w);
			if ((ustatus && put_user32(ustatus, (uint32_t)report)) ||
			    (urusage && clear_user(urusage, 72)))
				return -EFAULT;
			return tid;
		}
		if (c) {
			finish_wait(wq, &w);
			/* Report first: if the status cannot be written, the
			 * child stays a zombie for a later wait. */
			if ((ustatus && put_user32(ustatus, (uint32_t)c->exit_code)) ||
			    (urusage && cputime_rusage_of_zombie(c, urusage) < 0)) {
				flags = spin_lock_irqsave(&tasklist_lock);
				c->state = TASK_ZOMBIE;
				/* An execve in its group may be waiting for it
				 * to be gone: it is back, for de_thread to take. */
				if (c->group_exec_task)
					wake_up_task(c->group_exec_task);
				spin_unlock_irqrestore(&tasklist_lock, flags);
				return -EFAULT;
			}
			flags = spin_lock_irqsave(&tasklist_lock);
			cputime_reap_locked(current, c);
			spin_unlock_irqrestore(&tasklist_lock, flags);
			release_task(c);       /* the zombie is ours */
			return tid;
		}
		if (!any || (options & WNOHANG)) {
			finish_wait(wq, &w);
			return any ? 0 : -ECHILD;
		}
		if (signal_pending(current)) {
			finish_wait(wq, &w);
			return -ERESTARTSYS;    /* kernel/restart.h */
		}
		schedule();
		finish_wait(wq, &w);
	}
}

SYSCALL(SYS_wait4, wait4)
{
	return do_wait4((int)arg[0], arg[1], arg[2], arg[3]);
}

SYSCALL(SYS_waitpid, waitpid)
{
	return do_wait4((int)arg[0], arg[1], arg[2], 0);
}
