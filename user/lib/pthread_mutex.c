/* user/lib/pthread_mutex.c - mutexes: Drepper's three-state futex mutex
 * (futex.h), plus the owner bookkeeping of the RECURSIVE and ERRORCHECK
 * types.
 *
 * A NORMAL (default) mutex is nothing but the futex word: lock is one
 * `lock cmpxchg` from 0 to 1 and unlock one `lock xadd` back to 0 when
 * nobody waits - no system call on either path; FUTEX_WAIT and FUTEX_WAKE
 * happen only under contention. /bin/mutex-demo counts them. */
#include "pthread_impl.h"
#include "errno.h"

int pthread_mutexattr_init(pthread_mutexattr_t *attr)
{
	attr->type = PTHREAD_MUTEX_DEFAULT;
	return 0;
}

int pthread_mutexattr_destroy(pthread_mutexattr_t *attr)
{
	(void)attr;
	return 0;
}

int pthread_mutexattr_settype(pthread_mutexattr_t *attr, int type)
{
	if (type != PTHREAD_MUTEX_NORMAL && type != PTHREAD_MUTEX_RECURSIVE &&
	    type != PTHREAD_MUTEX_ERRORCHECK)
		return EINVAL;
	attr->type = type;
	return 0;
}

int pthread_mutexattr_gettype(const pthread_mutexattr_t *attr, int *type)
{
	*type = attr->type;
	return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	m->lock = 0;
	m->type = attr ? attr->type : PTHREAD_MUTEX_DEFAULT;
	m->owner = 0;
	m->count = 0;
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	return atomic_load(&m->lock) ? EBUSY : 0;
}

/* For the RECURSIVE and ERRORCHECK types: does the caller hold m? Only
 * the owner itself can have written its own TID there, so reading it
 * without the lock is safe for this question. */
static bool owned_by_me(pthread_mutex_t *m, pid_t *tid)
{
	*tid = pthread_self()->tid;
	return m->owner == *tid;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	pid_t tid;

	if (m->type == PTHREAD_MUTEX_NORMAL) {
		futex_lock(&m->lock);
		return 0;
	}
	if (owned_by_me(m, &tid)) {
		if (m->type == PTHREAD_MUTEX_ERRORCHECK)
			return EDEADLK;
		if (m->count == ~0u)
			return EAGAIN;
		m->count++;
		return 0;
	}
	futex_lock(&m->lock);
	m->owner = tid;
	m->count = 1;
	return 0;
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	pid_t tid;

	if (m->type == PTHREAD_MUTEX_NORMAL)
		return futex_trylock(&m->lock) ? 0 : EBUSY;
	if (owned_by_me(m, &tid)) {
		if (m->type == PTHREAD_MUTEX_ERRORCHECK)
			return EBUSY;
		if (m->count == ~0u)
			return EAGAIN;
		m->count++;
		return 0;
	}
	if (!futex_trylock(&m->lock))
		return EBUSY;
	m->owner = tid;
	m->count = 1;
	return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	pid_t tid;

	if (m->type == PTHREAD_MUTEX_NORMAL) {
		futex_unlock(&m->lock);
		return 0;
	}
	if (!owned_by_me(m, &tid))
		return EPERM;
	if (--m->count > 0)
		return 0;
	m->owner = 0;
	futex_unlock(&m->lock);
	return 0;
}

/* pthread_cond_wait's half of a mutex (pthread_cond.c). Unlocks m
 * completely, remembering a recursive count in *count. */
int __pthread_mutex_release(pthread_mutex_t *m, unsigned *count)
{
	pid_t tid;

	*count = 1;
	if (m->type != PTHREAD_MUTEX_NORMAL) {
		if (!owned_by_me(m, &tid))
			return EPERM;
		*count = m->count;
		m->owner = 0;
		m->count = 0;
	}
	futex_unlock(&m->lock);
	return 0;
}

/* Relocks m after a wait, as 2 ("someone may be waiting"): the thread
 * was woken from a futex, and others woken by the same broadcast may be
 * sleeping on the mutex now; marking it 2 makes our unlock wake one. */
void __pthread_mutex_reacquire(pthread_mutex_t *m, unsigned count)
{
	futex_lock_contended(&m->lock);
	if (m->type != PTHREAD_MUTEX_NORMAL) {
		m->owner = pthread_self()->tid;
		m->count = count;
	}
}
