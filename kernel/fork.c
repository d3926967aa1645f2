/* kernel/fork.c - clone and fork (abi.md section 4).
 *
 * clone(flags, newsp, ptid, tls, ctid) in %ebx %ecx %edx %esi %edi, as
 * the seed's code has it (erratum 9: the mail's prose swapped them).
 * The seed's four flags, and where each lives:
 *   CLONE_SETTLS      tls_for_child(): *tls validated as set_thread_area,
 *                     installed in one of the child's three TLS slots
 *   CLONE_SETTID      the child's TID written to *ptid in the parent's
 *                     address space before clone returns and before the
 *                     child can run (erratum 1: the seed tested SETTLS)
 *   CLONE_DETACHED    exit_signal = -1: no signal, no zombie; the child
 *                     reaps itself through the per-CPU task cache (exit.c)
 *   CLONE_RELEASE_VM  the child starts at newsp-4 and that word is zeroed
 *                     when it releases its address space (erratum 7: the
 *                     seed recorded newsp, one word too high)
 * Every argument is checked before anything is created, so a bad TLS or
 * TID pointer creates no child. */
#include "kernel/exit.h"
#include "kernel/file.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/vm.h"
#include "arch/i386/desc.h"
#include "arch/i386/process.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define CLONE_KNOWN_FLAGS (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | \
	CLONE_SIGHAND | CLONE_THREAD | CLONE_SETTLS | CLONE_SETTID | \
	CLONE_DETACHED | CLONE_RELEASE_VM)

/* Linux's rules: a thread shares the handlers, which need a shared VM. */
static int check_flags(uint32_t flags, uint32_t newsp)
{
	if (flags & ~(uint32_t)CLONE_KNOWN_FLAGS)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if ((flags & CSIGNAL) > SIG_MAX)
		return -EINVAL;         /* no such signal to send at exit */
	/* RELEASE_VM reserves the word below newsp: it needs a newsp. */
	if ((flags & CLONE_RELEASE_VM) && newsp == 0)
		return -EINVAL;
	return 0;
}

/* CLONE_SETTLS: the child's descriptor, validated as set_thread_area
 * (abi.md section 5), but with no allocation: entry 6..8 only. */
static int tls_for_child(uint32_t utls, int *idx, struct desc *d)
{
	struct user_desc info;

	if (copy_from_user(&info, utls, sizeof(info)))
		return -EFAULT;
	if (info.entry_number < GDT_ENTRY_TLS_MIN || info.entry_number > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	*idx = (int)info.entry_number - GDT_ENTRY_TLS_MIN;
	return user_desc_to_tls(&info, d);
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
	if (p->fs) {
		if (flags & CLONE_FS) {
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
	if (!(flags & CLONE_VM)) {
		c->sas_ss_sp = p->sas_ss_sp;
		c->sas_ss_size = p->sas_ss_size;
	}
	if (flags & CLONE_SIGHAND) {
		c->sighand = p->sighand;
		__atomic_add_fetch(&c->sighand->refcount, 1, __ATOMIC_SEQ_CST);
	} else if (!(c->sighand = sighand_copy(p->sighand))) {
		return -ENOMEM;
	}
	return 0;
}

long do_clone(uint32_t flags, uint32_t newsp, uint32_t ptid, uint32_t utls)
{
	struct task *p = current, *c;
	struct desc tls = { 0, 0 };
	int tls_idx = 0, err, tid;
	uint32_t lflags;

	if ((err = check_flags(flags, newsp)) < 0)
		return err;
	if ((flags & CLONE_SETTLS) && (err = tls_for_child(utls, &tls_idx, &tls)) < 0)
		return err;
	/* CLONE_SETTID: probe the pointer now, so a bad one creates no child.
	 * (The real write comes once the TID exists, below.) */
	if ((flags & CLONE_SETTID) && !user_range_ok(ptid, 4))
		return -EFAULT;

	if (!(c = task_alloc()))
		return -ENOMEM;
	memcpy(c->comm, p->comm, sizeof(c->comm));
	c->blocked = p->blocked;
	c->cpu = p->cpu;
	if ((err = copy_resources(c, p, flags)) < 0) {
		abandon_child(c);
		return err;
	}
	/* The child inherits the three TLS descriptors; SETTLS replaces one
	 * (an empty or all-zero one clears it). */
	c->thread = p->thread;
	if (flags & CLONE_SETTLS)
		c->thread.tls_array[tls_idx] = tls;

	/* clone-detached-A1: DETACHED wins over CSIGNAL. */
	c->exit_signal = (flags & CLONE_DETACHED) ? -1 : (int)(flags & CSIGNAL);
	/* user-vm-unlock-A2, with erratum 7 fixed: the reserved word is the
	 * one below newsp, where the child's stack starts. */
	if (flags & CLONE_RELEASE_VM) {
		newsp -= 4;
		c->user_vm_lock = (uint32_t *)newsp;
	}
	copy_thread(c, p->tf, newsp);

	if ((tid = task_hash(c)) < 0) {
		abandon_child(c);
		return tid;
	}
	/* CLONE_SETTID (erratum 1: this flag, not SETTLS): before the child
	 * can run, so it and the parent both find the TID there. */
	if ((flags & CLONE_SETTID) && put_user32(ptid, (uint32_t)tid)) {
		lflags = spin_lock_irqsave(&tasklist_lock);
		task_unhash_locked(c);
		spin_unlock_irqrestore(&tasklist_lock, lflags);
		abandon_child(c);
		return -EFAULT;
	}

	lflags = spin_lock_irqsave(&tasklist_lock);
	if (flags & CLONE_THREAD) {
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
	list_add_tail(&c->sibling, &p->children);
	spin_unlock_irqrestore(&tasklist_lock, lflags);

	sched_add(c);
	return tid;
}

SYSCALL(SYS_clone, clone)
{
	/* newsp 0 means "the caller's %esp" (abi.md section 4). */
	uint32_t newsp = arg[1] ? arg[1] : current->tf->esp;

	/* RELEASE_VM needs an explicit newsp: check before defaulting. */
	if ((arg[0] & CLONE_RELEASE_VM) && arg[1] == 0)
		return -EINVAL;
	return do_clone(arg[0], newsp, arg[2], arg[3]);
}

SYSCALL(SYS_fork, fork)
{
	return do_clone(SIGCHLD, current->tf->esp, 0, 0);
}
