/* kernel/wait.h - exit notification, wait4 and waitid (abi.md sections 3, 4
 * and 9). */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include "lib/types.h"

struct task;

#define WUNTRACED   0x00000002  /* wait4: report a stopped child too */
#define WSTOPPED    WUNTRACED   /* waitid's name for it */
#define WEXITED     0x00000004  /* waitid: report an exited child (wait4: always) */
#define WCONTINUED  0x00000008  /* ... and one SIGCONT continued */
#define WNOWAIT     0x01000000  /* waitid: report, but leave it waitable */
#define __WNOTHREAD 0x20000000  /* only the caller's own children */

/* waitid's idtype */
#define P_ALL  0
#define P_PID  1
#define P_PGID 2

/* do_notify_parent: sends the zombie's exit signal to its parent's group
 * and wakes wait4 sleepers. tasklist_lock held. A detached task (exit
 * signal -1) must never get here: the seed's worry in sys_wait4
 * (clone-detached-2.5.31-A1) is this assertion. */
void notify_parent_locked(struct task *zombie);

/* Which children a wait is for: pid > 0, that one; else pgid > 0, those
 * of that process group; else any. (Not wait4's one signed pid, where
 * -1 means "any" and so could not name process group 1.) */
struct wait_target {
	int pid, pgid;
};

/* What do_wait found: a zombie (not yet reaped) or a live child with a
 * stop or continue to report; status is the wait status either way. */
struct wait_found {
	struct task *c;
	int tid;
	int status;
	bool zombie;
	/* A zombie's CPU time for the rusage (user, system ticks), read
	 * under tasklist_lock: with WNOWAIT nothing keeps c alive after. */
	uint32_t ticks[2];
};

/* The sleep of wait4 and waitid (Linux's do_wait), kernel/wait.c. */
long do_wait(const struct wait_target *target, uint32_t options,
	     long (*report)(const struct wait_found *f, void *ctx), void *ctx);

#endif
