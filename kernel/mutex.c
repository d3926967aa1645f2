/* kernel/mutex.c - sleeping locks (mutex.h). */
#include "kernel/mutex.h"
#include "kernel/linux_hooks.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "lib/errno.h"

void mutex_init(struct mutex *m, const char *name)
{
	m->lock = (struct spinlock)SPINLOCK_INIT(name);
	m->owner = NULL;
	waitqueue_init(&m->wait, name);
}

static bool try_take(struct mutex *m)
{
	bool got = false;

	spin_lock(&m->lock);
	if (!m->owner) {
		m->owner = current;
		got = true;
	}
	spin_unlock(&m->lock);
	return got;
}

/* The sleep of sched.h: announce, test, then schedule. */
static int lock_common(struct mutex *m, int state)
{
	ASSERT(m->owner != current);    /* not recursive */
	for (;;) {
		DEFINE_WAIT(w);
		bool got;

		prepare_to_wait(&m->wait, &w, state);
		got = try_take(m);
		if (!got && !(state == TASK_INTERRUPTIBLE && signal_pending(current)))
			schedule();
		finish_wait(&m->wait, &w);
		if (got)
			return 0;
		if (state == TASK_INTERRUPTIBLE && signal_pending(current)) {
			/* The unlock's wake-up may have been ours: pass it on
			 * so the next waiter does not sleep on a free lock. */
			wake_up_n(&m->wait, 1);
			return EINTR_RESTARTSYS;        /* linux_hooks.h */
		}
	}
}

void mutex_lock(struct mutex *m)
{
	(void)lock_common(m, TASK_UNINTERRUPTIBLE);
}

int mutex_lock_killable(struct mutex *m)
{
	return lock_common(m, TASK_INTERRUPTIBLE);
}

void mutex_unlock(struct mutex *m)
{
	spin_lock(&m->lock);
	ASSERT(m->owner == current);
	m->owner = NULL;
	spin_unlock(&m->lock);
	wake_up_n(&m->wait, 1);
}

bool mutex_held(struct mutex *m)
{
	return m->owner == current;
}
