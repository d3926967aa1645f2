/* kernel/signal_syscalls.c - the signal system calls of abi.md section 3:
 * rt_sigaction, rt_sigprocmask, kill and tgkill (tkill is the Linux
 * layer's: compat/linux/signal_linux.c). They check and copy
 * their arguments and call kernel/signal.c, which owns the pending sets;
 * rt_sigreturn unwinds a frame of arch/i386/signal_frame.c and lives
 * there. What a sender puts in the siginfo is Linux's: kill() says
 * SI_USER, tgkill() SI_TKILL, both with the sender's process id (si_uid
 * is 0: Spindle has no users). A signal for pid 1 that it has no handler
 * for is dropped, yet the call succeeds, as on Linux (signal_init_ignores:
 * SIGNAL_UNKILLABLE). */
#include "kernel/signal.h"
#include "kernel/panic.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

static bool valid_signal(int sig)
{
	return sig >= 0 && sig <= SIG_MAX;
}

/* The siginfo of a signal current sends by a system call (Linux's
 * kill_pid_info / do_tkill). */
static void sender_siginfo(int sig, int code, struct ksiginfo *info)
{
	*info = (struct ksiginfo){ .signo = sig, .code = code, .pid = current->tgid };
}

static bool task_alive(const struct task *t)
{
	return t->state != TASK_ZOMBIE && t->state != TASK_DEAD;
}

SYSCALL(SYS_rt_sigaction, rt_sigaction)
{
	int sig = (int)arg[0];
	uint32_t uact = arg[1], uoact = arg[2];
	struct sighand *sh = current->sighand;
	struct k_sigaction act, old, replaced;
	uint32_t flags;

	if (arg[3] != sizeof(uint64_t) || sig < 1 || sig > SIG_MAX || !sh)
		return -EINVAL;
	if (uact && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	/* The old action is written out before the new one is installed,
	 * so a bad oact changes nothing. (Linux 2.6 installs first and may
	 * then fail with -EFAULT having changed the action.) */
	if (uoact) {
		flags = spin_lock_irqsave(&sh->lock);
		old = sh->action[sig - 1];
		spin_unlock_irqrestore(&sh->lock, flags);
		if (copy_to_user(uoact, &old, sizeof(old)))
			return -EFAULT;
	}
	if (uact) {
		/* Linux's do_sigaction: the handler's mask never blocks
		 * SIGKILL or SIGSTOP. */
		act.mask[0] &= ~(unsigned long)SIG_UNBLOCKABLE;
		signal_install_action(sig, &act, &replaced);
		/* Another thread changed it in between: report what was
		 * really replaced (the pointer was just written to). */
		if (uoact && memcmp(&replaced, &old, sizeof(old)) != 0)
			(void)copy_to_user(uoact, &replaced, sizeof(replaced));
	}
	return 0;
}

SYSCALL(SYS_rt_sigprocmask, rt_sigprocmask)
{
	int how = (int)arg[0];
	uint32_t uset = arg[1], uoset = arg[2];
	uint64_t old = current->blocked, set, mask;

	if (arg[3] != sizeof(uint64_t))
		return -EINVAL;
	/* Linux's order: the new mask is in force before oset is written,
	 * and a bad how only matters when there is a set. */
	if (uset) {
		if (copy_from_user(&set, uset, sizeof(set)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:   mask = old | set; break;
		case SIG_UNBLOCK: mask = old & ~set; break;
		case SIG_SETMASK: mask = set; break;
		default:          return -EINVAL;
		}
		signal_set_blocked(mask);
	}
	return uoset && copy_to_user(uoset, &old, sizeof(old)) ? -EFAULT : 0;
}

/* kill(pid > 0) (pid 0: the caller's own, for a kernel task, which is
 * in no process group): the group of task `pid` (any of its
 * threads' ids names it, as on Linux). sig 0 only checks that it is
 * there. A zombie is there (Linux answers 0 and sends nothing). */
static long kill_group(int pid, const struct ksiginfo *info)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = pid ? task_find(pid) : current;
	long err = 0;

	if (!t || t->state == TASK_DEAD)
		err = -ESRCH;
	else if (info->signo && !signal_init_ignores(t, info->signo))
		send_signal_group_info(t, info);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

/* kill(-1) (pgid 0): every process but pid 1 and the caller's own
 * (Linux's kill_something_info); kill(-pgid) and kill(0) (pgid > 0):
 * every process of the group, the caller's included. Kernel threads,
 * which take no signals, are not counted. -ESRCH if there was nobody.
 *
 * Each process is signalled once, through the first live member with a
 * sighand that the walk meets (a zombie leader's group is reached through
 * its threads): its leader is stamped with this call's number (kill_seq).
 * The walk used to ask of every task whether it was its group's
 * representative by walking the whole group: with 12,600 threads in one
 * process that was 160 million steps with tasklist_lock held and
 * interrupts off, some 19 s per kill(-1) under QEMU, while every dying
 * thread waited for the lock - the "threads left runnable after
 * kill(-1)" of a thread bomb (docs/reliability.md). Now it is one step a
 * task. Both the numbering and the walk are under tasklist_lock; a task
 * made later copies a number no later call uses. */
long kill_many(int pgid, const struct ksiginfo *info)
{
	static uint32_t kill_seq;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct list *pos;
	int count = 0;

	if (++kill_seq == 0)            /* 0: what a fresh task may hold */
		kill_seq = 1;
	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (!t->sighand || !task_alive(t) || t->group_leader->kill_seq == kill_seq)
			continue;
		t->group_leader->kill_seq = kill_seq;
		if (pgid ? linux_pgid(t) != pgid :
			   t->tgid <= 1 || t->tgid == current->tgid)
			continue;
		count++;
		/* A group signal reaches init only if it has a handler
		 * (SIGNAL_UNKILLABLE, as for a kill of pid 1 itself). */
		if (info->signo && !signal_init_ignores(t, info->signo))
			send_signal_group_info(t, info);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return count ? 0 : -ESRCH;
}

/* kill(pid, sig): pid > 0 one process, 0 the caller's process group,
 * -1 everyone it may signal, < -1 the process group -pid. */
SYSCALL(SYS_kill, kill)
{
	int pid = (int)arg[0], sig = (int)arg[1];
	struct ksiginfo info;

	if (!valid_signal(sig))
		return -EINVAL;
	sender_siginfo(sig, SI_USER, &info);
	if (pid > 0)
		return kill_group(pid, &info);
	if (pid == 0)
		return linux_pgid(current) ? kill_many(linux_pgid(current), &info)
					   : kill_group(0, &info);
	if (pid == -1)
		return kill_many(0, &info);
	if (pid == -2147483647 - 1) /* -pid would overflow: Linux says ESRCH */
		return -ESRCH;
	return kill_many(-pid, &info);
}

/* tgkill(tgid, tid, sig): one thread, which must be in group tgid (so a
 * recycled tid cannot hit a stranger: the reason tgkill replaced tkill). */
SYSCALL(SYS_tgkill, tgkill)
{
	int tgid = (int)arg[0], tid = (int)arg[1], sig = (int)arg[2];
	struct ksiginfo info;
	uint32_t flags;
	struct task *t;
	long err = 0;

	if (tgid <= 0 || tid <= 0 || !valid_signal(sig))
		return -EINVAL;
	sender_siginfo(sig, SI_TKILL, &info);
	flags = spin_lock_irqsave(&tasklist_lock);
	t = task_find(tid);
	if (!t || t->tgid != tgid || t->state == TASK_DEAD)
		err = -ESRCH;
	else if (sig && !signal_init_ignores(t, sig))
		send_signal_task_info(t, &info);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}
