/* compat/linux/signal_stack.c - sigaltstack 186: an alternate stack for signal
 * handlers (Linux's kernel/signal.c do_sigaltstack, i386's get_sigframe).
 *
 * A handler installed with SA_ONSTACK runs on the alternate stack, so
 * that a SIGSEGV from a stack overflow can still be handled: the
 * overflowing stack has no room for the frame. The stack is a thread's
 * (fork copies it, a new thread and execve start without one: fork.c,
 * exec.c). "On it" is not a flag but a test of %esp, as in Linux: a
 * handler that longjmps off the stack is off it. */
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/uaccess.h"
#include "lib/errno.h"

struct user_stack {             /* i386's stack_t */
	uint32_t ss_sp;
	int ss_flags;
	uint32_t ss_size;
};
_Static_assert(sizeof(struct user_stack) == 12, "i386 stack_t");

/* Linux's on_sig_stack: sp in (base, base + size]: a push at the top
 * lands inside. */
static bool on_sig_stack(const struct task *t, uint32_t sp)
{
	return t->lx.sas_ss_size && sp - t->lx.sas_ss_sp - 1 < t->lx.sas_ss_size;
}

uint32_t linux_sigaltstack_frame_top(uint32_t esp, unsigned long sa_flags)
{
	struct task *t = current;

	if ((sa_flags & SA_ONSTACK) && t->lx.sas_ss_size && !on_sig_stack(t, esp))
		return t->lx.sas_ss_sp + t->lx.sas_ss_size;
	return esp;
}

void linux_sigaltstack_save(uint32_t *sp, int *flags, uint32_t *size, uint32_t esp)
{
	struct task *t = current;

	*sp = t->lx.sas_ss_sp;
	*size = t->lx.sas_ss_size;
	*flags = !t->lx.sas_ss_size ? SS_DISABLE : on_sig_stack(t, esp) ? SS_ONSTACK : 0;
}

/* sigaltstack(ss, old_ss): old_ss gets the stack as it was; ss (unless
 * NULL) replaces it: -EPERM while running on it, -EINVAL for flags other
 * than 0, SS_ONSTACK (taken as 0, as Linux does) and SS_DISABLE,
 * -ENOMEM below MINSIGSTKSZ. Spindle has no SS_AUTODISARM (-EINVAL). */
LINUX_SYSCALL(SYS_sigaltstack, sigaltstack)
{
	struct task *t = current;
	uint32_t uss = arg[0], uoss = arg[1], esp = t->tf->esp;
	struct user_stack ss, old;

	old.ss_sp = t->lx.sas_ss_sp;
	old.ss_size = t->lx.sas_ss_size;
	old.ss_flags = !t->lx.sas_ss_size ? SS_DISABLE : on_sig_stack(t, esp) ? SS_ONSTACK : 0;
	if (uss) {
		if (copy_from_user(&ss, uss, sizeof(ss)))
			return -EFAULT;
		if (on_sig_stack(t, esp))
			return -EPERM;
		if (ss.ss_flags != 0 && ss.ss_flags != SS_ONSTACK && ss.ss_flags != SS_DISABLE)
			return -EINVAL;
		if (ss.ss_flags == SS_DISABLE) {
			ss.ss_sp = 0;
			ss.ss_size = 0;
		} else if (ss.ss_size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		t->lx.sas_ss_sp = ss.ss_sp;
		t->lx.sas_ss_size = ss.ss_size;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
