/* compat/linux/clone.c - a Linux program's clone (abi.md section 9):
 * Linux 6.1's flag bits, translated into the seed's, and what only Linux
 * has (CLONE_VFORK, CLONE_PARENT, CHILD_SETTID, CHILD_CLEARTID), done
 * through the hooks do_clone calls (kernel/linux_hooks.h). At the end,
 * unshare, which takes clone's flags.
 *
 * How an ABI evolves, side by side. The seed (Linux 2.5.31 with the
 * TLS/clone patches of August 2002) had four new flags at 0x00080000 ..
 * 0x00400000. Within weeks Linux renamed and re-purposed them as NPTL
 * took shape: SETTID became PARENT_SETTID (same bit, same meaning),
 * DETACHED's bit went to CHILD_CLEARTID, which is RELEASE_VM grown up
 * (the child's "I am gone" word, now with a futex wake-up, so that
 * pthread_join can sleep on it), and RELEASE_VM's bit became a DETACHED
 * that does nothing: from 2.6 on a thread (CLONE_THREAD) never has an
 * exit signal and never waits for a wait4, whatever the flags say.
 *
 *   bit         seed (2.5.31)        linux (6.1)
 *   0x00001000  -                    CLONE_PIDFD      -EINVAL here
 *   0x00002000  -                    CLONE_PTRACE     -EINVAL (no ptrace)
 *   0x00004000  -                    CLONE_VFORK
 *   0x00008000  -                    CLONE_PARENT
 *   0x00040000  -                    CLONE_SYSVSEM    accepted
 *   0x00080000  CLONE_SETTLS         CLONE_SETTLS
 *   0x00100000  CLONE_SETTID         CLONE_PARENT_SETTID
 *   0x00200000  CLONE_DETACHED       CLONE_CHILD_CLEARTID
 *   0x00400000  CLONE_RELEASE_VM     CLONE_DETACHED   ignored
 *   0x00800000  -                    CLONE_UNTRACED   ignored
 *   0x01000000  -                    CLONE_CHILD_SETTID
 *   0x02000000 .. 0x40000000, 0x00020000: namespaces, -EINVAL here
 *   0x80000000  -                    CLONE_IO         accepted
 * CSIGNAL and CLONE_VM .. CLONE_THREAD mean the same in both. */
#include "kernel/clone_flags.h"
#include "kernel/file.h"
#include "kernel/linux_hooks.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/panic.h"
#include "kernel/mm/vm.h"
#include "arch/i386/mmu.h"
#include "compat/linux/futex_linux.h"
#include "compat/linux/fs/vfs.h"
#include "compat/linux/personality.h"

/* What a Linux clone asks beyond the seed's bits: LCL_* (hooks.h). */

/* Linux's bits that are the seed's too, with the same meaning. */
#define SAME_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
		    CLONE_SETTLS | CLONE_PARENT_SETTID)
/* Linux's bits accepted and ignored here. */
#define IGNORED_FLAGS (CLONE_SYSVSEM | CLONE_LINUX_DETACHED | CLONE_UNTRACED | CLONE_IO)

static const struct {
	uint32_t bit;           /* Linux's */
	uint32_t action;        /* LCL_* */
} linux_only[] = {
	{ CLONE_VFORK,          LCL_VFORK },
	{ CLONE_PARENT,         LCL_PARENT },
	{ CLONE_CHILD_SETTID,   LCL_CHILD_SETTID },
	{ CLONE_CHILD_CLEARTID, LCL_CHILD_CLEARTID },
};

int linux_clone_args(uint32_t uflags, struct clone_args *a)
{
	uint32_t rest = uflags & ~(uint32_t)(CSIGNAL | SAME_FLAGS | IGNORED_FLAGS);

	if ((uflags & CSIGNAL) > SIG_MAX)
		return -EINVAL;         /* no such signal to send at exit */
	/* CLONE_PARENT_SETTID is the seed's CLONE_SETTID: the same bit. */
	a->flags = uflags & SAME_FLAGS;
	a->linux_flags = 0;
	for (unsigned i = 0; i < sizeof(linux_only) / sizeof(linux_only[0]); i++) {
		if (rest & linux_only[i].bit) {
			a->linux_flags |= linux_only[i].action;
			rest &= ~linux_only[i].bit;
		}
	}
	if (rest)
		return -EINVAL;         /* namespaces, pidfds, ptrace */
	/* Linux: init may not make siblings (they would have no parent). */
	if ((a->linux_flags & LCL_PARENT) && current->tgid == 1)
		return -EINVAL;
	/* Linux 2.6 on: a CLONE_THREAD child never has an exit signal. */
	if (a->flags & CLONE_THREAD)
		a->flags |= CLONE_DETACHED;
	a->exit_signal = (a->flags & CLONE_DETACHED) ? -1 : (int)(uflags & CSIGNAL);
	return 0;
}

/* ---- CLONE_CHILD_CLEARTID and CLONE_VFORK: before the child runs ---- */

void linux_clone_flags_prepare(struct task *c, const struct clone_args *a)
{
	/* Linux's clear_child_tid: the seed's RELEASE_VM word, with a
	 * wake-up after the 0 (linux_child_tid_cleared). */
	if (a->linux_flags & LCL_CHILD_CLEARTID) {
		c->user_vm_lock = a->ctid;
		c->lx.clear_tid_wake = true;
	}
	if (a->linux_flags & LCL_VFORK) {
		c->lx.vfork_parent = current;
		current->lx.vfork_done = false;
	}
}

void linux_clear_tid_wake(struct task *t)
{
	/* pthread_join, asleep on the word, is woken (Linux's mm_release). */
	(void)futex_wake(t->user_vm_lock, 0, 1, FUTEX_BITSET_MATCH_ANY);
	t->lx.clear_tid_wake = false;
}

/* CLONE_CHILD_SETTID: the TID in the child's own address space, before
 * it runs (Linux writes it from the child, in schedule_tail; the result
 * is the same). A fault is ignored there too. The child's copy-on-write
 * page is broken by the translation, so the parent's stays as it was. */
void linux_clone_settid(struct task *c, const struct clone_args *a, int tid)
{
	spin_lock(&c->mm->lock);
	for (int i = 0; i < 4; i++) {
		uint32_t pa = vm_translate_locked(c->mm, a->ctid + (uint32_t)i, true, NULL);
		if (!pa)
			break;
		*(volatile uint8_t *)P2V(pa) = (uint8_t)((uint32_t)tid >> (8 * i));
	}
	spin_unlock(&c->mm->lock);
}

struct task *linux_clone_parent_locked(struct task *c, struct task *p,
				       const struct clone_args *a)
{
	struct task *parent = p;

	ASSERT(spin_held(&tasklist_lock));
	c->lx.pgid = p->lx.pgid;        /* under the lock: setpgid may run */
	c->lx.sid = p->lx.sid;
	/* CLONE_PARENT: the process's parent (Linux's real_parent), with
	 * the exit signal our own process has for it. */
	if ((a->linux_flags & LCL_PARENT) && p->group_leader->parent) {
		parent = p->group_leader->parent;
		if (!(a->flags & CLONE_THREAD))
			c->exit_signal = p->group_leader->exit_signal;
	}
	return parent;
}

/* ---- CLONE_VFORK: the parent waits for the child's exec or exit ---- */

/* The child lets go of the address space they share (mm_release, on
 * exec and exit): its parent, asleep in linux_clone_return, goes on. */
void linux_vfork_release(struct task *c)
{
	struct task *parent = c->lx.vfork_parent;
	uint32_t flags;

	/* Under tasklist_lock, where the parent looks. */
	flags = spin_lock_irqsave(&tasklist_lock);
	parent->lx.vfork_done = true;
	wake_up_task(parent);
	c->lx.vfork_parent = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

long linux_vfork_wait(long tid)
{
	for (;;) {
		uint32_t flags = spin_lock_irqsave(&tasklist_lock);
		if (current->lx.vfork_done) {
			spin_unlock_irqrestore(&tasklist_lock, flags);
			return tid;
		}
		/* Not interruptible: the child's exec or exit ends this, and
		 * the child uses our memory meanwhile. */
		current->state = TASK_UNINTERRUPTIBLE;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		schedule();
	}
}

/* Linux's vfork: clone(CLONE_VFORK | CLONE_VM | SIGCHLD). */
LINUX_SYSCALL(SYS_vfork, vfork)
{
	struct clone_args a = { .flags = CLONE_VM, .exit_signal = SIGCHLD,
				.newsp = current->tf->esp, .linux_flags = LCL_VFORK };
	long tid = do_clone(&a);

	return linux_clone_return(&a, tid);
}

/* ---- unshare(flags): Linux's ksys_unshare, without namespaces ----
 * CLONE_FILES gives the caller an fd table of its own (as execve does),
 * CLONE_FS its own cwd and umask; CLONE_SYSVSEM is accepted (there is
 * no System V IPC). CLONE_THREAD, CLONE_SIGHAND and CLONE_VM succeed
 * only when there is nothing to unshare, as on Linux ("not implemented,
 * but pretend it works"): the caller alone in its thread group, its
 * handlers and its address space. Any other bit, the namespaces'
 * included, is -EINVAL, Linux's answer where they are configured out. */
#define UNSHARE_FLAGS (CLONE_THREAD | CLONE_FS | CLONE_SIGHAND | CLONE_VM | CLONE_FILES | \
		       CLONE_SYSVSEM)

static long unshare_fs(struct task *t)
{
	struct fs_struct *old = t->lx.fs, *copy;

	if (!old || __atomic_load_n(&old->refcount, __ATOMIC_ACQUIRE) == 1)
		return 0;
	if (!(copy = fs_struct_copy(old)))
		return -ENOMEM;
	/* One store, then the put (as files_unshare): /proc/PID/status
	 * reads it under tasklist_lock, and the last put waits for that. */
	__atomic_store_n(&t->lx.fs, copy, __ATOMIC_RELEASE);
	fs_struct_put(old);
	return 0;
}

LINUX_SYSCALL(SYS_unshare, unshare)
{
	uint32_t flags = arg[0];
	struct task *t = current;
	long err;

	if (flags & ~(uint32_t)UNSHARE_FLAGS)
		return -EINVAL;
	/* Unsharing the handlers or the address space would unshare the
	 * thread group too (Linux: each implies the one before). */
	if ((flags & (CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)) && !list_empty(&t->thread_group))
		return -EINVAL;
	if ((flags & (CLONE_SIGHAND | CLONE_VM)) &&
	    __atomic_load_n(&t->sighand->refcount, __ATOMIC_ACQUIRE) > 1)
		return -EINVAL;
	if ((flags & CLONE_VM) && __atomic_load_n(&t->mm->users, __ATOMIC_ACQUIRE) > 1)
		return -EINVAL;
	if ((flags & CLONE_FS) && (err = unshare_fs(t)) < 0)
		return err;
	if ((flags & CLONE_FILES) && (err = files_unshare(t)) < 0)
		return err;
	return 0;
}
