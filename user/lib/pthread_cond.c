/* user/lib/pthread_cond.c - condition variables on a futex sequence
 * counter.
 *
 * c->seq is the futex. A waiter reads seq, unlocks the mutex and sleeps
 * with FUTEX_WAIT(&seq, the value it read); signal and broadcast bump seq
 * and wake one or all. The lost wake-up (a signal between the waiter's
 * unlock and its sleep) cannot happen: the signal changed seq, so the
 * waiter's FUTEX_WAIT sees a different value and returns at once
 * (-EAGAIN). Waking is a system call, so c->waiters counts the threads
 * between "read seq" and "awake again": a signal that finds none skips
 * it. (Waiters increment it before reading seq, signallers read it after
 * bumping seq, both with locked instructions: a signaller that reads 0
 * has bumped seq before any later waiter read it.)
 *
 * Every wake-up may be spurious (POSIX allows it): callers loop on their
 * predicate. 2^32 signals between a waiter's read and its sleep would
 * fool it; that is 2^32 system calls. */
#include "pthread_impl.h"
#include "errno.h"
#include "raw.h"

#define NSEC_PER_SEC 1000000000L

int pthread_condattr_init(pthread_condattr_t *attr)
{
	attr->clock = CLOCK_REALTIME;
	return 0;
}

int pthread_condattr_destroy(pthread_condattr_t *attr)
{
	(void)attr;
	return 0;
}

int pthread_condattr_setclock(pthread_condattr_t *attr, clockid_t clock)
{
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC)
		return EINVAL;
	attr->clock = clock;
	return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	c->seq = 0;
	c->waiters = 0;
	c->clock = attr ? attr->clock : CLOCK_REALTIME;
	return 0;
}

int pthread_cond_destroy(pthread_cond_t *c)
{
	return atomic_load(&c->waiters) ? EBUSY : 0;
}

/* rel: a relative timeout for FUTEX_WAIT, or NULL for none. */
static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *rel)
{
	unsigned count;
	int seq, err;
	long r;

	atomic_add(&c->waiters, 1);
	seq = atomic_load(&c->seq);
	if ((err = __pthread_mutex_release(m, &count)) != 0) {
		atomic_add(&c->waiters, -1);
		return err;
	}
	r = futex_wait(&c->seq, seq, rel);
	atomic_add(&c->waiters, -1);
	__pthread_mutex_reacquire(m, count);
	return r == -ETIMEDOUT ? ETIMEDOUT : 0;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return cond_wait(c, m, NULL);
}

/* abstime is absolute on c's clock (CLOCK_REALTIME unless the condattr
 * said otherwise, as POSIX says); FUTEX_WAIT takes a relative timeout
 * (abi.md section 6), so convert. A deadline already past returns
 * ETIMEDOUT at once, with the mutex still held. */
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
			   const struct timespec *abstime)
{
	struct timespec now, rel;

	if (abstime->tv_nsec < 0 || abstime->tv_nsec >= NSEC_PER_SEC)
		return EINVAL;
	if (raw_clock_gettime(c->clock, &now) < 0)
		return EINVAL;
	rel.tv_sec = abstime->tv_sec - now.tv_sec;
	rel.tv_nsec = abstime->tv_nsec - now.tv_nsec;
	if (rel.tv_nsec < 0) {
		rel.tv_nsec += NSEC_PER_SEC;
		rel.tv_sec--;
	}
	if (rel.tv_sec < 0)
		return ETIMEDOUT;
	return cond_wait(c, m, &rel);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	atomic_add(&c->seq, 1);
	if (atomic_load(&c->waiters) > 0)
		futex_wake(&c->seq, 1);
	return 0;
}

/* Wakes them all; they then queue on the mutex one by one. (Linux later
 * added FUTEX_REQUEUE to move them onto the mutex without waking them;
 * Spindle's futex has WAIT and WAKE only.) */
int pthread_cond_broadcast(pthread_cond_t *c)
{
	atomic_add(&c->seq, 1);
	if (atomic_load(&c->waiters) > 0)
		futex_wake(&c->seq, FUTEX_WAKE_ALL);
	return 0;
}
