/* compat/linux/futex_linux.c - the futex operations only Linux programs
 * use (abi.md section 9), on the core's queues (kernel/futex.h):
 * FUTEX_WAIT_BITSET and WAKE_BITSET, FUTEX_REQUEUE and CMP_REQUEUE,
 * FUTEX_WAKE_OP, FUTEX_CLOCK_REALTIME, futex_time64 and system-call
 * restart of an interrupted wait; and the atomic compare-and-exchange of
 * the robust list (compat/linux/robust.c).
 *
 * futex(uaddr, op, val, timeout, uaddr2, val3): op is a command plus two
 * flags, FUTEX_PRIVATE_FLAG (the futex is keyed by address space and
 * address even in a MAP_SHARED area, kernel/futex.c) and
 * FUTEX_CLOCK_REALTIME (WAIT_BITSET only). The fourth argument is a
 * timeout for the waits and a number (val2) for the requeues and WAKE_OP:
 *   WAIT          timeout relative, on CLOCK_MONOTONIC; bitset all ones
 *   WAIT_BITSET   timeout absolute, CLOCK_MONOTONIC or CLOCK_REALTIME;
 *                 bitset val3 (0: -EINVAL)
 *   WAKE          val waiters (at least one: wake_count); WAKE_BITSET:
 *                 those whose bitset meets val3
 *   REQUEUE       wake val, move val2 to uaddr2; CMP_REQUEUE: if
 *                 *uaddr == val3
 *   WAKE_OP       val3 encodes an operation on *uaddr2 and a comparison
 * futex_time64 is the same with a struct timespec64 (glibc 2.34 on uses
 * it first). The core's futex(2) does WAIT and WAKE itself and hands
 * every other command here (linux_futex, kernel/linux_hooks.h). */
#include "kernel/clock.h"
#include "kernel/futex.h"
#include "kernel/linux_hooks.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "kernel/mm/vm.h"
#include "arch/i386/mmu.h"
#include "compat/linux/futex_linux.h"
#include "compat/linux/restart.h"

/* Both buckets locked, in address order (never twice the same): how
 * two CPUs locking the same pair cannot deadlock. */
static uint32_t lock_two(struct futex_bucket *a, struct futex_bucket *b)
{
	uint32_t flags = spin_lock_irqsave(a < b ? &a->lock : &b->lock);

	if (a != b)
		spin_lock(a < b ? &b->lock : &a->lock);
	return flags;
}

static void unlock_two(struct futex_bucket *a, struct futex_bucket *b, uint32_t flags)
{
	if (a != b)
		spin_unlock(a < b ? &b->lock : &a->lock);
	spin_unlock_irqrestore(a < b ? &a->lock : &b->lock, flags);
}

static long futex_requeue(uint32_t uaddr, unsigned key_flags, uint32_t nr_wake, uint32_t nr_requeue,
		   uint32_t uaddr2, const uint32_t *cmpval)
{
	struct mm *mm = current->mm;
	struct futex_key k1, k2;
	struct futex_bucket *b1, *b2;
	struct list *pos, *tmp;
	uint32_t flags, pa1, pa2;
	long err, count = 0, woken = 0, moved = 0;

	spin_lock(&mm->lock);
	if ((err = futex_key(mm, uaddr, key_flags, &k1, &pa1)) < 0 ||
	    (err = futex_key(mm, uaddr2, key_flags, &k2, &pa2)) < 0) {
		spin_unlock(&mm->lock);
		return err;
	}
	b1 = bucket_of(k1);
	b2 = bucket_of(k2);
	flags = lock_two(b1, b2);
	/* CMP_REQUEUE: checked under the locks a FUTEX_WAIT on uaddr takes,
	 * so no waiter can slip in between the check and the requeue. */
	if (cmpval && *(volatile uint32_t *)P2V(pa1) != *cmpval) {
		err = -EAGAIN;
	} else {
		list_for_each_safe(pos, tmp, &b1->waiters) {
			struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
			if (!key_eq(w->key, k1))
				continue;
			if ((uint32_t)woken < nr_wake) {
				wake_waiter(w);
				woken++;
			} else if ((uint32_t)moved < nr_requeue) {
				/* Within one bucket it stays where it is (as
				 * Linux's requeue_futex): moved to the tail,
				 * this walk would meet it again. */
				if (b1 != b2) {
					list_del(&w->link);
					list_add_tail(&w->link, &b2->waiters);
				}
				w->key = k2;
				__atomic_store_n(&w->bucket, b2, __ATOMIC_RELEASE);
				moved++;
			} else {
				break;
			}
		}
		count = woken + moved;
	}
	unlock_two(b1, b2, flags);
	spin_unlock(&mm->lock);
	return err < 0 ? err : count;
}

/* FUTEX_WAKE_OP's operation on the old value (Linux's
 * arch_futex_atomic_op_inuser): the new value, or false for an unknown
 * operation. */
static bool wake_op_apply(uint32_t op, uint32_t oparg, uint32_t old, uint32_t *new)
{
	switch (op) {
	case FUTEX_OP_SET:  *new = oparg; return true;
	case FUTEX_OP_ADD:  *new = old + oparg; return true;
	case FUTEX_OP_OR:   *new = old | oparg; return true;
	case FUTEX_OP_ANDN: *new = old & ~oparg; return true;
	case FUTEX_OP_XOR:  *new = old ^ oparg; return true;
	default:            return false;
	}
}

/* Its comparison of the old value (signed, as Linux): 1 true, 0 false,
 * -ENOSYS for an unknown comparison. */
static int wake_op_compare(uint32_t cmp, int32_t old, int32_t cmparg)
{
	switch (cmp) {
	case FUTEX_OP_CMP_EQ: return old == cmparg;
	case FUTEX_OP_CMP_NE: return old != cmparg;
	case FUTEX_OP_CMP_LT: return old < cmparg;
	case FUTEX_OP_CMP_LE: return old <= cmparg;
	case FUTEX_OP_CMP_GT: return old > cmparg;
	case FUTEX_OP_CMP_GE: return old >= cmparg;
	default:              return -ENOSYS;
	}
}

/* A 12-bit field of val3, sign-extended. */
static int32_t sext12(uint32_t v)
{
	return (int32_t)(v << 20) >> 20;
}

static long futex_wake_op(uint32_t uaddr, unsigned key_flags, uint32_t nr, uint32_t uaddr2, uint32_t nr2,
		   uint32_t val3)
{
	struct mm *mm = current->mm;
	uint32_t op = (val3 >> 28) & 7, cmp = (val3 >> 24) & 15;
	uint32_t oparg = (uint32_t)sext12(val3 >> 12), old, new;
	int32_t cmparg = sext12(val3);
	struct futex_key k1, k2;
	struct futex_bucket *b1, *b2;
	uint32_t flags, pa1, pa2;
	bool shared;
	long err, woken;
	int hit;

	/* Linux: an out-of-range shift is taken modulo 32 (with a warning). */
	if (val3 & (FUTEX_OP_OPARG_SHIFT << 28))
		oparg = 1u << (oparg & 31);
	spin_lock(&mm->lock);
	if ((err = futex_key(mm, uaddr, key_flags, &k1, &pa1)) < 0 ||
	    (err = futex_key(mm, uaddr2, key_flags, &k2, &pa2)) < 0) {
		spin_unlock(&mm->lock);
		return err;
	}
	/* Linux: an unknown operation is refused after the keys are found,
	 * before anything is written. The operation writes: the page must
	 * be writable (copy-on-write broken first), which a key did not
	 * check. */
	err = op > FUTEX_OP_XOR ? -ENOSYS : 0;
	if (!err && !(pa2 = vm_translate_locked(mm, uaddr2, true, &shared)))
		err = -EFAULT;
	if (err) {
		spin_unlock(&mm->lock);
		return err;
	}
	b1 = bucket_of(k1);
	b2 = bucket_of(k2);
	flags = lock_two(b1, b2);
	/* Under both locks, as Linux: a waiter on uaddr2 sees the new value
	 * or is queued in time for the wake below. */
	old = __atomic_load_n((volatile uint32_t *)P2V(pa2), __ATOMIC_RELAXED);
	do {
		wake_op_apply(op, oparg, old, &new);
	} while (!__atomic_compare_exchange_n((volatile uint32_t *)P2V(pa2), &old, new, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	hit = wake_op_compare(cmp, (int32_t)old, cmparg);
	woken = 0;
	if (hit >= 0) {
		woken = wake_locked(b1, k1, nr, FUTEX_BITSET_MATCH_ANY);
		if (hit)
			woken += wake_locked(b2, k2, nr2, FUTEX_BITSET_MATCH_ANY);
	}
	unlock_two(b1, b2, flags);
	spin_unlock(&mm->lock);
	return hit < 0 ? hit : woken;
}

long futex_cmpxchg(uint32_t uaddr, uint32_t old, uint32_t new, uint32_t *prev)
{
	struct mm *mm = current->mm;
	uint32_t pa;

	if (uaddr & 3)
		return -EINVAL;
	spin_lock(&mm->lock);
	if (!(pa = vm_translate_locked(mm, uaddr, true, NULL))) {
		spin_unlock(&mm->lock);
		return -EFAULT;
	}
	__atomic_compare_exchange_n((volatile uint32_t *)P2V(pa), &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	spin_unlock(&mm->lock);
	*prev = old;
	return 0;
}

/* A wake count as Linux 6.1 reads it (futex_wake and futex_wake_op,
 * kernel/futex/waitwake.c): an int, compared only after a waiter is
 * woken (`if (++ret >= nr_wake) break;`), so 0 or a negative count wakes
 * one. Linux's own tests depend on it: selftests/x86/ldt_gdt.c wakes its
 * thread with FUTEX_WAKE and a count of 0. The requeues are not like
 * this: Linux refuses their negative counts and wakes none for 0.
 * FUTEX_WAKE itself is the core's (kernel/futex_syscall.c): a seed
 * program's count there is the contract's (abi.md section 6: up to val,
 * so 0 wakes none), a Linux program's this one (linux_futex_wake_count,
 * compat/linux/hooks.h). */
static uint32_t wake_count(uint32_t val)
{
	return (int32_t)val <= 0 ? 1 : val;
}

#define FUTEX_CMD_MASK (~(uint32_t)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

static bool has_timeout(uint32_t cmd)
{
	return cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET;
}

/* A wait a signal interrupted (futex_wait said -EINTR): without a
 * timeout it is simply made again if no handler runs, or if the handler
 * has SA_RESTART; with one, only after a stop, and to the same deadline
 * (Linux's futex_wait and futex_wait_restart; compat/linux/restart.h). */
static long futex_wait_restart(struct restart_block *rb);

long linux_futex_interrupted(uint32_t uaddr, unsigned flags, uint32_t val, uint64_t deadline,
			     uint32_t bitset)
{
	struct restart_block *rb;

	if (deadline == FUTEX_NO_DEADLINE)
		return -ERESTARTSYS;
	rb = restart_block_set(futex_wait_restart, deadline);
	rb->arg[0] = uaddr;
	rb->arg[1] = val;
	rb->arg[2] = bitset;
	rb->arg[3] = flags;
	return -ERESTART_RESTARTBLOCK;
}

static long wait_restartable(uint32_t uaddr, unsigned flags, uint32_t val, uint64_t deadline,
			     uint32_t bitset)
{
	long r = futex_wait(uaddr, flags, val, deadline, bitset);

	return r == -EINTR ? linux_futex_interrupted(uaddr, flags, val, deadline, bitset) : r;
}

static long futex_wait_restart(struct restart_block *rb)
{
	return wait_restartable(rb->arg[0], rb->arg[3], rb->arg[1], rb->deadline, rb->arg[2]);
}

long linux_futex(const uint32_t *arg, bool time64)
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
		return futex_wake(uaddr, priv, linux_futex_wake_count(val), FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return val3 ? futex_wake(uaddr, priv, wake_count(val), val3) : -EINVAL;
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		/* Linux 6.1: negative counts are refused. */
		if ((int32_t)val < 0 || (int32_t)utime < 0)
			return -EINVAL;
		return futex_requeue(uaddr, priv, val, utime, uaddr2,
				     cmd == FUTEX_CMP_REQUEUE ? &val3 : NULL);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, priv, wake_count(val), uaddr2, wake_count(utime), val3);
	default:
		return -ENOSYS;
	}
}

LINUX_SYSCALL(SYS_futex_time64, futex_time64)
{
	return linux_futex(arg, true);
}
