/* user/lib/lock.h - the libc's own little lock, for the state that
 * threads share (the malloc heap, each stdio stream and the list of
 * them, the atexit and pthread_atfork tables).
 *
 * Drepper's three-state futex mutex, as futex.h's futex_lock (0 free,
 * 1 locked, 2 locked and someone may sleep): no system call unless two
 * threads meet. A waiter sleeps in FUTEX_WAIT rather than spinning,
 * because a holder may keep the lock across system calls: stdio holds a
 * stream's across write(2) and a memory stream's across realloc, and
 * fork() holds every one of them across fork(2) itself (atfork.h), so
 * every other thread of a busy program waits for the whole fork. Asleep,
 * those threads leave their CPUs to the fork and to the child; spinning
 * (this was a test-and-set lock that yielded) they kept them busy, and
 * t_pthread_fork's 200 forks took longer with it in most paired runs.
 *
 * The calls go to raw_futex, not to the thread library's __futex: a
 * program may define __futex to count the thread library's own calls
 * (user/bin/mutex-demo.c, t_pthread_sync), and the libc's are not those.
 * Private futexes (FUTEX_PRIVATE_FLAG): every lock here is in the
 * process's own memory. Not recursive, and not async-signal-safe (as in
 * C: a signal handler must not call malloc or printf). */
#ifndef USER_LOCK_H
#define USER_LOCK_H

#include "raw.h"

typedef volatile int libc_lock_t;
#define LIBC_LOCK_INIT 0

static inline void libc_lock(libc_lock_t *l)
{
	int c = 0;

	if (__atomic_compare_exchange_n(l, &c, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;                 /* free: one lock cmpxchg */
	if (c != 2)
		c = __atomic_exchange_n(l, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		raw_futex((int *)l, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 2, NULL);
		c = __atomic_exchange_n(l, 2, __ATOMIC_ACQUIRE);
	}
}

static inline void libc_unlock(libc_lock_t *l)
{
	if (__atomic_fetch_sub(l, 1, __ATOMIC_RELEASE) != 1) {
		/* It was 2: someone may sleep. */
		__atomic_store_n(l, 0, __ATOMIC_RELEASE);
		raw_futex((int *)l, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL);
	}
}

#endif
