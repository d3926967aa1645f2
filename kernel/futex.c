/* kernel/futex.c - fast user-space mutexes: the wait queues and the
 * operations on them (abi.md sections 6 and 9; futex.h). The system call
 * that decodes op and timeouts is kernel/futex_syscall.c.
 *
 * A futex is just an aligned 32-bit word in user memory. User space does
 * the uncontended work with atomic instructions and calls the kernel only
 * to sleep (WAIT: "sleep if the word still holds val") or to wake sleepers
 * (WAKE). Waiters are kept in hashed buckets under a key naming the word:
 *
 *   - in a MAP_SHARED area, the word's physical address: two address
 *     spaces sharing the page meet on the same key (abi.md section 6) -
 *     unless the operation says FUTEX_PRIVATE_FLAG: a private futex is
 *     keyed by (address space, virtual address) wherever it lives, as
 *     Linux's (the caller promises no other process uses the word);
 *   - in a private area, (address space, virtual address), as Linux's
 *     get_futex_key does for private mappings. A private page can move:
 *     after a fork, the first write to it moves the writer's mapping to a
 *     copy (kernel/mm/vm.c). A thread asleep on the old frame's physical
 *     address would then never be woken by a WAKE that, after the write,
 *     computes the new one; the virtual address does not move. The CLONE_VM
 *     threads of a process share the address space and so the key.
 *
 * No lost wake-ups: WAIT reads the word and queues itself under the
 * bucket's lock, and WAKE takes the same lock, so a waker that changed the
 * word before calling WAKE either finds the waiter queued or the waiter
 * sees the new value and does not sleep. WAIT holds the address space's
 * lock from finding the page until it is queued, so the page it reads is
 * the one mapped there (a copy-on-write move needs that lock too). The
 * word is read through the kernel's own mapping of the physical page, so
 * nothing can fault while the locks are held. */
#include "kernel/clock.h"
#include "kernel/futex.h"
#include "kernel/panic.h"
#include "kernel/trace.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/vm.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"

#define FUTEX_BUCKETS 256

struct futex_key {
	uint32_t space;         /* the struct mm's address; 0: a shared page */
	uint32_t addr;          /* virtual address; physical if shared */
};

struct futex_bucket {
	struct spinlock lock;
	struct list waiters;
};

/* A sleeping FUTEX_WAIT, on its own kernel stack. REQUEUE may move it to
 * another key and bucket: both change only under both buckets' locks,
 * and the waiter finds its bucket again through lock_waiter_bucket. */
struct futex_waiter {
	struct list link;
	struct task *task;
	struct futex_key key;
	struct futex_bucket *bucket;    /* the one it is queued in */
	uint32_t bitset;        /* FUTEX_WAIT_BITSET's; FUTEX_WAIT: all ones */
	bool woken;             /* set by a wake when it dequeues us */
};

static struct futex_bucket buckets[FUTEX_BUCKETS];

void futex_init(void)
{
	for (int i = 0; i < FUTEX_BUCKETS; i++) {
		buckets[i].lock = (struct spinlock)SPINLOCK_INIT("futex bucket");
		list_init(&buckets[i].waiters);
	}
}

static struct futex_bucket *bucket_of(struct futex_key k)
{
	/* Knuth's multiplicative hash of the word index mixed with the space */
	return &buckets[((k.addr >> 2) ^ (k.space >> 4)) * 2654435761u >> 24];
}

static bool key_eq(struct futex_key a, struct futex_key b)
{
	return a.space == b.space && a.addr == b.addr;
}

/* The key for uaddr in mm (key_flags: FUTEX_PRIVATE_FLAG or 0), called with
 * mm->lock held (asserted where the lock is relied on, vma_find in
 * vm_translate_locked); *pa gets the word's physical address. The page
 * is faulted in (for reading): -EFAULT if it cannot be. */
static long futex_key(struct mm *mm, uint32_t uaddr, unsigned key_flags, struct futex_key *key,
		      uint32_t *pa)
{
	bool shared = false;

	if (uaddr & 3)
		return -EINVAL;
	if (!(*pa = vm_translate_locked(mm, uaddr, false, &shared)))
		return -EFAULT;
	if (key_flags & FUTEX_PRIVATE_FLAG)
		shared = false;
	*key = shared ? (struct futex_key){ 0, *pa } : (struct futex_key){ (uint32_t)mm, uaddr };
	return 0;
}

/* The bucket w is queued in, locked (Linux's futex_unqueue loop: a
 * REQUEUE may move it between our load and our lock). */
static struct futex_bucket *lock_waiter_bucket(struct futex_waiter *w, uint32_t *flags)
{
	for (;;) {
		struct futex_bucket *b = __atomic_load_n(&w->bucket, __ATOMIC_ACQUIRE);
		*flags = spin_lock_irqsave(&b->lock);
		if (b == w->bucket)
			return b;
		spin_unlock_irqrestore(&b->lock, *flags);
	}
}

long futex_wait(uint32_t uaddr, unsigned key_flags, uint32_t val, uint64_t deadline, uint32_t bitset)
{
	/* LAB 6: BEGIN SOLUTION */
	struct futex_waiter w = { LIST_INIT(w.link), current, { 0, 0 }, NULL, bitset, false };
	struct mm *mm = current->mm;
	struct futex_bucket *b;
	uint32_t flags, pa;
	bool timed_out = false;
	long err = 0;

	spin_lock(&mm->lock);
	if ((err = futex_key(mm, uaddr, key_flags, &w.key, &pa)) < 0) {
		spin_unlock(&mm->lock);
		return err;
	}
	b = w.bucket = bucket_of(w.key);
	flags = spin_lock_irqsave(&b->lock);
	if (*(volatile uint32_t *)P2V(pa) != val)
		err = -EAGAIN;
	else {
		list_add_tail(&w.link, &b->waiters);
		current->state = TASK_INTERRUPTIBLE;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	spin_unlock(&mm->lock);
	if (err)
		return err;
	TRACE(TR_FUTEX_WAIT, (uint32_t)current->tid, uaddr, 0, 0, 0);

	while (!__atomic_load_n(&w.woken, __ATOMIC_ACQUIRE) && !signal_pending(current)) {
		if (deadline == FUTEX_NO_DEADLINE) {
			schedule();
		} else {
			uint64_t now = clock_ns();
			if (now >= deadline) {
				timed_out = true;
				break;
			}
			schedule_timeout(deadline - now);
		}
		/* A full barrier between this store and the load of woken
		 * above (xchg): x86 may let a load pass an older store (SDM
		 * Vol. 3A 8.2.3.4), and then a WAKE that set woken and saw us
		 * RUNNING would be lost (Linux's set_current_state). */
		__atomic_store_n(&current->state, TASK_INTERRUPTIBLE, __ATOMIC_SEQ_CST);
	}
	current->state = TASK_RUNNING;

	b = lock_waiter_bucket(&w, &flags);
	if (w.woken) {
		spin_unlock_irqrestore(&b->lock, flags);
		return 0;               /* woken wins over a timeout or signal */
	}
	list_del(&w.link);
	spin_unlock_irqrestore(&b->lock, flags);
	return timed_out ? -ETIMEDOUT : -EINTR;
	/* LAB 6: END SOLUTION */
#if 0 /* LAB 6: STUB */
	/* Lab 6: check *uaddr == val and queue current in its bucket under
	 * the bucket's lock, then sleep until woken, signalled or timed out,
	 * without losing a wake-up (docs/labs/lab6-futex.md). */
	(void)uaddr;
	(void)key_flags;
	(void)val;
	(void)deadline;
	(void)bitset;
	(void)lock_waiter_bucket;
	return -ENOSYS;
#endif /* LAB 6: END STUB */
}

/* Dequeues and wakes w (its bucket's lock held). */
static void wake_waiter(struct futex_waiter *w)
{
	struct task *t = w->task;

	ASSERT(spin_held(&w->bucket->lock));
	list_del(&w->link);
	/* Its futex_wait cannot return before we drop the bucket's lock: it
	 * takes that lock to leave (lock_waiter_bucket). */
	__atomic_store_n(&w->woken, true, __ATOMIC_RELEASE);
	wake_up_task(t);
}

/* Wakes up to nr waiters of key in b whose bitset meets bitset (b's lock
 * held); how many. */
static long wake_locked(struct futex_bucket *b, struct futex_key key, uint32_t nr,
			uint32_t bitset)
{
	struct list *pos, *tmp;
	long woken = 0;

	if (nr > 0x7fffffff)
		nr = 0x7fffffff;        /* INT_MAX: "all of them" */
	list_for_each_safe(pos, tmp, &b->waiters) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		if ((uint32_t)woken >= nr)
			break;
		if (!key_eq(w->key, key) || !(w->bitset & bitset))
			continue;
		wake_waiter(w);
		woken++;
	}
	return woken;
}

long futex_wake(uint32_t uaddr, unsigned key_flags, uint32_t nr, uint32_t bitset)
{
	/* LAB 6: BEGIN SOLUTION */
	struct futex_bucket *b;
	struct futex_key key;
	uint32_t flags, pa;
	long err, woken;

	spin_lock(&current->mm->lock);
	err = futex_key(current->mm, uaddr, key_flags, &key, &pa);
	spin_unlock(&current->mm->lock);
	if (err < 0)
		return err;
	b = bucket_of(key);
	flags = spin_lock_irqsave(&b->lock);
	woken = wake_locked(b, key, nr, bitset);
	spin_unlock_irqrestore(&b->lock, flags);
	TRACE(TR_FUTEX_WAKE, (uint32_t)current->tid, uaddr, (uint32_t)woken, 0, 0);
	return woken;
	/* LAB 6: END SOLUTION */
#if 0 /* LAB 6: STUB */
	/* Lab 6: wake up to nr of the waiters queued on uaddr whose bitset
	 * meets bitset (wake_locked), and say how many. */
	(void)uaddr;
	(void)key_flags;
	(void)nr;
	(void)bitset;
	return -ENOSYS;
#endif /* LAB 6: END STUB */
}

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

long futex_requeue(uint32_t uaddr, unsigned key_flags, uint32_t nr_wake, uint32_t nr_requeue,
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

long futex_wake_op(uint32_t uaddr, unsigned key_flags, uint32_t nr, uint32_t uaddr2, uint32_t nr2,
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
