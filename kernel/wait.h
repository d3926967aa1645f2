/* kernel/wait.h - exit notification, wait4 and waitid (abi.md sections 3, 4
 * and 9). */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

struct task;

#define WUNTRACED   0x00000002  /* wait4: report a stopped child too */
#define WSTOPPED    WUNTRACED   /* waitid's name for it */
#define WEXITED     0x00000004  /* waitid: report an exited child (wait4: always) */
#define WCONTINUED  0x00000008  /* ... and one SIGCONT continued */
#define WNOWAIT     0x01000000  /* waitid: report, but leave it waitable */

/* waitid's idtype */
#define P_ALL  0
#define P_PID  1
#define P_PGID 2

/* do_notify_parent: sends the zombie's exit signal to its parent's group
 * and wakes wait4 sleepers. tasklist_lock held. A detached task (exit
 * signal -1) must never get here: the seed's worry in sys_wait4
 * (clone-detached-2.5.31-A1) is this assertion. */
void notify_parent_locked(struct task *zombie);

#endif
