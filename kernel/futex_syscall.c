/* kernel/futex_syscall.c - futex(2) and futex_time64(2): decoding op and
 * the timeout, as Linux's sys_futex and do_futex (abi.md sections 6 and
 * 9). The operations themselves are kernel/futex.c's.
 *
 * futex(uaddr, op, val, timeout, uaddr2, val3): op is a command plus two
 * flags, FUTEX_PRIVATE_FLAG (the futex is keyed by address space and
 * address even in a MAP_SHARED area, futex.c) and FUTEX_CLOCK_REALTIME
 * (WAIT_BITSET only). The
 * fourth argument is a timeout for the waits and a number (val2) for the
 * requeues and WAKE_OP:
 *   WAIT          timeout relative, on CLOCK_MONOTONIC; bitset all ones
 *   WAIT_BITSET   timeout absolute, CLOCK_MONOTONIC or CLOCK_REALTIME;
 *                 bitset val3 (0: -EINVAL)
 *   WAKE          val waiters; WAKE_BITSET: those whose bitset meets val3
 *   REQUEUE       wake val, move val2 to uaddr2; CMP_REQUEUE: if
 *                 *uaddr == val3
 *   WAKE_OP       val3 encodes an operation on *uaddr2 and a comparison
 * futex_time64 is the same with a struct timespec64 (glibc 2.34 on uses
 * it first). */
#include "kernel/clock.h"
#include "kernel/futex.h"
#include "kernel/restart.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"

#define FUTEX_CMD_MASK (~(uint32_t)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

static bool has_timeout(uint32_t cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET;
}

/* A wait a signal interrupted (futex_wait said -EINTR): without a
 * timeout it is simply made again if no handler runs, or if the handler
 * has SA_RESTART; with one, only after a stop, and to the same deadline
 * (Linux's futex_wait and futex_wait_restart; kernel/restart.h). */
static long futex_wait_restart(struct restart_block *rb);

static long wait_restartable(uint32_t uaddr, unsigned flags, uint32_t val, uint64_t deadline,
			     uint32_t bitset)
{
	long r = futex_wait(uaddr, flags, val, deadline, bitset);
	struct restart_block *rb;

	if (r != -EINTR)
		return r;
	if (deadline == FUTEX_NO_DEADLINE)
		return -ERESTARTSYS;
	rb = restart_block_set(futex_wait_restart, deadline);
	rb->arg[0] = uaddr;
	rb->arg[1] = val;
	rb->arg[2] = bitset;
	rb->arg[3] = flags;
	return -ERESTART_RESTARTBLOCK;
}

static long futex_wait_restart(struct restart_block *rb)
{
	return wait_restartable(rb->arg[0], rb->arg[3], rb->arg[1], rb->deadline, rb->arg[2]);
}

static long do_futex(const uint32_t *arg, bool time64)
{
	uint32_t uaddr = arg[0], op = arg[1], val = arg[2], utime = arg[3];
	uint32_t uaddr2 = arg[4], val3 = arg[5], cmd = op & FUTEX_CMD_MASK;
	unsigned priv = op & FUTEX_PRIVATE_FLAG;
	uint64_t deadline = FUTEX_NO_DEADLINE, ns;
	int err;

	if (!current->mm)
		return -EFAULT;
	/* Linux's sys_futex: the timeout is read (and checked) first. */
	if (has_timeout(cmd) && utime) {
		if ((err = timespec_from_user(utime, time64, &ns)) < 0)
			return err;
		if (cmd == FUTEX_WAIT)
			deadline = time_add_sat(clock_ns(), ns);
		else
			deadline = clock_to_monotonic((op & FUTEX_CLOCK_REALTIME) ?
						      CLOCK_REALTIME : CLOCK_MONOTONIC, ns);
		if (deadline == TIME_NS_MAX)
			deadline = FUTEX_NO_DEADLINE;
	}
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return wait_restartable(uaddr, priv, val, deadline, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAIT_BITSET:
		return val3 ? wait_restartable(uaddr, priv, val, deadline, val3) : -EINVAL;
	case FUTEX_WAKE:
		return futex_wake(uaddr, priv, val, FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return val3 ? futex_wake(uaddr, priv, val, val3) : -EINVAL;
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		/* Linux 6.1: negative counts are refused. */
		if ((int32_t)val < 0 || (int32_t)utime < 0)
			return -EINVAL;
		return futex_requeue(uaddr, priv, val, utime, uaddr2,
				     cmd == FUTEX_CMP_REQUEUE ? &val3 : NULL);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, priv, val, uaddr2, utime, val3);
	default:
		return -ENOSYS;
	}
}

SYSCALL(SYS_futex, futex)
{
	return do_futex(arg, false);
}

SYSCALL(SYS_futex_time64, futex_time64)
{
	return do_futex(arg, true);
}
