/* compat/linux/i386/syscall_restart.h - backing a system call up to be made
 * again (compat/linux/restart.h says when and why).
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
#include "compat/linux/restart.h"

/* A handler is about to run (do_signal, before its frame is built, so
 * that the frame saves the adjusted %eax and %eip): a restart code in
 * %eax becomes -EINTR, or the call is backed up (ERESTARTNOINTR, and
 * ERESTARTSYS when the handler has SA_RESTART). */
void linux_restart_for_handler(struct trapframe *tf, bool sa_restart);

/* linux_restart_no_handler's work (kernel/linux_hooks.h), when %eax
 * holds a restart code. */
void linux_restart_slow(struct trapframe *tf);

/* rt_sigreturn and sigreturn: the frame is no longer a system call's,
 * and current->lx.restart_block is forgotten. */
void linux_restart_forget(struct trapframe *tf);

#endif
