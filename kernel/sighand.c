/* kernel/sighand.c - struct sighand (signal.h): the actions and the
 * group's pending set that the threads of a group share (CLONE_SIGHAND),
 * its copy at fork, its unsharing and reset at execve. Sending and
 * delivering signals is kernel/signal.c's. */
#include "kernel/signal.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "lib/string.h"

static struct objcache sighand_cache;

void sighand_init(void)
{
	objcache_init(&sighand_cache, "sighand", sizeof(struct sighand), 4);
}

/* A zeroed sighand (every action SIG_DFL, nothing pending), one user. */
struct sighand *sighand_new(void)
{
	struct sighand *sh;

	if (!(sh = objcache_alloc(&sighand_cache)))
		return NULL;
	memset(sh, 0, sizeof(*sh));
	sh->refcount = 1;
	sh->lock = (struct spinlock)SPINLOCK_INIT("sighand");
	return sh;
}

struct sighand *sighand_copy(const struct sighand *sh)
{
	struct sighand *n = sighand_new();
	struct spinlock *lock = (struct spinlock *)&sh->lock;
	uint32_t flags;

	if (!n)
		return NULL;
	/* Linux's copy_sighand: the actions, not the pending signals (a
	 * child of fork starts with none pending). */
	flags = spin_lock_irqsave(lock);
	memcpy(n->action, sh->action, sizeof(n->action));
	spin_unlock_irqrestore(lock, flags);
	return n;
}

void sighand_put(struct sighand *sh)
{
	if (__atomic_sub_fetch(&sh->refcount, 1, __ATOMIC_SEQ_CST) == 0)
		objcache_free(&sighand_cache, sh);
}

int sighand_unshare(struct task *t)
{
	struct sighand *old = t->sighand, *n;
	uint32_t flags;

	if (!old || __atomic_load_n(&old->refcount, __ATOMIC_SEQ_CST) == 1)
		return 0;
	if (!(n = sighand_new()))
		return -ENOMEM;
	/* Senders read t->sighand under tasklist_lock, so the switch is
	 * atomic for them; the old lock keeps the copy whole. What was
	 * pending for the group stays pending (Linux keeps pending signals
	 * across exec); the other sharers keep it too. */
	flags = spin_lock_irqsave(&tasklist_lock);
	spin_lock(&old->lock);
	memcpy(n->action, old->action, sizeof(n->action));
	n->shared_pending = old->shared_pending;
	t->sighand = n;
	spin_unlock(&old->lock);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	sighand_put(old);
	return 0;
}

int signals_exec_reset(struct task *t)
{
	int err = sighand_unshare(t);
	struct sighand *sh = t->sighand;
	uint32_t flags;

	if (!sh)
		return err;
	/* Linux's flush_signal_handlers(t, 0): a handler address means
	 * nothing in the new program; SIG_IGN is kept (that is how nohup
	 * works). If the unshare failed, the shared actions are reset all
	 * the same: a half-reset program would jump to stale addresses. */
	flags = spin_lock_irqsave(&sh->lock);
	for (int i = 0; i < NSIG; i++) {
		struct k_sigaction *ka = &sh->action[i];
		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = 0;
		ka->restorer = NULL;
		ka->mask[0] = ka->mask[1] = 0;
	}
	spin_unlock_irqrestore(&sh->lock, flags);
	return err;
}
