/* user/lib/futex.h - atomics, futex calls and Drepper's mutex, inline.
 *
 * The thread library's one building block. A futex is an aligned int in
 * user memory: the fast path changes it with one locked instruction and
 * never enters the kernel; only a thread that must sleep (FUTEX_WAIT:
 * "sleep if the word still holds val") or wake a sleeper (FUTEX_WAKE)
 * makes a system call (abi.md section 6; Ulrich Drepper, "Futexes Are
 * Tricky", 2004-2011).
 *
 * The atomics are gcc's __atomic builtins; on i386 (-march=i686) each is
 * one instruction, named next to it. Every locked instruction is a full
 * barrier on x86, so __ATOMIC_SEQ_CST costs nothing extra for them. */
#ifndef USER_FUTEX_H
#define USER_FUTEX_H

#include "lib/types.h"
#include "lib/abi_linux.h"

/* Every futex system call of the thread library goes through this one
 * function (pthread_futex.c). It is a weak symbol, so that a program may
 * define its own __futex - to count the calls, say (user/bin/mutex-demo.c)
 * - and the library then uses that one. Returns what the kernel returned:
 * 0 or a count, or -errno. */
long __futex(volatile int *uaddr, int op, int val, const struct timespec *timeout);

static inline long futex_wait(volatile int *uaddr, int val, const struct timespec *rel)
{
	return __futex(uaddr, FUTEX_WAIT, val, rel);
}

static inline long futex_wake(volatile int *uaddr, int n)
{
	return __futex(uaddr, FUTEX_WAKE, n, NULL);
}

#define FUTEX_WAKE_ALL 0x7fffffff

/* ---- atomics ---- */

/* If *p == old, *p = new. Returns what *p held: old on success.
 * (lock cmpxchg) */
static inline int atomic_cmpxchg(volatile int *p, int old, int new)
{
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

/* *p = v; returns the old value. (xchg: locked without a prefix) */
static inline int atomic_xchg(volatile int *p, int v)
{
	return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}

/* *p += v; returns the new value. (lock xadd) */
static inline int atomic_add(volatile int *p, int v)
{
	return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}

static inline int atomic_load(const volatile int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void atomic_store(volatile int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* ---- Drepper's mutex ("Futexes Are Tricky", section 6, mutex3) ----
 *
 * The word has three states:
 *   0  unlocked
 *   1  locked, nobody waits: unlock needs no system call
 *   2  locked, someone may be waiting in FUTEX_WAIT: unlock must wake one
 * Uncontended lock (0 -> 1 by cmpxchg) and unlock (1 -> 0 by a decrement)
 * make no system call at all. A thread that finds the lock taken marks it
 * 2 (xchg) before sleeping, so the owner's unlock knows to wake it; a
 * thread that wakes takes the lock as 2, since others may still sleep. */

static inline void futex_lock(volatile int *lock)
{
	int c = atomic_cmpxchg(lock, 0, 1);

	if (c == 0)
		return;                 /* the fast path: one lock cmpxchg */
	if (c != 2)
		c = atomic_xchg(lock, 2);
	while (c != 0) {
		futex_wait(lock, 2, NULL);
		c = atomic_xchg(lock, 2);
	}
}

/* Takes the lock as 2 whatever it finds: for a thread that has just been
 * woken from a wait and must assume others still sleep (pthread_cond_wait
 * relocking its mutex). */
static inline void futex_lock_contended(volatile int *lock)
{
	while (atomic_xchg(lock, 2) != 0)
		futex_wait(lock, 2, NULL);
}

static inline bool futex_trylock(volatile int *lock)
{
	return atomic_cmpxchg(lock, 0, 1) == 0;
}

static inline void futex_unlock(volatile int *lock)
{
	if (atomic_add(lock, -1) != 0) {        /* it was 2: someone may wait */
		atomic_store(lock, 0);
		futex_wake(lock, 1);
	}
}

#endif
