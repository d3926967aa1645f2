/* kernel/futex.c - fast user-space mutexes: FUTEX_WAIT and FUTEX_WAKE
 * (abi.md section 6).
 *
 * A futex is just an aligned 32-bit word in user memory. User space does
 * the uncontended work with atomic instructions and calls the kernel only
 * to sleep (WAIT: "sleep if the word still holds val") or to wake sleepers
 * (WAKE). Waiters are kept in hashed buckets under a key naming the word:
 *
 *   - in a MAP_SHARED area, the word's physical address: two address
 *     spaces sharing the page meet on the same key (abi.md section 6);
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

struct futex_key {
	uint32_t space;         /* the struct mm's address; 0: a shared page */
	uint32_t addr;          /* virtual address; physical if shared */
};

struct futex_waiter {
	struct list link;
	struct task *task;
	struct futex_key key;
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

static struct futex_bucket *bucket_of(struct futex_key k)
{
	/* Knuth's multiplicative hash of the word index mixed with the space */
	return &buckets[((k.addr >> 2) ^ (k.space >> 4)) * 2654435761u >> 24];
}

static bool key_eq(struct futex_key a, struct futex_key b)
{
	return a.space == b.space && a.addr == b.addr;
}

/* The key for uaddr in mm, called with mm->lock held; *pa gets the word's
 * physical address. The page is faulted in (for reading): -EFAULT if it
 * cannot be. */
static long futex_key(struct mm *mm, uint32_t uaddr, struct futex_key *key, uint32_t *pa)
{
	bool shared = false;

	if (uaddr & 3)
		return -EINVAL;
	if (!(*pa = vm_translate_locked(mm, uaddr, false, &shared)))
		return -EFAULT;
	*key = shared ? (struct futex_key){ 0, *pa } : (struct futex_key){ (uint32_t)mm, uaddr };
	return 0;
}

static long futex_wait(uint32_t uaddr, uint32_t val, uint32_t utimeout)
{
	struct futex_waiter w = { LIST_INIT(w.link), current, { 0, 0 }, false };
	struct mm *mm = current->mm;
	struct futex_bucket *b;
	struct timespec ts;
	uint64_t ns = UINT64_MAX;
	uint32_t flags, pa;
	long err = 0;

	if (utimeout) {
		if (copy_from_user(&ts, utimeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (uint64_t)ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	}
	spin_lock(&mm->lock);
	if ((err = futex_key(mm, uaddr, &w.key, &pa)) < 0) {
		spin_unlock(&mm->lock);
		return err;
	}
	b = bucket_of(w.key);
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
	struct futex_key key;
	uint32_t flags, pa;
	long err, woken = 0;

	spin_lock(&current->mm->lock);
	err = futex_key(current->mm, uaddr, &key, &pa);
	spin_unlock(&current->mm->lock);
	if (err < 0)
		return err;
	if (nr > 0x7fffffff)
		nr = 0x7fffffff;        /* INT_MAX: "all of them" */
	b = bucket_of(key);
	flags = spin_lock_irqsave(&b->lock);
	list_for_each_safe(pos, tmp, &b->waiters) {
		struct futex_waiter *w = list_entry(pos, struct futex_waiter, link);
		if ((uint32_t)woken >= nr)
			break;
		if (!key_eq(w->key, key))
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
