/* user/lib/lock.h - the libc's own little lock, for the state that
 * threads share (the malloc heap, each stdio stream, the atexit table).
 *
 * A test-and-set spin lock that yields the CPU while it waits: the
 * holder only ever keeps it for a few hundred instructions, so a futex
 * would buy nothing here. Not recursive, and not async-signal-safe (as
 * in C: a signal handler must not call malloc or printf). */
#ifndef USER_LOCK_H
#define USER_LOCK_H

#include "raw.h"

typedef volatile int libc_lock_t;
#define LIBC_LOCK_INIT 0

static inline void libc_lock(libc_lock_t *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		raw_sched_yield();
}

static inline void libc_unlock(libc_lock_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

#endif
