/* kernel/exit.c - exit, exit_group, reparenting, and the per-CPU task cache.
 *
 * A task that exits gives up its resources, hands its children to pid 1,
 * and then either becomes a zombie for its parent's wait4 (it has an exit
 * signal), or reaps itself (exit_signal == -1: CLONE_DETACHED threads and
 * kernel threads). A self-reaping task cannot free its own task struct and
 * kernel stack: it is still running on that stack. The seed's answer
 * (clone-detached-2.5.31-A1) is the per-CPU task cache: with preemption
 * off, the exiting task parks itself in its CPU's slot and frees whatever
 * task was parked there before, which is certainly no longer running: it
 * was the previous self-reaping task on this same CPU and has switched
 * away. clone may also reuse the parked task instead of allocating.
 *
 * A task killed by another thread's execve (group_exec_task set: see
 * de_thread in kernel/exec.c) is the exception, as in Linux, where
 * threads never become zombies: a non-leader reaps itself like a
 * detached thread, and the leader becomes a zombie that nobody is told
 * about; execve releases it and takes over its pid. */
#include "kernel/exit.h"
#include "kernel/file.h"
#include "kernel/linux_hooks.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/task_cache.h"
#include "kernel/trace.h"
#include "arch/i386/fpu.h"
#include "kernel/wait.h"
#include "kernel/mm/vm.h"
#include "arch/i386/cpu.h"
#include "arch/i386/irqflags.h"
#include "arch/i386/mmu_context.h"
#include "arch/i386/power.h"
#include "arch/i386/uaccess.h"

void mm_release(struct task *t)
{
	/* Linux's mm_release order: the robust futexes, the TID word, then
	 * the vfork parent (the first and last are the Linux layer's). */
	linux_exit_robust_list(t);
	if (t->user_vm_lock) {
		/* CLONE_RELEASE_VM: the fault is ignored, as in the seed. */
		(void)put_user32(t->user_vm_lock, 0);
		linux_child_tid_cleared(t);     /* CLONE_CHILD_CLEARTID's wake */
		t->user_vm_lock = 0;
	}
	linux_vfork_done(t);
}

/* Gives up the address space: the RELEASE_VM word first, while this mm
 * is still the one loaded (user-vm-unlock-A2 does it in mm_release). */
static void exit_mm(struct task *t)
{
	struct mm *mm = t->mm;

	if (!mm)
		return;
	mm_release(t);
	t->mm = NULL;
	/* Off this page directory (and LDT) before it may be freed. */
	switch_mm(mm, NULL);
	mm_put(mm);
}

/* A thread of t's group other than `not` that has not exited yet, or
 * NULL (Linux's find_alive_thread). One whose state is neither zombie nor
 * dead has not passed through reparent_children: both happen in one
 * tasklist_lock section of do_exit, so what it adopts now it hands on
 * when it exits. tasklist_lock held. */
static struct task *find_alive_thread(struct task *t, struct task *not)
{
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	list_for_each(pos, &t->thread_group) {
		struct task *o = list_entry(pos, struct task, thread_group);
		if (o != not && o->state != TASK_ZOMBIE && o->state != TASK_DEAD)
			return o;
	}
	return NULL;
}

/* pid 1's group leader, the last resort, or NULL when that is t itself
 * (pid 1's leader exiting: nobody is left to adopt, and its children
 * must not be moved onto the list being walked). */
static struct task *init_reaper(struct task *t)
{
	struct task *init = task_find(1);

	init = init ? init->group_leader : NULL;
	return init == t ? NULL : init;
}

/* Where t's children go when it exits (abi.md section 4, Linux's
 * forget_original_parent and find_new_reaper): to a thread of its own
 * group that lives on - the process is still there to wait for them -,
 * else to pid 1's group leader. A child that leaves the process gets
 * SIGCHLD as its exit signal (Linux's reparent_leader: "we don't want
 * people slaying init"; a detached child stays detached), and a zombie
 * child is announced to its new parent; within the group nothing changes
 * but the parent pointer. Unlike Linux, a thread is its creator's child
 * here (the seed's clone), so the live thread found may be the child
 * itself: that one goes to another live thread, or to pid 1. Called with
 * tasklist_lock held.
 *
 * When an execve in t's group is what kills t, they go to the thread
 * doing the execve: the process lives on in it. That is how the
 * execve-ing thread inherits the old leader's children; if it was itself
 * a child of t, it is only unlinked here: de_thread gives it the old
 * leader's parent. */
static void reparent_children(struct task *t)
{
	struct task *execer = t->group_exec_task == t ? NULL : t->group_exec_task;
	struct task *alive = execer ? execer : find_alive_thread(t, NULL);
	struct list *pos, *tmp;

	ASSERT(spin_held(&tasklist_lock));
	list_for_each_safe(pos, tmp, &t->children) {
		struct task *c = list_entry(pos, struct task, sibling);
		struct task *reaper = alive;

		list_del(&c->sibling);
		if (c == execer) {
			c->parent = NULL;
			continue;
		}
		if (reaper == c)
			reaper = find_alive_thread(t, c);
		if (!reaper)
			reaper = init_reaper(t);
		c->parent = reaper;
		if (!reaper)
			continue;
		list_add_tail(&c->sibling, &reaper->children);
		if (reaper->tgid == t->tgid)
			continue;
		if (c->exit_signal != -1)
			c->exit_signal = SIGCHLD;
		if (c->state == TASK_ZOMBIE && c->exit_signal > 0)
			notify_parent_locked(c);
	}
}

/* Is every other task of t's group a zombie or dead? tasklist_lock held. */
bool group_dead(struct task *t)
{
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	list_for_each(pos, &t->thread_group) {
		struct task *o = list_entry(pos, struct task, thread_group);
		if (o->state != TASK_ZOMBIE && o->state != TASK_DEAD)
			return false;
	}
	return true;
}

/* abi.md section 1: when pid 1 is gone, say so and power off. */
static void init_exited(int status)
{
	int n = WTERMSIG(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);

	if (WTERMSIG(status))
		kprintf("init exited with status %d (killed by signal %d)\n", n, WTERMSIG(status));
	else
		kprintf("init exited with status %d\n", n);
	trace_dump();           /* the `trace` boot word: the rings, now */
	power_off(n & 0x7f);
}

/* What an exiting task gives up before anyone is told: its address space
 * (and RELEASE_VM word), FPU state and fd table (and the Linux layer's
 * cwd and executable). */
static void exit_resources(struct task *t)
{
	struct files *files;

	exit_mm(t);
	fpu_exit(t);                    /* the registers are nobody's now */
	files = t->files;
	/* /proc/PID/status reads another task's files under tasklist_lock:
	 * one store lets go, and the last put waits for such readers
	 * (tasklist_lock_grace, kernel/task.h). */
	__atomic_store_n(&t->files, NULL, __ATOMIC_RELEASE);
	if (files)
		files_put(files);
	linux_exit_resources(t);
}

/* Does t reap itself (TASK_DEAD at once, no zombie, parked in the task
 * cache) rather than wait as a zombie? execer is the other thread whose
 * execve kills t, or NULL. tasklist_lock held. */
static bool exit_self_reaps(struct task *t, struct task *execer)
{
	ASSERT(spin_held(&tasklist_lock));
	/* Killed by another thread's execve (de_thread in exec.c): a thread
	 * goes at once, as Linux's threads do (no zombie, no signal); the
	 * leader stays a zombie, even a detached one, until the execve-ing
	 * thread has taken its pid and released it. */
	if (execer)
		return t != t->group_leader;
	/* Otherwise only a detached task (clone-detached-A1: exit_signal
	 * -1) reaps itself; but a detached leader whose threads live on
	 * stays, a zombie nobody is told about: they still point at it
	 * (group_leader) and share its tgid. The last of them releases it
	 * (exit_release_leader_locked; Linux's release_task, zap_leader). */
	if (t->exit_signal != -1)
		return false;
	return t != t->group_leader || group_dead(t);
}

/* A zombie t tells its parent (exit signal, wait4 woken), unless that
 * must wait. clone-detached-A1: a detached task never gets here. Not in
 * an execve (the process lives on in the thread doing it), and - Linux's
 * delay_group_leader - not a leader whose threads live on (wait.c could
 * not reap it yet): the last of them does it. One exit signal per
 * process. tasklist_lock held. */
static void exit_announce_locked(struct task *t, struct task *execer)
{
	ASSERT(spin_held(&tasklist_lock));
	if (t->parent && !execer && (t != t->group_leader || group_dead(t)))
		notify_parent_locked(t);
}

/* The last thread of a group whose leader is a zombie already: the
 * leader can be reaped now (wait.c delays it until then), so its parent
 * gets the exit signal and its wait4 wakes up; a detached leader is
 * unlinked here and returned, to be freed once tasklist_lock is dropped
 * (release_task_free). NULL when there is nothing to free. Not in an
 * execve: the process lives on in the thread doing it. tasklist_lock
 * held. */
static struct task *exit_release_leader_locked(struct task *t, struct task *execer)
{
	struct task *leader = t->group_leader;

	ASSERT(spin_held(&tasklist_lock));
	if (execer || leader == t || leader->state != TASK_ZOMBIE || !group_dead(leader))
		return NULL;
	if (leader->exit_signal != -1) {
		notify_parent_locked(leader);
		return NULL;
	}
	leader->state = TASK_DEAD;
	release_task_unlink_locked(leader);
	return leader;
}

/* The exit of every task. Four things decide its course: is it a
 * detached (self-reaping) task, is it its group's leader, do other
 * threads of its group live on, and is it being killed by another
 * thread's execve (group_exec_task)? exit_self_reaps settles zombie or
 * dead; a zombie is announced (exit_announce_locked) or, as a leader
 * with live threads, left for the last of them; a dead task leaves every
 * list at once; and the last thread out releases a zombie leader
 * (exit_release_leader_locked). All of that in one tasklist_lock section,
 * so wait4 and de_thread see each exit whole. */
void do_exit(int status)
{
	struct task *t = current, *execer, *released_leader;
	uint32_t flags;
	bool self_reap, last_of_init;

	if (t->tid == 0)
		panic("do_exit: the idle task of cpu%d tried to exit", t->cpu);
	exit_resources(t);

	flags = spin_lock_irqsave(&tasklist_lock);
	t->exit_code = status;
	/* Most threads have no children: nobody to look for (Linux's
	 * forget_original_parent returns at once too). */
	if (!list_empty(&t->children))
		reparent_children(t);
	execer = t->group_exec_task == t ? NULL : t->group_exec_task;
	self_reap = exit_self_reaps(t, execer);
	/* Zombie or dead, the state change and the notification happen
	 * under tasklist_lock, so wait4 sees one or the other whole. */
	t->state = self_reap ? TASK_DEAD : TASK_ZOMBIE;
	/* Before a self-reaping task leaves its group's list, or it would
	 * always look like the last one. */
	last_of_init = t->tgid == 1 && group_dead(t);
	if (self_reap) {
		linux_exit_reap_self_locked(t); /* its CPU time stays the process's */
		list_del(&t->sibling);
		list_del(&t->thread_group);
		task_unhash_locked(t);
	} else {
		exit_announce_locked(t, execer);
	}
	released_leader = exit_release_leader_locked(t, execer);
	/* Under tasklist_lock with the state change: de_thread reads the
	 * states under it too, after announcing its sleep, so this wake-up
	 * cannot be lost. */
	if (execer)
		wake_up_task(execer);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (released_leader)
		release_task_free(released_leader);

	TRACE(TR_EXIT, (uint32_t)t->tid, (uint32_t)t->tgid, (uint32_t)status, self_reap, 0);
	if (last_of_init)
		init_exited(status);
	/* A self-reaping task is gone for good once it parks (and is
	 * poisoned: task_poison_parked), so its sighand goes. */
	if (self_reap && t->sighand) {
		sighand_put(t->sighand);
		t->sighand = NULL;
	}
	/* The end of clone-detached-A1's do_exit: preemption off, then the
	 * self-reaping task parks itself, then the last schedule(). */
	local_irq_disable();
	preempt_disable();
	if (self_reap)
		task_cache_put_current();
	preempt_enable();       /* schedule() checks it; interrupts stay off */
	schedule();
	panic("do_exit: %s (tid %d) ran again after exiting", t->comm, t->tid);
}

void do_group_exit(int status)
{
	struct task *t = current;
	struct list *pos;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	/* Already ending (another thread's exit_group or fatal signal): every
	 * thread reports the group's status, as on Linux. */
	if (t->group_exiting) {
		status = t->group_exit_code;
		spin_unlock_irqrestore(&tasklist_lock, flags);
		do_exit(status);
	}
	list_for_each(pos, &t->thread_group) {
		struct task *o = list_entry(pos, struct task, thread_group);
		o->group_exiting = true;
		o->group_exit_code = status;
		if (o != t && o->state != TASK_ZOMBIE && o->state != TASK_DEAD)
			send_signal_task(o, SIGKILL);
	}
	t->group_exiting = true;
	t->group_exit_code = status;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	do_exit(status);
}

void release_task_unlink_locked(struct task *p)
{
	ASSERT(spin_held(&tasklist_lock));
	list_del(&p->sibling);
	list_del(&p->thread_group);
	task_unhash_locked(p);
	/* One task fewer for a de_thread waiting in this group. */
	if (p->group_exec_task && p->group_exec_task != p)
		wake_up_task(p->group_exec_task);
}

void release_task_free(struct task *p)
{
	/* A zombie may still be switching away on its CPU. */
	while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
	if (p->sighand)
		sighand_put(p->sighand);
	task_free(p);
}

void release_task(struct task *p)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	release_task_unlink_locked(p);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	release_task_free(p);
}

SYSCALL(SYS_exit, exit)
{
	do_exit((int)W_EXITCODE(arg[0]));
}

SYSCALL(SYS_exit_group, exit_group)
{
	do_group_exit((int)W_EXITCODE(arg[0]));
}
