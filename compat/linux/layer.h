/* compat/linux/layer.h - what the Linux layer's files call of each
 * other that has no header of its own. */
#ifndef COMPAT_LINUX_LAYER_H
#define COMPAT_LINUX_LAYER_H

#include "lib/types.h"
#include "lib/abi_linux.h"

struct task;

/* compat/linux/itimer.c: SIGALRMs due (from the tick); a leader's timer
 * stopped before its task is freed; execve in a thread: the old leader's
 * timer becomes to's (tasklist_lock held, interrupts off). */
void linux_timers_run(void);
void itimer_cancel(struct task *t);
void itimer_move_locked(struct task *from, struct task *to);

/* compat/linux/fd.c: Linux's initial limits, for a task with no parent
 * to copy (fork copies its parent's process's; a thread has its own
 * process's). And a process's limits, wherever t is in it: its group
 * leader's (a leader outlives its threads, a zombie until the last one
 * goes), as Linux keeps them in the signal_struct its threads share. */
void rlimit_init_defaults(struct rlimit *r);
struct rlimit *task_rlimits(struct task *t);

/* compat/linux/pgrp.c: does a live process of group pgid exist (in
 * session sid, when sid >= 0)? tasklist_lock held. */
bool pgrp_exists_locked(int pgid, int sid);

/* compat/linux/time_linux.c: CLOCK_REALTIME in ns since the epoch
 * (gettimeofday, file times, /proc/stat's btime). */
uint64_t realtime_ns(void);

/* sig (SI_KERNEL) to every process of process group pgid (the tty's
 * ^C; compat/linux/signal_linux.c). */
long kill_pgrp(int pgid, int sig);
/* A temporary mask for the length of one call (rt_sigsuspend, ppoll,
 * pselect6; Linux's set_user_sigmask): the user's 8-byte mask at umask
 * is put in force and the current one kept as saved_sigmask. 0, -EINVAL
 * (sigsetsize not 8), -EFAULT. */
long sigmask_set_temporary(uint32_t umask, uint32_t sigsetsize);
/* After such a call: the saved mask back now, unless the call returns
 * result -ERESTARTNOHAND (a signal came), when it goes back on the way
 * out (Linux's restore_saved_sigmask_unless). */
void sigmask_restore_unless_interrupted(long result);

#endif
