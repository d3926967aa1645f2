/* kernel/mutex.h - a sleeping lock, for data whose users copy to or from
 * user memory while they hold it (a page fault may sleep, so a spinlock
 * cannot be held there).
 *
 * The holder is recorded so that mutex_assert_held can back the "mutex
 * held" comments with a check. mutex_lock_killable sleeps interruptibly
 * and gives up with -ERESTARTSYS when a signal is pending: a task the
 * out-of-memory policy chose must be able to leave a wait for a lock
 * whose holder is itself waiting for memory. Linux's mutex_lock_killable
 * waits only for fatal signals; this one gives up for any, and the call
 * that was waiting is made again after a handler with SA_RESTART or a
 * stop (compat/linux/restart.h), so the caller sees what Linux's would. */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/waitqueue.h"

struct task;

struct mutex {
	struct spinlock lock;       /* owner */
	struct task *owner;         /* NULL when free */
	struct waitqueue wait;
};

void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);               /* uninterruptible */
int mutex_lock_killable(struct mutex *m);       /* 0, or -ERESTARTSYS */
void mutex_unlock(struct mutex *m);
bool mutex_held(struct mutex *m);               /* by current */
#define mutex_assert_held(m) ASSERT(mutex_held(m))

#endif
