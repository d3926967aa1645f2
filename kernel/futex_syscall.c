/* kernel/futex_syscall.c - futex(2): decoding op and the timeout, as
 * Linux's sys_futex (abi.md section 6). The operations themselves are
 * kernel/futex.c's.
 *
 * futex(uaddr, op, val, timeout): op FUTEX_WAIT (0) or FUTEX_WAKE (1),
 * with FUTEX_PRIVATE_FLAG (128) or not: a private futex is keyed by
 * address space and address even in a MAP_SHARED area (futex.c).
 *   WAIT   sleeps if *uaddr == val; the timeout, if not NULL, is a
 *          relative struct timespec on CLOCK_MONOTONIC
 *   WAKE   wakes up to val waiters, returns how many (a Linux program's
 *          val is read as Linux reads it: linux_futex_wake_count)
 * Every other command is the Linux layer's (linux_futex,
 * kernel/linux_hooks.h), -ENOSYS in the seed kernel. */
#include "kernel/clock.h"
#include "kernel/futex.h"
#include "kernel/linux_hooks.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"

SYSCALL(SYS_futex, futex)
{
	uint32_t uaddr = arg[0], op = arg[1], val = arg[2], utime = arg[3];
	unsigned priv = op & FUTEX_PRIVATE_FLAG;
	uint64_t deadline = FUTEX_NO_DEADLINE, ns;
	long r;

	if (!current->mm)
		return -EFAULT;
	switch (op & ~(uint32_t)FUTEX_PRIVATE_FLAG) {
	case FUTEX_WAIT:
		/* Linux's sys_futex: the timeout is read (and checked) first. */
		if (utime) {
			if ((r = timespec_from_user(utime, false, &ns)) < 0)
				return r;
			deadline = time_add_sat(clock_ns(), ns);
			if (deadline == TIME_NS_MAX)
				deadline = FUTEX_NO_DEADLINE;
		}
		r = futex_wait(uaddr, priv, val, deadline, FUTEX_BITSET_MATCH_ANY);
		/* A signal: -EINTR, or with the Linux layer a restart. */
		return r == -EINTR ? linux_futex_interrupted(uaddr, priv, val, deadline,
							      FUTEX_BITSET_MATCH_ANY) : r;
	case FUTEX_WAKE:
		return futex_wake(uaddr, priv, linux_futex_wake_count(val), FUTEX_BITSET_MATCH_ANY);
	default:
		return linux_futex(arg, false);
	}
}
