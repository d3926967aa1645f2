/* user/lib/pthread_futex.c - the thread library's one futex system call
 * (futex.h).
 *
 * Weak, and alone in its file: a program that defines its own __futex
 * (user/bin/mutex-demo.c counts the calls in one) gets that one used by
 * the whole library, and this file is then never linked. */
#include "futex.h"
#include "raw.h"

__attribute__((weak))
long __futex(volatile int *uaddr, int op, int val, const struct timespec *timeout)
{
	return raw_futex((int *)uaddr, op, val, timeout);
}
