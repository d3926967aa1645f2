/* kernel/futex.h - the futex operations (abi.md sections 6 and 9), for
 * the system call (kernel/futex_syscall.c), the robust-list walk
 * (kernel/robust.c) and the TID word of CLONE_CHILD_CLEARTID
 * (kernel/exit.c). Every uaddr is a user address of current's address
 * space; the results are the system call's (a count, or -errno).
 * key_flags is FUTEX_PRIVATE_FLAG or 0: a private futex is keyed by (address space,
 * address) even in a MAP_SHARED area (abi.md section 6; futex.c). */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include "lib/types.h"

#define FUTEX_NO_DEADLINE UINT64_MAX

void futex_init(void);

/* Sleeps if *uaddr == val, until a wake whose bitset shares a bit with
 * ours, until deadline (CLOCK_MONOTONIC ns since boot, clock_ns()) has
 * passed (-ETIMEDOUT), or a signal (-EINTR). -EAGAIN if *uaddr != val. */
long futex_wait(uint32_t uaddr, unsigned key_flags, uint32_t val, uint64_t deadline,
		uint32_t bitset);
/* Wakes up to nr waiters on uaddr whose bitset meets bitset. */
long futex_wake(uint32_t uaddr, unsigned key_flags, uint32_t nr, uint32_t bitset);
/* FUTEX_REQUEUE / FUTEX_CMP_REQUEUE: wakes up to nr_wake waiters on
 * uaddr and moves up to nr_requeue more to uaddr2; with cmpval, first
 * -EAGAIN unless *uaddr == *cmpval. Returns how many were woken or moved. */
long futex_requeue(uint32_t uaddr, unsigned key_flags, uint32_t nr_wake, uint32_t nr_requeue,
		   uint32_t uaddr2, const uint32_t *cmpval);
/* FUTEX_WAKE_OP: applies val3's operation to *uaddr2 atomically, wakes up
 * to nr waiters on uaddr, and, if the old *uaddr2 passes val3's
 * comparison, up to nr2 on uaddr2. The number woken. */
long futex_wake_op(uint32_t uaddr, unsigned key_flags, uint32_t nr, uint32_t uaddr2, uint32_t nr2,
		   uint32_t val3);
/* An atomic compare-and-exchange of the user word (robust futexes):
 * *prev gets what was there; 0, -EINVAL (unaligned) or -EFAULT. */
long futex_cmpxchg(uint32_t uaddr, uint32_t old, uint32_t new, uint32_t *prev);

#endif
