/* kernel/exit.h - ending tasks, and waiting for them. */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include "lib/types.h"

struct task;

/* Ends the calling task with a wait status (abi.md section 3: exited
 * (code & 0xff) << 8, killed by a signal: the signal number). */
void do_exit(int status) __attribute__((noreturn));
/* Ends every task of the calling thread group (exit_group, fatal
 * signals), then the caller. */
void do_group_exit(int status) __attribute__((noreturn));

/* Is every other task of t's group a zombie or dead? tasklist_lock held. */
bool group_dead(struct task *t);

/* Linux's release_task: the end of a zombie (or of a task killed by an
 * execve, whose pid the execve takes over): off its parent's children,
 * its group and the pid table, then freed once it is off its CPU.
 * release_task does both halves; the first needs tasklist_lock held,
 * the second must run without it. */
void release_task(struct task *p);
void release_task_unlink_locked(struct task *p);
void release_task_free(struct task *p);

/* Linux's mm_release, for t (current) letting go of its address space on
 * exit and execve: the seed's CLONE_RELEASE_VM writes 0 to
 * t->user_vm_lock (if set); a fault is ignored ("if userspace has not set
 * up a proper pointer then tough luck", user-vm-unlock-A2). With the
 * Linux layer the robust list is walked first, and a
 * CLONE_CHILD_CLEARTID word gets a FUTEX_WAKE after the 0, and a
 * CLONE_VFORK parent is let go (kernel/linux_hooks.h). */
void mm_release(struct task *t);

#endif
