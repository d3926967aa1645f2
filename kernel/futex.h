/* kernel/futex.h - the futex wait queues (abi.md section 6): for the
 * system call (kernel/futex_syscall.c), the TID word of
 * CLONE_CHILD_CLEARTID and the Linux layer's operations
 * (compat/linux/futex_linux.c). Every uaddr is a user address of
 * current's address space; the results are the system call's (a count,
 * or -errno). key_flags is FUTEX_PRIVATE_FLAG or 0: a private futex is
 * keyed by (address space, address) even in a MAP_SHARED area (abi.md
 * section 6; futex.c). */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include "lib/types.h"
#include "lib/list.h"
#include "arch/i386/spinlock.h"

#define FUTEX_NO_DEADLINE UINT64_MAX

void futex_init(void);

/* Sleeps if *uaddr == val, until a wake whose bitset shares a bit with
 * ours, until deadline (CLOCK_MONOTONIC ns since boot, clock_ns()) has
 * passed (-ETIMEDOUT), or a signal (-EINTR). -EAGAIN if *uaddr != val.
 * FUTEX_WAIT's bitset is FUTEX_BITSET_MATCH_ANY; the Linux layer's
 * FUTEX_WAIT_BITSET passes its own. */
long futex_wait(uint32_t uaddr, unsigned key_flags, uint32_t val, uint64_t deadline,
		uint32_t bitset);
/* Wakes up to nr waiters on uaddr whose bitset meets bitset. */
long futex_wake(uint32_t uaddr, unsigned key_flags, uint32_t nr, uint32_t bitset);

/* ---- the queues themselves, for the Linux layer's REQUEUE and WAKE_OP ---- */

struct futex_key {
	uint32_t space;         /* the struct mm's address; 0: a shared page */
	uint32_t addr;          /* virtual address; physical if shared */
};

struct futex_bucket {
	struct spinlock lock;
	struct list waiters;
};

/* A sleeping FUTEX_WAIT, on its own kernel stack. FUTEX_REQUEUE may move
 * it to another key and bucket: both change only under both buckets'
 * locks, and the waiter finds its bucket again through
 * lock_waiter_bucket (futex.c). */
struct task;
struct futex_waiter {
	struct list link;
	struct task *task;
	struct futex_key key;
	struct futex_bucket *bucket;    /* the one it is queued in */
	uint32_t bitset;        /* FUTEX_WAIT_BITSET's; FUTEX_WAIT: all ones */
	bool woken;             /* set by a wake when it dequeues us */
};

struct mm;
/* The key for uaddr in mm (key_flags: FUTEX_PRIVATE_FLAG or 0), called
 * with mm->lock held (asserted where the lock is relied on, vma_find in
 * vm_translate_locked); *pa gets the word's physical address. The page
 * is faulted in (for reading): -EFAULT if it cannot be. */
long futex_key(struct mm *mm, uint32_t uaddr, unsigned key_flags, struct futex_key *key,
	       uint32_t *pa);
struct futex_bucket *bucket_of(struct futex_key k);
bool key_eq(struct futex_key a, struct futex_key b);
/* Dequeues and wakes w (its bucket's lock held). */
void wake_waiter(struct futex_waiter *w);
/* Wakes up to nr waiters of key in b whose bitset meets bitset (b's lock
 * held); how many. */
long wake_locked(struct futex_bucket *b, struct futex_key key, uint32_t nr, uint32_t bitset);

#endif
