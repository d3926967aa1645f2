/* kernel/fork.c - clone and fork (abi.md section 4).
 *
 * clone(flags, newsp, ptid, tls, ctid) in %ebx %ecx %edx %esi %edi, as
 * the seed's code has it (erratum 9: the mail's prose swapped them). The
 * seed's four flags, each where it is done:
 *   CLONE_SETTLS      copy_thread (arch/i386/process.c): *tls validated as
 *                     set_thread_area, installed in one of the child's
 *                     three TLS slots
 *   CLONE_SETTID      the child's TID written to *ptid in the parent's
 *                     address space before clone returns and before the
 *                     child can run (erratum 1: the seed tested SETTLS)
 *   CLONE_DETACHED    exit_signal = -1: no signal, no zombie; the child
 *                     reaps itself through the per-CPU task cache
 *                     (kernel/task_cache.c)
 *   CLONE_RELEASE_VM  the child starts at newsp-4 and that word is zeroed
 *                     when it releases its address space (mm_release,
 *                     kernel/exit.c; erratum 7: the seed recorded newsp,
 *                     one word too high)
 * A Linux program's flags (abi.md section 9) reach do_clone translated by
 * the Linux layer into these same bits, plus what only Linux has
 * (CLONE_VFORK, CLONE_PARENT, CHILD_SETTID/CLEARTID), which the layer
 * does itself through kernel/linux_hooks.h.
 * Every argument is checked before the child can be seen (hashed), so a
 * bad TLS or TID pointer creates no child: a bad CLONE_SETTID pointer
 * before anything is allocated, a bad TLS in copy_thread, the half-made
 * child then undone (abandon_child). */
#include "kernel/clone_flags.h"
#include "kernel/exit.h"
#include "kernel/file.h"
#include "kernel/linux_hooks.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/trace.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vm.h"
#include "arch/i386/process.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

/* The seed's clone flags (abi.md section 4): the caller's bits become
 * a's flags and exit signal; any other bit, or a CSIGNAL that is no
 * signal, is -EINVAL. */
static int clone_args_from_seed(uint32_t uflags, struct clone_args *a)
{
	/* LAB 4: BEGIN SOLUTION */
	if ((uflags & CSIGNAL) > SIG_MAX)
		return -EINVAL;         /* no such signal to send at exit */
	if (uflags & ~(uint32_t)(CSIGNAL | SEED_CLONE_FLAGS))
		return -EINVAL;         /* a bit the seed does not have */
	a->flags = uflags & ~(uint32_t)CSIGNAL;
	/* clone-detached-A1: CLONE_DETACHED wins over CSIGNAL. */
	a->exit_signal = (uflags & CLONE_DETACHED) ? -1 : (int)(uflags & CSIGNAL);
	return 0;
	/* LAB 4: END SOLUTION */
#if 0 /* LAB 4: STUB */
	/* Lab 4: check the caller's bits against the seed's flags and
	 * CSIGNAL, then fill a->flags and a->exit_signal: a detached child
	 * gets none (docs/labs/lab4-clone.md). */
	(void)uflags;
	(void)a;
	return -ENOSYS;
#endif /* LAB 4: END STUB */
}

/* Linux's rules: a thread shares the handlers, which need a shared VM. */
static int check_flags(const struct clone_args *a)
{
	if ((a->flags & CLONE_THREAD) && !(a->flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((a->flags & CLONE_SIGHAND) && !(a->flags & CLONE_VM))
		return -EINVAL;
	/* RELEASE_VM reserves the word below newsp: it needs a newsp. */
	if ((a->flags & CLONE_RELEASE_VM) && a->newsp == 0)
		return -EINVAL;
	return 0;
}

/* Undoes a child that was never hashed nor run (task_free lets the
 * Linux layer drop what it copied). */
static void abandon_child(struct task *c)
{
	if (c->mm)
		mm_put(c->mm);
	if (c->files)
		files_put(c->files);
	if (c->sighand)
		sighand_put(c->sighand);
	task_free(c);
}

static int copy_resources(struct task *c, struct task *p, uint32_t flags)
{
	if (p->mm) {
		if (flags & CLONE_VM) {
			mm_get(p->mm);
			c->mm = p->mm;
		} else if (!(c->mm = mm_copy(p->mm)) || ldt_dup(c->mm, p->mm) < 0) {
			return -ENOMEM;
		}
	}
	if (p->files) {
		if (flags & CLONE_FILES) {
			files_get(p->files);
			c->files = p->files;
		} else if (!(c->files = files_copy(p->files))) {
			return -ENOMEM;
		}
	}
	if (flags & CLONE_SIGHAND) {
		c->sighand = p->sighand;
		__atomic_add_fetch(&c->sighand->refcount, 1, __ATOMIC_SEQ_CST);
	} else if (!(c->sighand = sighand_copy(p->sighand))) {
		return -ENOMEM;
	}
	/* The layer's: cwd and umask (CLONE_FS), the executable, the
	 * limits, the personality, the alternate signal stack. */
	return linux_copy_resources(c, p, flags);
}

/* SIGKILL pending for t or its group, or the group already exiting
 * (Linux's fatal_signal_pending). Called with tasklist_lock held, under
 * which kill() and kill(-1) send: a 64-bit set is read in two halves,
 * but SIGKILL's bit lives in one. */
static bool fatal_signal_pending(const struct task *t)
{
	uint64_t set = *(const volatile uint64_t *)&t->pending.signals;

	ASSERT(spin_held(&tasklist_lock));
	if (t->sighand)
		set |= *(const volatile uint64_t *)&t->sighand->shared_pending.signals;
	return (set & SIGMASK(SIGKILL)) || t->group_exiting;
}

/* Is there memory for one more task? Linux refuses a task past
 * max_threads with -EAGAIN (kernel/fork.c set_max_threads: kernel stacks
 * may take at most 1/8 of RAM). A Spindle task costs more than its stack
 * (a process has a page directory and tables), so the rule here is on
 * what is left: no new task may take the last 1/8 of memory, which stays
 * for the page faults of the tasks that exist (copy-on-write after every
 * fork). Without it a fork bomb ends in the out-of-memory killer taking
 * some task's life instead of in an error to the one that forks. */
static bool room_for_a_task(void)
{
	return pmm_free_frames() > pmm_total_frames() / 8;
}

long do_clone(const struct clone_args *a)
{
	struct task *p = current, *c;
	uint32_t flags = a->flags, newsp = a->newsp;
	int err, tid;
	uint32_t lflags;

	if ((err = check_flags(a)) < 0)
		return err;
	/* CLONE_SETTID: probe the pointer now, so a bad one creates no
	 * child. (The real write comes once the TID exists, below.) */
	if ((flags & CLONE_SETTID) && !user_range_ok(a->ptid, 4))
		return -EFAULT;
	if (!room_for_a_task())
		return -EAGAIN;

	if (!(c = task_alloc()))
		return -ENOMEM;
	memcpy(c->comm, p->comm, sizeof(c->comm));
	c->blocked = p->blocked;
	c->cpu = p->cpu;
	c->cpus_allowed = p->cpus_allowed;     /* sched_setaffinity(2) */
	if ((err = copy_resources(c, p, flags)) < 0) {
		abandon_child(c);
		return err;
	}
	c->exit_signal = a->exit_signal;
	/* user-vm-unlock-A2, with erratum 7 fixed: the reserved word is the
	 * one below newsp, where the child's stack starts. */
	if (flags & CLONE_RELEASE_VM) {
		newsp -= 4;
		c->user_vm_lock = newsp;
	}
	linux_clone_prepare(c, a);      /* CHILD_CLEARTID, VFORK */
	/* The i386 half (arch/i386/process.h): the registers, the three TLS
	 * descriptors (CLONE_SETTLS replaces one, validated as
	 * set_thread_area, as the seed's copy_thread did) and the FPU. */
	if ((err = copy_thread(c, p, newsp, flags & CLONE_SETTLS, a->tls)) < 0) {
		abandon_child(c);
		return err;
	}

	if ((tid = task_hash(c)) < 0) {
		abandon_child(c);
		return tid;
	}
	/* CLONE_SETTID (erratum 1: this flag, not SETTLS): before the child
	 * can run, so it and the parent both find the TID there. */
	if ((flags & CLONE_SETTID) && put_user32(a->ptid, (uint32_t)tid)) {
		lflags = spin_lock_irqsave(&tasklist_lock);
		task_unhash_locked(c);
		spin_unlock_irqrestore(&tasklist_lock, lflags);
		abandon_child(c);
		return -EFAULT;
	}
	linux_clone_hashed(c, a, tid);  /* CHILD_SETTID */

	lflags = spin_lock_irqsave(&tasklist_lock);
	/* Linux's copy_process: "Let kill terminate clone/fork in the
	 * middle". Two ways the caller may already be dying, both seen here
	 * under tasklist_lock, which the killer holds too:
	 *   - a SIGKILL that reached it while the child was being made
	 *     (kill(-1), a group kill) walked the task list before the child
	 *     was in it as a process: the child would escape it and live on
	 *     (t_kill_fork);
	 *   - its group is being torn down (group_exiting, set by
	 *     exit_group, a fatal signal or de_thread on every task of the
	 *     group): a thread added now would not be told to die, and after
	 *     an execve's de_thread had looked at the group it could call
	 *     execve itself; the two de_threads would then wait for each
	 *     other forever (t_exec_storm).
	 * Give up the child; the caller dies on its way out and never sees
	 * the -EINTR. */
	if (fatal_signal_pending(p)) {
		task_unhash_locked(c);
		spin_unlock_irqrestore(&tasklist_lock, lflags);
		abandon_child(c);
		return -EINTR;
	}
	if (flags & CLONE_THREAD) {
		c->tgid = p->tgid;
		c->group_leader = p->group_leader;
		list_add_tail(&c->thread_group, &p->group_leader->thread_group);
	} else {
		c->tgid = tid;
		c->group_leader = c;
	}
	/* The creator, or whom the layer picks (CLONE_PARENT); the layer's
	 * process group and session follow, under the lock. */
	c->parent = linux_clone_parent_locked(c, p, a);
	list_add_tail(&c->sibling, &c->parent->children);
	spin_unlock_irqrestore(&tasklist_lock, lflags);

	TRACE(TR_CLONE, (uint32_t)p->tid, (uint32_t)tid, flags, (uint32_t)c, (uint32_t)c->tgid);
	sched_add(c);
	return tid;
}

SYSCALL(SYS_clone, clone)
{
	struct clone_args a = { 0 };
	int err = linux_personality(current) ? linux_clone_args(arg[0], &a)
					     : clone_args_from_seed(arg[0], &a);
	long tid;

	if (err < 0)
		return err;
	/* RELEASE_VM needs an explicit newsp: check before defaulting. */
	if ((a.flags & CLONE_RELEASE_VM) && arg[1] == 0)
		return -EINVAL;
	/* newsp 0 means "the caller's %esp" (abi.md section 4). */
	a.newsp = arg[1] ? arg[1] : current->tf->esp;
	a.ptid = arg[2];
	a.tls = arg[3];
	a.ctid = arg[4];
	tid = do_clone(&a);
	return linux_clone_return(&a, tid);     /* CLONE_VFORK waits here */
}

SYSCALL(SYS_fork, fork)
{
	struct clone_args a = { .exit_signal = SIGCHLD, .newsp = current->tf->esp };

	return do_clone(&a);
}
