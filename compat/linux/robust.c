/* compat/linux/robust.c - robust futexes: set_robust_list, get_robust_list and
 * the walk at exit (abi.md section 9; Linux's kernel/futex/core.c
 * exit_robust_list and handle_futex_death).
 *
 * A robust mutex (pthread_mutexattr_setrobust) holds its owner's TID in
 * its futex word. If the owner dies holding it, the waiters would sleep
 * forever; so each thread keeps a list, in its own memory, of the robust
 * mutexes it holds, and registers the list's head with the kernel. When
 * the thread releases its address space (exit or execve), the kernel
 * walks the list and, for every word still holding the thread's TID,
 * sets FUTEX_OWNER_DIED (keeping FUTEX_WAITERS) and wakes one waiter,
 * which then gets EOWNERDEAD from pthread_mutex_lock.
 *
 * The list is user memory: it may be garbage, circular or unmapped. The
 * walk is bounded (ROBUST_LIST_LIMIT entries) and stops quietly at the
 * first fault, as Linux's does. */
#include "kernel/futex.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "compat/linux/futex_linux.h"
#include "arch/i386/uaccess.h"

#define ROBUST_LIST_LIMIT 2048                  /* Linux's */
#define ROBUST_HEAD_SIZE  sizeof(struct robust_list_head)
_Static_assert(sizeof(struct robust_list_head) == 12, "i386: three words");

/* Linux's handle_futex_death for a word at uaddr (not PI: Spindle has no
 * PI futexes, so an entry's PI bit only skips the wake, as Linux). */
static void futex_death(struct task *t, uint32_t uaddr, bool pi, bool pending)
{
	uint32_t uval, mval, prev;

	if (uaddr & 3)
		return;
	for (int tries = 0; tries < 16; tries++) {
		if (get_user32(&uval, uaddr))
			return;
		/* An unlock was under way and the word is free: a waiter may
		 * have been told to wait by it, so wake one. */
		if (pending && !pi && !uval) {
			(void)futex_wake(uaddr, 0, 1, FUTEX_BITSET_MATCH_ANY);
			return;
		}
		if ((uval & FUTEX_TID_MASK) != (uint32_t)t->tid)
			return;         /* not ours (any more) */
		mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
		if (futex_cmpxchg(uaddr, uval, mval, &prev) < 0)
			return;
		if (prev != uval)
			continue;       /* changed under us: look again */
		if (!pi && (uval & FUTEX_WAITERS))
			(void)futex_wake(uaddr, 0, 1, FUTEX_BITSET_MATCH_ANY);
		return;
	}
}

/* One list pointer: the entry (bit 0 cleared) and its PI bit. */
static int fetch_entry(uint32_t uptr, uint32_t *entry, bool *pi)
{
	uint32_t v;

	if (get_user32(&v, uptr))
		return -EFAULT;
	*entry = v & ~1u;
	*pi = v & 1;
	return 0;
}

void linux_robust_list_walk(struct task *t)
{
	uint32_t head = t->lx.robust_list, entry, next, pending, off;
	bool pi, next_pi, pending_pi;
	int limit = ROBUST_LIST_LIMIT;

	t->lx.robust_list = 0;
	if (!head || !t->mm)
		return;
	/* head->list.next, head->futex_offset, head->list_op_pending */
	if (fetch_entry(head, &entry, &pi) || get_user32(&off, head + 4) ||
	    fetch_entry(head + 8, &pending, &pending_pi))
		return;
	while (entry != head) {
		/* The next entry first: the word's update may free this one. */
		int err = fetch_entry(entry, &next, &next_pi);
		if (entry != pending)
			futex_death(t, entry + off, pi, false);
		if (err)
			return;
		entry = next;
		pi = next_pi;
		if (!--limit)
			break;
	}
	if (pending)
		futex_death(t, pending + off, pending_pi, true);
}

/* set_robust_list(head, len): len must be the head's size (12). */
LINUX_SYSCALL(SYS_set_robust_list, set_robust_list)
{
	if (arg[1] != ROBUST_HEAD_SIZE)
		return -EINVAL;
	current->lx.robust_list = arg[0];
	return 0;
}

/* get_robust_list(pid, head_ptr, len_ptr): pid 0 is the caller, any
 * other a thread id (-ESRCH if there is none). */
LINUX_SYSCALL(SYS_get_robust_list, get_robust_list)
{
	int pid = (int)arg[0];
	uint32_t head = 0, flags;
	long err = 0;

	flags = spin_lock_irqsave(&tasklist_lock);
	if (pid == 0) {
		head = current->lx.robust_list;
	} else {
		struct task *t = task_find(pid);
		if (!t || t->state == TASK_DEAD)
			err = -ESRCH;
		else
			head = t->lx.robust_list;
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (err)
		return err;
	if (put_user32(arg[2], ROBUST_HEAD_SIZE) || put_user32(arg[1], head))
		return -EFAULT;
	return 0;
}
