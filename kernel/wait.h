/* kernel/wait.h - exit notification and wait4 (abi.md sections 3 and 4). */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

struct task;

#define WUNTRACED   0x00000002  /* wait4: report a stopped child too */
#define WCONTINUED  0x00000008  /* ... and one SIGCONT continued */

/* do_notify_parent: sends the zombie's exit signal to its parent's group
 * and wakes wait4 sleepers. tasklist_lock held. A detached task (exit
 * signal -1) must never get here: the seed's worry in sys_wait4
 * (clone-detached-2.5.31-A1) is this assertion. */
void notify_parent_locked(struct task *zombie);

#endif
