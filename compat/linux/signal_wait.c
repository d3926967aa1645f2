/* compat/linux/signal_wait.c - waiting for signals (Linux's kernel/signal.c):
 * rt_sigpending 176, rt_sigsuspend 179, pause 29, rt_sigtimedwait 177
 * and rt_sigtimedwait_time64 421.
 *
 * Every sleep here is interruptible and ends when signal_pending() says
 * a signal can be delivered: signal_wake (signal.c) wakes a task for
 * any signal it does not block. rt_sigtimedwait unblocks the signals it
 * waits for while it sleeps, so that they wake it, and takes them off
 * the pending sets itself instead of letting a handler run. */
#include "compat/linux/layer.h"
#include "kernel/signal.h"
#include "kernel/panic.h"
#include "kernel/clock.h"
#include "kernel/sched.h"
#include "kernel/syscall.h"
#include "compat/linux/restart.h"
#include "kernel/task.h"
#include "arch/i386/signal_frame.h"
#include "arch/i386/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define NSEC_PER_SEC 1000000000ll

/* Takes a pending signal of set off current's pending sets; 0 if none. */
static int signal_dequeue(uint64_t set, struct ksiginfo *info)
{
	struct sighand *sh = current->sighand;
	uint32_t flags;
	int sig;

	if (!sh)
		return 0;
	flags = spin_lock_irqsave(&sh->lock);
	sig = dequeue_signal_locked(current, sh, set, info);
	spin_unlock_irqrestore(&sh->lock, flags);
	return sig;
}

/* rt_sigpending(set, sigsetsize): the blocked signals pending for the
 * thread or its process. As Linux, a size up to 8 is allowed and that
 * many bytes are written. */
LINUX_SYSCALL(SYS_rt_sigpending, rt_sigpending)
{
	struct task *t = current;
	uint64_t set;

	if (arg[1] > sizeof(set))
		return -EINVAL;
	set = (t->pending.signals | t->sighand->shared_pending.signals) & t->blocked;
	return copy_to_user(arg[0], &set, arg[1]) ? -EFAULT : 0;
}

/* Sleeps until a signal can be delivered. */
static long wait_for_signal(void)
{
	while (!signal_pending(current)) {
		current->state = TASK_INTERRUPTIBLE;
		if (!signal_pending(current))
			schedule();
		current->state = TASK_RUNNING;
	}
	/* -EINTR once a handler runs; made again if none does (a stop and
	 * SIGCONT), as Linux's sys_pause (compat/linux/restart.h). */
	return -ERESTARTNOHAND;
}

LINUX_SYSCALL(SYS_pause, pause)
{
	return wait_for_signal();
}

/* rt_sigsuspend(mask, sigsetsize): mask in force until a signal is
 * handled; the handler's frame then saves the mask from before, so
 * rt_sigreturn puts it back (do_signal reads saved_sigmask). -EINTR
 * when a handler runs; a signal that runs none (a stop and SIGCONT) puts
 * the old mask back and makes the call again, as on Linux. */
LINUX_SYSCALL(SYS_rt_sigsuspend, rt_sigsuspend)
{
	long err = sigmask_set_temporary(arg[0], arg[1]);

	return err < 0 ? err : wait_for_signal();
}

long sigmask_set_temporary(uint32_t umask, uint32_t sigsetsize)
{
	struct task *t = current;
	uint64_t mask;

	if (sigsetsize != sizeof(mask))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	t->lx.saved_sigmask = t->blocked;
	t->lx.restore_sigmask = true;
	signal_set_blocked(mask);
	return 0;
}

void sigmask_restore_unless_interrupted(long result)
{
	struct task *t = current;

	/* Interrupted: the mask stays until do_signal has chosen the
	 * signal under it, then the handler's frame (or do_signal itself,
	 * if no handler runs) puts the old one back. */
	if (result == -ERESTARTNOHAND || !t->lx.restore_sigmask)
		return;
	t->lx.restore_sigmask = false;
	signal_set_blocked(t->lx.saved_sigmask);
}

/* rt_sigtimedwait(set, info, timeout, sigsetsize): takes the first
 * pending signal of set (SIGKILL and SIGSTOP excepted) and returns its
 * number, its siginfo in *info; waits for one as long as *timeout says
 * (NULL: for ever; zero: not at all). -EAGAIN when the time runs out,
 * -EINTR when a signal outside set is delivered first. */
static long sigtimedwait(const uint32_t *arg, bool time64)
{
	struct task *t = current;
	uint64_t set, saved, deadline = 0;
	struct ksiginfo info;
	long sig;

	if (arg[3] != sizeof(set))
		return -EINVAL;
	if (copy_from_user(&set, arg[0], sizeof(set)))
		return -EFAULT;
	set &= ~SIG_UNBLOCKABLE;
	if (arg[2]) {
		long long sec, nsec;
		if (time64) {
			int64_t ts[2];
			if (copy_from_user(ts, arg[2], sizeof(ts)))
				return -EFAULT;
			sec = ts[0];
			nsec = ts[1];
		} else {
			int32_t ts[2];
			if (copy_from_user(ts, arg[2], sizeof(ts)))
				return -EFAULT;
			sec = ts[0];
			nsec = ts[1];
		}
		if (sec < 0 || nsec < 0 || nsec >= NSEC_PER_SEC)
			return -EINVAL;
		if (sec > 100ll * 365 * 86400)          /* a century: never */
			sec = 100ll * 365 * 86400;
		deadline = clock_ns() + (uint64_t)sec * NSEC_PER_SEC + (uint64_t)nsec;
	}

	sig = signal_dequeue(set, &info);
	if (!sig) {
		/* Linux's real_blocked: the set is unblocked while we sleep so
		 * that its signals wake us; the mask is put back before we
		 * look again, so no handler of theirs can run. */
		saved = t->blocked;
		signal_set_blocked(saved & ~set);
		for (;;) {
			uint64_t now = clock_ns();
			t->state = TASK_INTERRUPTIBLE;
			if (signal_pending(t) || (deadline && now >= deadline)) {
				t->state = TASK_RUNNING;
				break;
			}
			if (deadline)
				schedule_timeout(deadline - now);
			else
				schedule();
			t->state = TASK_RUNNING;
		}
		signal_set_blocked(saved);
		sig = signal_dequeue(set, &info);
	}
	if (!sig)
		return signal_pending(t) ? -EINTR : -EAGAIN;
	if (arg[1]) {
		struct siginfo si;
		memset(&si, 0, sizeof(si));
		copy_siginfo(&si, &info);
		if (copy_to_user(arg[1], &si, sizeof(si)))
			return -EFAULT;     /* the signal is taken, as on Linux */
	}
	return sig;
}

LINUX_SYSCALL(SYS_rt_sigtimedwait, rt_sigtimedwait)
{
	return sigtimedwait(arg, false);
}

LINUX_SYSCALL(SYS_rt_sigtimedwait_time64, rt_sigtimedwait_time64)
{
	return sigtimedwait(arg, true);
}

/* ---- the hooks do_signal calls (kernel/linux_hooks.h) ---- */

bool linux_saved_sigmask_take(struct task *t, uint64_t *mask)
{
	if (!t->lx.restore_sigmask)
		return false;
	*mask = t->lx.saved_sigmask;
	t->lx.restore_sigmask = false;
	return true;
}

void linux_saved_sigmask_keep(struct task *t)
{
	t->lx.restore_sigmask = true;   /* saved_sigmask is still the caller's */
}

