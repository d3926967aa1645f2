/* kernel/wait.c - wait4 and waitpid: reaping zombies (waitid is the
 * Linux layer's, compat/linux/waitid.c, on the same do_wait).
 *
 * A parent waits for its children, and, as on Linux, for the children of
 * every task of its thread group. Which children a call may reap:
 *   pid > 0: that one; pid == -1: any; pid == 0: any in the caller's
 *   process group; pid < -1: any in process group -pid (process groups
 *   are the Linux layer's: linux_pgid; struct wait_target). A child
 *   whose exit signal is not SIGCHLD is a "clone child": only
 *   __WCLONE or __WALL wait for it; a detached child (exit signal -1,
 *   CLONE_DETACHED) is never waited for and does not count: with only
 *   detached children wait4 returns -ECHILD at once (abi.md section 4).
 * A struct rusage asked for gets the reaped child's CPU time and its
 * children's, as the Linux layer keeps them (compat/linux/cputime.c;
 * the other fields are 0; all 0 in the seed kernel), and the child's
 * time goes to the caller's cutime/cstime. */
#include "kernel/wait.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/exit.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/irqflags.h"

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

static bool eligible(const struct task *c, const struct wait_target *w, uint32_t options)
{
	if (w->pid > 0 && c->tid != w->pid)
		return false;
	if (w->pgid > 0 && linux_pgid(c) != w->pgid)
		return false;
	if (c->exit_signal == -1)
		return false;
	if (options & __WALL)
		return true;
	/* A clone child only for __WCLONE, an ordinary one only without. */
	return (c->exit_signal != SIGCHLD) == !!(options & __WCLONE);
}

/* Looks through the children of every task of current's group for one
 * to report (Linux's do_wait_thread): with WEXITED a zombie - marked
 * TASK_DEAD so nobody else takes it, unless WNOWAIT leaves it for a
 * later wait - and with WUNTRACED/WCONTINUED a live child's stop or
 * continue (compat/linux/jobctl.c; taken, unless WNOWAIT). Fills *found, or
 * returns false and tells whether any child qualified at all.
 * tasklist_lock held. */
static bool find_child(const struct wait_target *w, uint32_t options, bool *any,
		       struct wait_found *found)
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
			int report;

			if (!eligible(c, w, options))
				continue;
			*any = true;
			if ((options & (WUNTRACED | WCONTINUED)) &&
			    (report = linux_wait_report_locked(c, options)) != 0) {
				*found = (struct wait_found){ c, c->tid, report, false, { 0, 0 } };
				return true;
			}
			/* Linux's delay_group_leader: a group leader is reaped
			 * only once its threads are gone too; they still point
			 * at it (group_leader) and share its tgid. */
			if ((options & WEXITED) && c->state == TASK_ZOMBIE &&
			    !(c->group_leader == c && !group_dead(c))) {
				if (!(options & WNOWAIT))
					c->state = TASK_DEAD;
				*found = (struct wait_found){ c, c->tid, c->exit_code, true, { 0, 0 } };
				linux_zombie_times_locked(c, found->ticks);
				return true;
			}
		}
		gpos = gpos->next;
	} while (gpos != g && !(options & __WNOTHREAD));
	return false;
}

/* A zombie whose report could not be written is a zombie again, for a
 * later wait. */
static void unreap(struct task *c)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	c->state = TASK_ZOMBIE;
	/* An execve in its group may be waiting for it to be gone: it is
	 * back, for de_thread to take. */
	if (c->group_exec_task)
		wake_up_task(c->group_exec_task);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* The sleep of wait4 and waitid (Linux's do_wait): for the children
 * target names, options with WEXITED for zombies. A child found is handed to report(found, ctx), which writes
 * the caller's results (a zombie is still whole then); if that fails the
 * child stays as it was (a zombie stays a zombie; a stop or continue
 * report stays taken, as on Linux). Then a zombie is reaped, unless
 * WNOWAIT. The child's tid, 0 (WNOHANG and nothing yet), -ECHILD,
 * -ERESTARTSYS, or report's error. */
long do_wait(const struct wait_target *target, uint32_t options,
		    long (*report)(const struct wait_found *f, void *ctx), void *ctx)
{
	struct waitqueue *wq = &current->group_leader->wait_chldexit;

	for (;;) {
		DEFINE_WAIT(w);
		struct wait_found f;
		bool any, got;
		uint32_t flags;
		long err;

		prepare_to_wait(wq, &w, TASK_INTERRUPTIBLE);
		flags = spin_lock_irqsave(&tasklist_lock);
		got = find_child(target, options, &any, &f);
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (got) {
			finish_wait(wq, &w);
			if ((err = report(&f, ctx)) < 0) {
				if (f.zombie && !(options & WNOWAIT))
					unreap(f.c);
				return err;
			}
			if (f.zombie && !(options & WNOWAIT)) {
				flags = spin_lock_irqsave(&tasklist_lock);
				linux_reap_times_locked(current, f.c);
				spin_unlock_irqrestore(&tasklist_lock, flags);
				release_task(f.c);     /* the zombie is ours */
			}
			return f.tid;
		}
		if (!any || (options & WNOHANG)) {
			finish_wait(wq, &w);
			return any ? 0 : -ECHILD;
		}
		if (signal_pending(current)) {
			finish_wait(wq, &w);
			return EINTR_RESTARTSYS;        /* linux_hooks.h */
		}
		schedule();
		finish_wait(wq, &w);
	}
}

/* ---- wait4 and waitpid ---- */

struct wait4_out {
	uint32_t ustatus, urusage;
};

/* The wait status, and the rusage: a zombie's CPU time and its
 * children's; 0 for a live child (its ticks are 0). */
static long wait4_report(const struct wait_found *f, void *ctx)
{
	const struct wait4_out *o = ctx;

	if (o->ustatus && put_user32(o->ustatus, (uint32_t)f->status))
		return -EFAULT;
	if (!o->urusage)
		return 0;
	return linux_rusage_to_user(o->urusage, f->ticks);
}

static long do_wait4(int pid, uint32_t ustatus, uint32_t options, uint32_t urusage)
{
	struct wait4_out o = { ustatus, urusage };
	struct wait_target w = { 0, 0 };

	if (options & ~(uint32_t)WAIT_OPTIONS)
		return -EINVAL;
	if (pid == -2147483647 - 1)
		return -ESRCH;          /* -pid would overflow: Linux's answer */
	if (pid > 0)
		w.pid = pid;
	else if (pid == 0)          /* our own process group (any, for a kernel task) */
		w.pgid = linux_pgid(current);
	else if (pid < -1)
		w.pgid = -pid;
	return do_wait(&w, options | WEXITED, wait4_report, &o);
}

SYSCALL(SYS_wait4, wait4)
{
	return do_wait4((int)arg[0], arg[1], arg[2], arg[3]);
}

SYSCALL(SYS_waitpid, waitpid)
{
	return do_wait4((int)arg[0], arg[1], arg[2], 0);
}
