/* kernel/futex.c - fast user-space mutexes: FUTEX_WAIT and FUTEX_WAKE
 * (abi.md section 6).
 *
 * A futex is just an aligned 32-bit word in user memory. User space does
 * the uncontended work with atomic instructions and calls the kernel only
 * to sleep (WAIT: "sleep if the word still holds val") or to wake sleepers
 * (WAKE). Waiters are keyed by the word's physical address, so two
 * address spaces sharing the page (CLONE_VM threads, or any other sharing)
 * meet on the same key, and they are kept in hashed buckets.
 *
 * No lost wake-ups: WAIT reads the word and queues itself under the
 * bucket's lock, and WAKE takes the same lock, so a waker that changed the
 * word before calling WAKE either finds the waiter queued or the waiter
 * sees the new value and does not sleep. The word is read through the
 * kernel's own mapping of the physical page, so nothing can fault while
 * the lock is held. */
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/vm.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"

#define FUTEX_BUCKETS 256
#define FUTEX_CMD_MASK (~(uint32_t)FUTEX_PRIVATE_FLAG)
#define NSEC_PER_SEC 1000000000ull

struct futex_waiter {
	struct list link;
	struct task *task;
	uint32_t key;           /* physical address of the word */
	bool woken;             /* set by WAKE when it dequeues us */
};

static struct futex_bucket {
	struct spinlock lock;
	struct list waiters;
} buckets[FUTEX_BUCKETS];

void futex_init(void)
{
	for (int i = 0; i < FUTEX_BUCKETS; i++) {
		buckets[i].lock = (struct spinlock)SPINLOCK_INIT("futex bucket");
		list_init(&buckets[i].waiters);
	}
}

static struct futex_bucket *bucket_of(uint32_t key)
{
	return &buckets[(key >> 2) * 2654435761u >> 24];   /* Knuth's multiplicative hash */
}

/* The key for uaddr: its physical address, with a copy-on-write page
 * broken first when the word is writable, so that the page the key names
 * is the one this task will keep seeing. -EFAULT if not mapped. */
static long futex_key(uint32_t uaddr, uint32_t *key)
{
	uint32_t v;

	if (uaddr & 3)
		return -EINVAL;
	if (get_user32(&v, uaddr))         /* faults the page in, or -EFAULT */
		return -EFAULT;
	*key = vm_translate(current->mm, uaddr, true);
	if (!*key)
		*key = vm_translate(current->mm, uaddr, false);
	return *key ? 0 : -EFAULT;
}

static long futex_wait(uint32_t uaddr, uint32_t val, uint32_t utimeout)
{
	struct futex_waiter w = { LIST_INIT(w.link), current, 0, false };
	struct futex_bucket *b;
	struct timespec ts;
	uint64_t ns = UINT64_MAX;
	uint32_t flags;
	long err;

	if (utimeout) {
		if (copy_from_user(&ts, utimeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (uint64_t)ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	}
	if ((err = futex_key(uaddr, &w.key)) < 0)
		return err;
	b = bucket_of(w.key);

	flags = spin_lock_irqsave(&b->lock);
	if (*(volatile uint32_t *)P2V(w.key) != val) {
		spin_unlock_irqrestore(&b->lock, flags);
		return -EAGAIN;
	}
	list_add_tail(&w.link, &b->waiters);
	current->state = TASK_INTERRUPTIBLE;
	spin_unlock_irqrestore(&b->lock, flags);

	while (!__atomic_load_n(&w.woken, __ATOMIC_ACQUIRE) && ns > 0 &&
	       !signal_pending(current)) {
		if (ns == UINT64_MAX)
			schedule();
		else
			ns = schedule_timeout(ns);
		/* A full barrier between this store and the load of woken
		 * above (xchg): x86 may let a load pass an older store (SDM
		 * Vol. 3A 8.2.3.4), and then a WAKE that set woken and saw us
		 * RUNNING would be lost (Linux's set_current_state). */
		__atomic_store_n(&current->state, TASK_INTERRUPTIBLE, __ATOMIC_SEQ_CST);
	}
	current->state = TASK_RUNNING;

	flags = spin_lock_irqsave(&b->lock);
	if (w.woken) {
		spin_unlock_irqrestore(&b->lock, flags);
		return 0;               /* woken wins over a timeout or signal */
	}
	list_del(&w.link);
	spin_unlock_irqrestore(&b->lock, flags);
	return ns == 0 ? -ETIMEDOUT : -EINTR;
}

static long futex_wake(uint32_t uaddr, uint32_t nr)
{
	struct futex_bucket *b;
	struct list *pos, *tmp;
	uint32_t key, flags;
	long err, woken = 0;

	if ((err = futex_key(uaddr, &key)) < 0)
		return err;
	if (nr > 0x7fffffff)
		nr = 0x7fffffff;        /* INT_MAX: "all of them" */
	b = bucket_of(key);
	flags = spin_lock_irqsave(&b->lock);
	list_for_each_safe(pos, tmp, &b->waiters) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		if ((uint32_t)woken >= nr)
			break;
		if (w->key != key)
			continue;
		list_del(&w->link);
		__atomic_store_n(&w->woken, true, __ATOMIC_RELEASE);
		wake_up_task(w->task);
		woken++;
	}
	spin_unlock_irqrestore(&b->lock, flags);
	return woken;
}

SYSCALL(SYS_futex, futex)
{
	if (!current->mm)
		return -EFAULT;
	switch (arg[1] & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
		return futex_wait(arg[0], arg[2], arg[3]);
	case FUTEX_WAKE:
		return futex_wake(arg[0], arg[2]);
	default:
		return -ENOSYS;
	}
}
