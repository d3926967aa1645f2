/* compat/linux/jobctl.c - job-control stops (jobctl.h), the shape of Linux's
 * group stop without ptrace.
 *
 * A stop signal whose action is the default (SIGSTOP always; SIGTSTP,
 * SIGTTIN and SIGTTOU unless the process group is orphaned) stops the
 * whole process. The thread that takes it sets the group stop in the
 * leader (stop_sig) and marks every thread JOBSTOP_PENDING; each stops
 * at its next return to user mode (signal_pending() is true for it, so
 * a sleeping call returns first, to be made again after: restart.h) and
 * sleeps in TASK_STOPPED,
 * which no ordinary wake-up ends. The last one to stop makes the report
 * (stop_report, for wait4 WUNTRACED) and tells the parent (SIGCHLD with
 * CLD_STOPPED, unless it set SA_NOCLDSTOP).
 *
 * SIGCONT acts when it is sent, whatever its action (Linux's
 * prepare_signal): pending stop signals go, every thread is let go
 * (wake_up_stopped), and if the process had stopped, wait4 WCONTINUED
 * gets a report and the parent a CLD_CONTINUED, sent by the first thread
 * that runs again (a sender may hold locks the notification needs).
 * SIGKILL wakes stopped threads, which then die of it. A stop signal
 * sent cancels a pending SIGCONT, and the other way round.
 *
 * Locks: the stop state is under the group's sighand->lock; the walks of
 * the group and the parent's notification under tasklist_lock (taken
 * first). A call interrupted by a stop is made again when the process
 * continues (compat/linux/restart.h). */
#include "compat/linux/jobctl.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "kernel/wait.h"
#include "lib/string.h"

static struct task *next_thread(struct task *t)
{
	return list_entry(t->thread_group.next, struct task, thread_group);
}

static bool alive(const struct task *t)
{
	return t->state != TASK_ZOMBIE && t->state != TASK_DEAD;
}

static bool kill_pending(const struct task *t, const struct sighand *sh)
{
	return ((t->pending.signals | sh->shared_pending.signals) & SIGMASK(SIGKILL)) != 0;
}

void linux_signal_prepare_locked(struct task *t, struct sighand *sh, int sig)
{
	struct task *leader = t->group_leader, *o = t;

	ASSERT(spin_held(&sh->lock));
	if (sig_is_stop(sig)) {
		sh->shared_pending.signals &= ~SIGMASK(SIGCONT);
		do {
			if (o->sighand == sh)
				o->pending.signals &= ~SIGMASK(SIGCONT);
			o = next_thread(o);
		} while (o != t);
	} else if (sig == SIGCONT) {
		sh->shared_pending.signals &= ~SIG_STOP_SIGNALS;
		do {
			if (o->sighand == sh) {
				o->pending.signals &= ~SIG_STOP_SIGNALS;
				o->lx.jobstop = JOBSTOP_NONE;
				o->lx.stop_dequeued = false;
				wake_up_stopped(o);
			}
			o = next_thread(o);
		} while (o != t);
		if (leader->lx.group_stopped)
			leader->lx.cont_report = leader->lx.cld_continued = true;
		leader->lx.stop_sig = 0;
		leader->lx.group_stopped = false;
		leader->lx.stop_report = 0;
	} else if (sig == SIGKILL && leader->lx.stop_sig) {
		/* Only a group that is stopping or stopped has threads to
		 * wake. The test matters: a process killed whole sends
		 * SIGKILL to each of its threads, and a walk of the group
		 * each time made 10,000 threads' deaths 10^8 steps under
		 * tasklist_lock (t_exhaust.kill_of_10000_threads...). */
		do {
			if (o->sighand == sh)
				wake_up_stopped(o);     /* to die: the stop loop lets it go */
			o = next_thread(o);
		} while (o != t);
	}
}

/* The parent of leader's process hears of a stop or a continue: SIGCHLD
 * with the event (unless it ignores SIGCHLD or asked SA_NOCLDSTOP), and
 * its wait4 wakes. tasklist_lock held. */
static void notify_parent_cldstop_locked(struct task *leader, int why, int status)
{
	struct task *parent = leader->parent;
	struct k_sigaction ka;
	struct ksiginfo info;
	uint32_t flags;

	ASSERT(spin_held(&tasklist_lock));
	if (!parent || !parent->sighand)
		return;
	flags = spin_lock_irqsave(&parent->sighand->lock);
	ka = parent->sighand->action[SIGCHLD - 1];
	spin_unlock_irqrestore(&parent->sighand->lock, flags);
	if (ka.handler != SIG_IGN && !(ka.flags & SA_NOCLDSTOP) &&
	    !signal_init_ignores(parent, SIGCHLD)) {
		memset(&info, 0, sizeof(info));
		info.signo = SIGCHLD;
		info.code = why;
		info.pid = leader->tgid;
		info.status = status;
		send_signal_group_info(parent, &info);
	}
	wake_up(&parent->group_leader->wait_chldexit);
}

/* Has every live thread of t's group stopped? Both locks held. */
static bool all_stopped(struct task *t, struct sighand *sh)
{
	struct task *o = t;

	do {
		if (o->sighand == sh && alive(o) && o->lx.jobstop != JOBSTOP_STOPPED)
			return false;
		o = next_thread(o);
	} while (o != t);
	return true;
}

void jobctl_stop_self(void)
{
	struct task *t = current, *leader = t->group_leader;
	struct sighand *sh = t->sighand;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	int stopped_by = 0;
	bool cont;

	spin_lock(&sh->lock);
	if (t->lx.jobstop == JOBSTOP_PENDING) {
		/* Stopped before anyone hears of it, as Linux's
		 * do_signal_stop (set_special_state, then the parent's
		 * notification): a parent that wait4s the report and then
		 * reads /proc/PID/stat must see T, not R (lx_procfs at -smp 8
		 * caught the other order). The loop below sleeps in it. */
		t->state = TASK_STOPPED;
		t->lx.jobstop = JOBSTOP_STOPPED;
		if (!leader->lx.group_stopped && all_stopped(t, sh)) {
			leader->lx.group_stopped = true;
			stopped_by = leader->lx.stop_report = leader->lx.stop_sig;
		}
	}
	spin_unlock(&sh->lock);
	if (stopped_by)
		notify_parent_cldstop_locked(leader, CLD_STOPPED, stopped_by);
	spin_unlock_irqrestore(&tasklist_lock, flags);

	/* Asleep until SIGCONT clears jobstop or SIGKILL comes; both are
	 * set under sh->lock before the wake-up, so none is lost. */
	for (;;) {
		flags = spin_lock_irqsave(&sh->lock);
		if (t->lx.jobstop == JOBSTOP_NONE || kill_pending(t, sh) || t->group_exiting)
			break;
		t->state = TASK_STOPPED;
		spin_unlock_irqrestore(&sh->lock, flags);
		schedule();
	}
	t->state = TASK_RUNNING;
	cont = leader->lx.cld_continued;
	leader->lx.cld_continued = false;
	spin_unlock_irqrestore(&sh->lock, flags);
	if (cont) {
		flags = spin_lock_irqsave(&tasklist_lock);
		notify_parent_cldstop_locked(leader, CLD_CONTINUED, SIGCONT);
		spin_unlock_irqrestore(&tasklist_lock, flags);
	}
}

void linux_do_stop(int sig)
{
	struct task *t = current, *leader = t->group_leader, *o = t;
	struct sighand *sh = t->sighand;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	/* init never stops (Linux's SIGNAL_UNKILLABLE), and POSIX discards
	 * a terminal's stop signal to an orphaned group: nobody is left in
	 * the session to continue it. */
	if (t->tgid == 1 || t->group_exiting ||
	    (sig != SIGSTOP && pgrp_orphaned_locked(t->lx.pgid))) {
		spin_unlock_irqrestore(&tasklist_lock, flags);
		return;
	}
	spin_lock(&sh->lock);
	/* A SIGCONT sent since we took the stop signal has cancelled it
	 * (Linux's JOBCTL_STOP_DEQUEUED): otherwise we would stop after
	 * the continue and stay stopped. */
	if (t->lx.stop_dequeued && !leader->lx.stop_sig && !kill_pending(t, sh)) {
		leader->lx.stop_sig = sig;
		do {
			if (o->sighand == sh && alive(o)) {
				o->lx.jobstop = JOBSTOP_PENDING;
				set_tif_sigpending(o);
				if (o != t)
					signal_wake(o);         /* to its return path */
			}
			o = next_thread(o);
		} while (o != t);
	}
	t->lx.stop_dequeued = false;
	spin_unlock(&sh->lock);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (t->lx.jobstop == JOBSTOP_PENDING)
		jobctl_stop_self();
}

int linux_wait_report_locked(struct task *c, uint32_t options)
{
	struct sighand *sh = c->sighand;
	int status = 0;

	ASSERT(spin_held(&tasklist_lock));
	if (!sh || c->group_leader != c || !alive(c))
		return 0;
	spin_lock(&sh->lock);
	if ((options & WUNTRACED) && c->lx.stop_report) {
		status = W_STOPCODE(c->lx.stop_report);
		if (!(options & WNOWAIT))
			c->lx.stop_report = 0;
	} else if ((options & WCONTINUED) && c->lx.cont_report) {
		status = W_CONTINUED;
		if (!(options & WNOWAIT))
			c->lx.cont_report = false;
	}
	spin_unlock(&sh->lock);
	return status;
}

bool jobctl_sig_ignored(int sig)
{
	struct sighand *sh = current->sighand;
	uint32_t flags;
	bool ignored;

	if (!sh)
		return true;
	flags = spin_lock_irqsave(&sh->lock);
	ignored = (current->blocked & SIGMASK(sig)) || sh->action[sig - 1].handler == SIG_IGN;
	spin_unlock_irqrestore(&sh->lock, flags);
	return ignored;
}

/* ---- the hooks kernel/signal.c calls (kernel/linux_hooks.h) ---- */


void linux_signal_stop_point(void)
{
	if (current->lx.jobstop == JOBSTOP_PENDING)
		jobctl_stop_self();     /* the group is stopping */
}

void linux_signal_dequeued_locked(struct task *t, int sig)
{
	ASSERT(spin_held(&t->sighand->lock));
	t->lx.stop_dequeued = sig_is_stop(sig);         /* Linux's JOBCTL_STOP_DEQUEUED */
}
