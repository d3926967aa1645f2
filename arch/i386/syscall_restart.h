/* arch/i386/syscall_restart.h - backing a system call up to be made
 * again (kernel/restart.h says when and why).
 *
 * The trap frame of a system call keeps the call's number in its error
 * code slot, tf->err (vectors.S syscall_entry: int $0x80 has no CPU
 * error code), as Linux's pt_regs keeps orig_eax in the same place:
 * %eax itself is overwritten by the result. rt_sigreturn sets it to -1,
 * Linux's "disable syscall checks", so that the registers it puts back
 * are never taken for a call to restart. */
#ifndef ARCH_I386_SYSCALL_RESTART_H
#define ARCH_I386_SYSCALL_RESTART_H

#include "lib/types.h"
#include "arch/i386/trapframe.h"
#include "kernel/restart.h"

/* A handler is about to run (do_signal, before its frame is built, so
 * that the frame saves the adjusted %eax and %eip): a restart code in
 * %eax becomes -EINTR, or the call is backed up (ERESTARTNOINTR, and
 * ERESTARTSYS when the handler has SA_RESTART). */
void syscall_restart_for_handler(struct trapframe *tf, bool sa_restart);

/* Last on the way to user mode, when no handler was set up: any restart
 * code left in %eax backs the call up; ERESTART_RESTARTBLOCK makes it
 * restart_syscall (0). Inline, because every system call's return
 * passes here and almost none has a restart code: one compare (the
 * four codes are -516..-512), then the work out of line. */
void syscall_restart_slow(struct trapframe *tf);
static inline void syscall_restart_no_handler(struct trapframe *tf)
{
	if (tf->eax + ERESTART_RESTARTBLOCK <= ERESTART_RESTARTBLOCK - ERESTARTSYS)
		syscall_restart_slow(tf);
}

/* rt_sigreturn and sigreturn: the frame is no longer a system call's,
 * and current->restart_block is forgotten. */
void syscall_restart_forget(struct trapframe *tf);

#endif
