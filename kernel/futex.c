/* kernel/futex.c - fast user-space mutexes: the wait queues and the
 * operations on them (abi.md section 6; futex.h). The system call is
 * kernel/futex_syscall.c; the Linux layer adds its operations on these
 * queues (REQUEUE, WAKE_OP: compat/linux/futex_linux.c).
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

static struct futex_bucket buckets[FUTEX_BUCKETS];

void futex_init(void)
{
	for (int i = 0; i < FUTEX_BUCKETS; i++) {
		buckets[i].lock = (struct spinlock)SPINLOCK_INIT("futex bucket");
		list_init(&buckets[i].waiters);
	}
}

struct futex_bucket *bucket_of(struct futex_key k)
{
	/* Knuth's multiplicative hash of the word index mixed with the space */
	return &buckets[((k.addr >> 2) ^ (k.space >> 4)) * 2654435761u >> 24];
}

bool key_eq(struct futex_key a, struct futex_key b)
{
	return a.space == b.space && a.addr == b.addr;
}

long futex_key(struct mm *mm, uint32_t uaddr, unsigned key_flags, struct futex_key *key,
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

/* The bucket w is queued in, locked (Linux's futex_unqueue loop: the
 * Linux layer's FUTEX_REQUEUE may move it between our load and our
 * lock). */
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

void wake_waiter(struct futex_waiter *w)
{
	struct task *t = w->task;

	ASSERT(spin_held(&w->bucket->lock));
	list_del(&w->link);
	/* Its futex_wait cannot return before we drop the bucket's lock: it
	 * takes that lock to leave (lock_waiter_bucket). */
	__atomic_store_n(&w->woken, true, __ATOMIC_RELEASE);
	wake_up_task(t);
}

long wake_locked(struct futex_bucket *b, struct futex_key key, uint32_t nr,
			uint32_t bitset)
{
	struct list *pos, *tmp;
	long woken = 0;

	ASSERT(spin_held(&b->lock));
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
