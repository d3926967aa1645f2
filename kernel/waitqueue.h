/* kernel/waitqueue.h - wait queues: where tasks sleep until an event.
 * How to sleep without losing a wake-up is in kernel/sched.h. */
#ifndef KERNEL_WAITQUEUE_H
#define KERNEL_WAITQUEUE_H

#include "lib/types.h"
#include "lib/list.h"
#include "arch/i386/spinlock.h"

struct task;
struct waitqueue {
	struct spinlock lock;
	struct list waiters;
};

struct waiter {
	struct task *task;
	struct list link;
};

#define WAITQUEUE_INIT(wq, name) { SPINLOCK_INIT(name), LIST_INIT((wq).waiters) }
void waitqueue_init(struct waitqueue *wq, const char *name);

void prepare_to_wait(struct waitqueue *wq, struct waiter *w, int state);
void finish_wait(struct waitqueue *wq, struct waiter *w);
/* Wakes up to n waiters (n < 0: all); returns how many were woken. */
int wake_up_n(struct waitqueue *wq, int n);
static inline void wake_up(struct waitqueue *wq) { wake_up_n(wq, -1); }

#endif
