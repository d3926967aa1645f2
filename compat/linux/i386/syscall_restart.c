/* compat/linux/i386/syscall_restart.c - the i386 half of system-call restart:
 * Linux's handle_signal and arch_do_signal_or_restart
 * (arch/x86/kernel/signal.c), which read the call's number from
 * orig_eax and back %eip up over `int $0x80`. */
#include "compat/linux/i386/syscall_restart.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/traps.h"
#include "compat/linux/restart.h"
#include "kernel/task.h"
#include "lib/abi_linux.h"

/* `int $0x80` is CD 80: two bytes (SDM Vol. 2A INT n). */
#define INT80_LEN 2

/* Whether tf is the frame of a system call still being returned from:
 * entered by int $0x80 and not replaced by a sigreturn. */
static bool in_syscall(const struct trapframe *tf)
{
	return tf->trapno == T_SYSCALL && (int32_t)tf->err >= 0;
}

static void back_up(struct trapframe *tf, uint32_t nr)
{
	tf->eax = nr;
	tf->eip -= INT80_LEN;
}

void linux_restart_for_handler(struct trapframe *tf, bool sa_restart)
{
	if (!in_syscall(tf))
		return;
	switch ((int32_t)tf->eax) {
	case -ERESTART_RESTARTBLOCK:
	case -ERESTARTNOHAND:
		tf->eax = (uint32_t)-EINTR;
		break;
	case -ERESTARTSYS:
		if (!sa_restart) {
			tf->eax = (uint32_t)-EINTR;
			break;
		}
		back_up(tf, tf->err);
		break;
	case -ERESTARTNOINTR:
		back_up(tf, tf->err);
		break;
	}
}

void linux_restart_slow(struct trapframe *tf)
{
	if (!in_syscall(tf))
		return;
	switch ((int32_t)tf->eax) {
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
	case -ERESTARTNOHAND:
		back_up(tf, tf->err);
		break;
	case -ERESTART_RESTARTBLOCK:
		back_up(tf, SYS_restart_syscall);
		current->lx.restart_block.armed = true;
		break;
	}
}

void linux_restart_forget(struct trapframe *tf)
{
	tf->err = (uint32_t)-1;
	/* A block left by a call the handler interrupted is stale now:
	 * restart_syscall from here is -EINTR (Linux's restore_sigcontext). */
	current->lx.restart_block.fn = restart_no_restart;
	current->lx.restart_block.armed = false;
}
