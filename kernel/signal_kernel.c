/* kernel/signal_kernel.c - signals the kernel itself sends
 * (send_signal_task, send_signal_group: signal.h), with the siginfo they
 * carry: an exiting child's CLD_* for its exit signal, SI_KERNEL for
 * everything else. The queueing is kernel/signal.c's. */
#include "kernel/signal.h"
#include "kernel/task.h"

/* The siginfo of zombie's exit signal (Linux's do_notify_parent):
 * CLD_EXITED with the exit code, or CLD_KILLED with the signal. */
static void exit_siginfo(const struct task *zombie, struct ksiginfo *info)
{
	int code = zombie->exit_code;

	*info = (struct ksiginfo){ .signo = zombie->exit_signal, .pid = zombie->tid };
	/* The wait status (abi.md section 3): a signal number in the low 7
	 * bits, else the exit code in bits 8..15. No core dumps, so never
	 * CLD_DUMPED. */
	if (WTERMSIG(code)) {
		info->code = CLD_KILLED;
		info->status = WTERMSIG(code);
	} else {
		info->code = CLD_EXITED;
		info->status = WEXITSTATUS(code);
	}
}

/* A signal from the kernel itself. The exit signal is recognised here
 * because wait.c's notify_parent_locked sends it through
 * send_signal_group(parent, exit_signal) while current is the task that
 * has just become a zombie (kernel/exit.c do_exit); for the rarer
 * notification of a zombie that is reparented (current is then its old
 * parent) it stays SI_KERNEL. tasklist_lock is held on that path, so
 * current's parent and state are stable. */
static void kernel_siginfo(const struct task *to, int sig, struct ksiginfo *info)
{
	const struct task *self = current;

	if (self->state == TASK_ZOMBIE && self->parent == to && sig == self->exit_signal) {
		exit_siginfo(self, info);
		return;
	}
	*info = (struct ksiginfo){ .signo = sig, .code = SI_KERNEL };
}

int send_signal_task(struct task *t, int sig)
{
	struct ksiginfo info;

	kernel_siginfo(t, sig, &info);
	return send_signal_task_info(t, &info);
}

int send_signal_group(struct task *g, int sig)
{
	struct ksiginfo info;

	kernel_siginfo(g, sig, &info);
	return send_signal_group_info(g, &info);
}
