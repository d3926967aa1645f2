/* compat/linux/jobctl.h - job control: the stop signals stop a process, SIGCONT
 * continues it, and its parent hears of both (SIGCHLD's CLD_STOPPED and
 * CLD_CONTINUED, wait4's WUNTRACED and WCONTINUED), as Linux's group stop
 * (kernel/signal.c do_signal_stop, prepare_signal). */
#ifndef KERNEL_JOBCTL_H
#define KERNEL_JOBCTL_H

#include "lib/types.h"

struct task;
struct sighand;


/* What sending sig does at once, before it is queued (Linux's
 * prepare_signal): a stop signal cancels a pending SIGCONT; SIGCONT
 * cancels pending stop signals and continues a stopped group; SIGKILL
 * wakes a stopped one to die. t is any thread of the group;
 * sighand->lock held. */
void linux_signal_prepare_locked(struct task *t, struct sighand *sh, int sig);
/* do_signal took a stop signal whose action is the default: the group
 * stops (the caller first), unless it is init or, for all but SIGSTOP,
 * its process group is orphaned (POSIX: the signal is discarded). */
void linux_do_stop(int sig);
/* do_signal on a thread with JOBSTOP_PENDING: it stops until SIGCONT or
 * SIGKILL. */
void jobctl_stop_self(void);
/* wait4 and waitid: a report for the stopped (WUNTRACED) or continued
 * (WCONTINUED) process c, as a wait status, taken unless WNOWAIT (0:
 * none). tasklist_lock held. */
int linux_wait_report_locked(struct task *c, uint32_t options);

/* Does current block or ignore sig? (the terminal's is_ignored) */
bool jobctl_sig_ignored(int sig);

/* compat/linux/pgrp.c: POSIX's orphaned process group. tasklist_lock held. */
bool pgrp_orphaned_locked(int pgid);

#endif
