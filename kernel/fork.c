/* kernel/fork.c - clone, fork and vfork (abi.md sections 4 and 9).
 *
 * clone(flags, newsp, ptid, tls, ctid) in %ebx %ecx %edx %esi %edi, as
 * the seed's code has it (erratum 9: the mail's prose swapped them).
 * The caller's flag bits are first translated through its personality's
 * table (kernel/clone_flags.c: the seed's and Linux 6.1's side by side)
 * into CL_* actions; do_clone acts on those:
 *   CL_SETTLS         copy_thread (arch/i386/process.c): *tls validated as
 *                     set_thread_area, installed in one of the child's
 *                     three TLS slots
 *   CL_PARENT_SETTID  the child's TID written to *ptid in the parent's
 *                     address space before clone returns and before the
 *                     child can run (erratum 1: the seed tested SETTLS)
 *   CL_DETACHED       exit_signal = -1: no signal, no zombie; the child
 *                     reaps itself through the per-CPU task cache (exit.c)
 *   CL_RELEASE_VM     the child starts at newsp-4 and that word is zeroed
 *                     when it releases its address space (erratum 7: the
 *                     seed recorded newsp, one word too high)
 *   CL_CHILD_CLEARTID the same mechanism at *ctid, plus a FUTEX_WAKE
 *   CL_CHILD_SETTID   the TID at *ctid in the child's address space
 *   CL_VFORK          the parent sleeps until the child execs or exits
 *   CL_PARENT         the child is the caller's sibling
 * Every argument is checked before the child can be seen (hashed), so a
 * bad TLS or TID pointer creates no child: a bad PARENT_SETTID pointer
 * before anything is allocated, a bad TLS in copy_thread, the half-made
 * child then undone (abandon_child). */
#include "kernel/clone_flags.h"
#include "kernel/exit.h"
#include "kernel/file.h"
#include "kernel/panic.h"
#include "kernel/personality.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/trace.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/vm.h"
#include "arch/i386/process.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

/* Linux's rules: a thread shares the handlers, which need a shared VM. */
static int check_flags(const struct clone_args *a)
{
	if ((a->flags & CL_THREAD) && !(a->flags & CL_SIGHAND))
		return -EINVAL;
	if ((a->flags & CL_SIGHAND) && !(a->flags & CL_VM))
		return -EINVAL;
	/* RELEASE_VM reserves the word below newsp: it needs a newsp. */
	if ((a->flags & CL_RELEASE_VM) && a->newsp == 0)
		return -EINVAL;
	/* Linux: init may not make siblings (they would have no parent). */
	if ((a->flags & CL_PARENT) && current->tgid == 1)
		return -EINVAL;
	return 0;
}

/* Undoes a child that was never hashed nor run. */
static void abandon_child(struct task *c)
{
	if (c->mm)
		mm_put(c->mm);
	if (c->files)
		files_put(c->files);
	fs_struct_put(c->fs);
	exe_link_put(c->exe);
	if (c->sighand)
		sighand_put(c->sighand);
	task_free(c);
}

static int copy_resources(struct task *c, struct task *p, uint32_t flags)
{
	if (p->mm) {
		if (flags & CL_VM) {
			mm_get(p->mm);
			c->mm = p->mm;
		} else if (!(c->mm = mm_copy(p->mm)) || ldt_dup(c->mm, p->mm) < 0) {
			return -ENOMEM;
		}
	}
	if (p->files) {
		if (flags & CL_FILES) {
			files_get(p->files);
			c->files = p->files;
		} else if (!(c->files = files_copy(p->files))) {
			return -ENOMEM;
		}
	}
	if (p->fs) {
		if (flags & CL_FS) {
			fs_struct_get(p->fs);
			c->fs = p->fs;
		} else if (!(c->fs = fs_struct_copy(p->fs))) {
			return -ENOMEM;
		}
	}
	exe_link_get(p->exe);
	c->exe = p->exe;
	memcpy(c->rlim, p->rlim, sizeof(c->rlim));
	/* sigaltstack(2): fork keeps the alternate stack; a task sharing
	 * the address space (CLONE_VM) would share it, so starts with none. */
	if (!(flags & CL_VM)) {
		c->sas_ss_sp = p->sas_ss_sp;
		c->sas_ss_size = p->sas_ss_size;
	}
	if (flags & CL_SIGHAND) {
		c->sighand = p->sighand;
		__atomic_add_fetch(&c->sighand->refcount, 1, __ATOMIC_SEQ_CST);
	} else if (!(c->sighand = sighand_copy(p->sighand))) {
		return -ENOMEM;
	}
	return 0;
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

/* CL_CHILD_SETTID: the TID in the child's own address space, before it
 * runs (Linux writes it from the child, in schedule_tail; the result is
 * the same). A fault is ignored there too. The child's copy-on-write
 * page is broken by the translation, so the parent's stays as it was. */
static void set_child_tid(struct task *c, uint32_t ctid, int tid)
{
	for (int i = 0; i < 4; i++) {
		uint32_t pa = vm_translate(c->mm, ctid + (uint32_t)i, true);
		if (!pa)
			return;
		*(volatile uint8_t *)P2V(pa) = (uint8_t)((uint32_t)tid >> (8 * i));
	}
}

/* CL_VFORK: the parent, on its own kernel stack, until the child lets go
 * of the address space they share (release_user_vm_lock, kernel/exit.c,
 * calls vfork_done_complete). */
struct vfork_done {
	struct task *parent;
	volatile bool done;
};

void vfork_done_complete(struct task *c)
{
	uint32_t flags;

	if (!c->vfork_done)
		return;
	/* Under tasklist_lock, where the parent looks: once it sees done it
	 * returns, and its stack (where *vfork_done lives) is gone. */
	flags = spin_lock_irqsave(&tasklist_lock);
	c->vfork_done->done = true;
	wake_up_task(c->vfork_done->parent);
	c->vfork_done = NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static void vfork_wait(struct vfork_done *vd)
{
	for (;;) {
		uint32_t flags = spin_lock_irqsave(&tasklist_lock);
		if (vd->done) {
			spin_unlock_irqrestore(&tasklist_lock, flags);
			return;
		}
		/* Not interruptible: the child's exec or exit ends this, and
		 * the child uses our stack meanwhile. */
		current->state = TASK_UNINTERRUPTIBLE;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		schedule();
	}
}

long do_clone(const struct clone_args *a)
{
	struct task *p = current, *c;
	struct vfork_done vd = { p, false };
	uint32_t flags = a->flags, newsp = a->newsp;
	int err, tid;
	uint32_t lflags;

	if ((err = check_flags(a)) < 0)
		return err;
	/* PARENT_SETTID: probe the pointer now, so a bad one creates no
	 * child. (The real write comes once the TID exists, below.) */
	if ((flags & CL_PARENT_SETTID) && !user_range_ok(a->ptid, 4))
		return -EFAULT;

	if (!(c = task_alloc()))
		return -ENOMEM;
	memcpy(c->comm, p->comm, sizeof(c->comm));
	c->blocked = p->blocked;
	c->cpu = p->cpu;
	c->cpus_allowed = p->cpus_allowed;     /* sched_setaffinity(2) */
	c->personality = p->personality;       /* abi.md section 9 */
	if ((err = copy_resources(c, p, flags)) < 0) {
		abandon_child(c);
		return err;
	}
	c->exit_signal = a->exit_signal;
	/* user-vm-unlock-A2, with erratum 7 fixed: the reserved word is the
	 * one below newsp, where the child's stack starts. */
	if (flags & CL_RELEASE_VM) {
		newsp -= 4;
		c->user_vm_lock = (uint32_t *)newsp;
	}
	/* Its descendant: Linux's clear_child_tid, with a wake-up. */
	if (flags & CL_CHILD_CLEARTID) {
		c->user_vm_lock = (uint32_t *)a->ctid;
		c->user_vm_lock_wake = true;
	}
	if (flags & CL_VFORK)
		c->vfork_done = &vd;
	/* The i386 half (arch/i386/process.h): the registers, the three TLS
	 * descriptors (CLONE_SETTLS replaces one, validated as
	 * set_thread_area, as the seed's copy_thread did) and the FPU. */
	if ((err = copy_thread(c, p, newsp, flags & CL_SETTLS, a->tls)) < 0) {
		abandon_child(c);
		return err;
	}

	if ((tid = task_hash(c)) < 0) {
		abandon_child(c);
		return tid;
	}
	/* PARENT_SETTID (erratum 1: this flag, not SETTLS): before the child
	 * can run, so it and the parent both find the TID there. */
	if ((flags & CL_PARENT_SETTID) && put_user32(a->ptid, (uint32_t)tid)) {
		lflags = spin_lock_irqsave(&tasklist_lock);
		task_unhash_locked(c);
		spin_unlock_irqrestore(&tasklist_lock, lflags);
		abandon_child(c);
		return -EFAULT;
	}
	if (flags & CL_CHILD_SETTID)
		set_child_tid(c, a->ctid, tid);

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
	if (flags & CL_THREAD) {
		c->tgid = p->tgid;
		c->group_leader = p->group_leader;
		list_add_tail(&c->thread_group, &p->group_leader->thread_group);
	} else {
		c->tgid = tid;
		c->group_leader = c;
	}
	c->pgid = p->pgid;              /* under the lock: setpgid may run */
	c->sid = p->sid;
	c->parent = p;
	/* CLONE_PARENT: the process's parent (Linux's real_parent), with
	 * the exit signal our own process has for it. */
	if ((flags & CL_PARENT) && p->group_leader->parent) {
		c->parent = p->group_leader->parent;
		if (!(flags & CL_THREAD))
			c->exit_signal = p->group_leader->exit_signal;
	}
	list_add_tail(&c->sibling, &c->parent->children);
	spin_unlock_irqrestore(&tasklist_lock, lflags);

	TRACE(TR_CLONE, (uint32_t)p->tid, (uint32_t)tid, flags, (uint32_t)c, (uint32_t)c->tgid);
	sched_add(c);
	if (flags & CL_VFORK)
		vfork_wait(&vd);
	return tid;
}

SYSCALL(SYS_clone, clone)
{
	struct clone_args a;
	int err = clone_translate(current->personality, arg[0], &a);

	if (err < 0)
		return err;
	/* RELEASE_VM needs an explicit newsp: check before defaulting. */
	if ((a.flags & CL_RELEASE_VM) && arg[1] == 0)
		return -EINVAL;
	/* newsp 0 means "the caller's %esp" (abi.md section 4). */
	a.newsp = arg[1] ? arg[1] : current->tf->esp;
	a.ptid = arg[2];
	a.tls = arg[3];
	a.ctid = arg[4];
	return do_clone(&a);
}

SYSCALL(SYS_fork, fork)
{
	struct clone_args a = { 0, SIGCHLD, current->tf->esp, 0, 0, 0 };

	return do_clone(&a);
}

/* Linux's vfork: clone(CLONE_VFORK | CLONE_VM | SIGCHLD). */
SYSCALL(SYS_vfork, vfork)
{
	struct clone_args a = { CL_VFORK | CL_VM, SIGCHLD, current->tf->esp, 0, 0, 0 };

	return do_clone(&a);
}
