/* compat/linux/signal_linux.c - the Linux layer's signal calls that the
 * seed ABI has no need of: a signal to a process group from the
 * terminal (kill_pgrp, for ^C and ^Z), and tkill 238. kill(2) with a
 * process group is the core's kill_many, which asks linux_pgid. */
#include "compat/linux/layer.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "lib/string.h"

long kill_pgrp(int pgid, int sig)
{
	struct ksiginfo info;

	if (pgid <= 0)
		return -ESRCH;
	memset(&info, 0, sizeof(info));
	info.signo = sig;
	info.code = SI_KERNEL;      /* as Linux's tty signals (__kill_pgrp_info) */
	return kill_many(pgid, &info);
}

/* tkill(tid, sig): tgkill without the group check, which is why tgkill
 * replaced it (a recycled tid may name a stranger); glibc's raise() of
 * old used it, and it is still there in Linux 6.1. */
LINUX_SYSCALL(SYS_tkill, tkill)
{
	int tid = (int)arg[0], sig = (int)arg[1];
	struct ksiginfo info;
	uint32_t flags;
	struct task *t;
	long err = 0;

	if (tid <= 0 || sig < 0 || sig > SIG_MAX)
		return -EINVAL;
	memset(&info, 0, sizeof(info));
	info.signo = sig;
	info.code = SI_TKILL;
	info.pid = current->tgid;
	flags = spin_lock_irqsave(&tasklist_lock);
	t = task_find(tid);
	if (!t || t->state == TASK_DEAD)
		err = -ESRCH;
	else if (sig)
		send_signal_task_info(t, &info);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}
