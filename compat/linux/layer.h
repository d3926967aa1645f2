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

/* compat/linux/fd.c: Linux's initial limits; every new task starts with
 * them, fork and clone then copy the parent's. */
void rlimit_init_defaults(struct rlimit *r);

/* compat/linux/pgrp.c: does a live process of group pgid exist (in
 * session sid, when sid >= 0)? tasklist_lock held. */
bool pgrp_exists_locked(int pgid, int sid);

#endif
