/* kernel/task.h - the task: one thread of execution, kernel or user.
 *
 * As in Linux, a process is a thread group: tasks with the same tgid
 * (CLONE_THREAD puts a child in its creator's group). getpid() returns the
 * tgid, gettid() the task's own id. Resources are separate objects, shared
 * by reference count when clone asks: the address space (struct mm,
 * CLONE_VM), the fd table (CLONE_FILES) and the signal handlers
 * (CLONE_SIGHAND). Kernel threads have no mm.
 *
 * A task comes from an object cache (task_struct_cachep), its kernel
 * stack from the guarded stack area (arch/i386/kstack.h); the stack's
 * bottom holds the thread_info that points back here (arch/i386/thread_info.h). */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include "lib/types.h"
#include "lib/list.h"
#include "lib/abi.h"
#include "arch/i386/context.h"
#include "arch/i386/thread_info.h"
#include "arch/i386/trapframe.h"
#include "kernel/signal.h"
#include "kernel/linux_hooks.h"
#include "kernel/waitqueue.h"
#include "arch/i386/spinlock.h"

enum task_state {
	TASK_RUNNING,           /* on a run queue (or running) */
	TASK_INTERRUPTIBLE,     /* asleep; a signal wakes it */
	TASK_UNINTERRUPTIBLE,   /* asleep; only its event wakes it */
	TASK_ZOMBIE,            /* exited, waiting for its parent's wait4 */
	TASK_DEAD,              /* reaped, or detached and gone */
	TASK_STOPPED,           /* stopped by job control; only SIGCONT or
				 * SIGKILL wakes it (compat/linux/jobctl.c) */
};

#define TASK_COMM_LEN 16

struct mm;
struct files;

struct task {
	struct context *ctx;            /* saved by switch_context */
	struct thread_info *ti;         /* its kernel stack (KSTACK_SIZE) */
	struct thread_struct thread;    /* TLS array, esp0 */
	volatile enum task_state state;
	int tid;
	int tgid;
	char comm[TASK_COMM_LEN];

	/* scheduling (kernel/sched.c) */
	struct list run_link;           /* on its CPU's run queue */
	bool on_rq;
	volatile bool on_cpu;           /* running, or still switching away */
	int cpu;                        /* the run queue it is on */
	uint64_t wake_ns;               /* a timed sleep's deadline, or 0 */
	/* The CPUs it may run on, bit i = CPU i (sched_setaffinity; all at
	 * first, inherited by fork and clone). sched.c keeps a queued task
	 * on an allowed CPU's queue. */
	uint32_t cpus_allowed;
	/* Off every queue between CPUs (sched.c migrate_push): it is
	 * runnable, and the CPU it left will queue it on an allowed one. */
	bool migrating;
	struct list timer_link;         /* on the sleep-timer list */

	/* resources */
	struct mm *mm;                  /* NULL for kernel threads */
	struct files *files;
	struct sighand *sighand;

	/* the family (kernel/exit.c); all under tasklist_lock */
	struct task *parent;            /* who gets exit_signal and wait4s us */
	struct list children;           /* our children, by sibling */
	struct list sibling;
	struct task *group_leader;      /* the task whose tid == tgid */
	struct list thread_group;       /* all tasks of the group, circular */
	struct list all_link;           /* on the global task list */
	int exit_signal;                /* CSIGNAL at clone; -1 = detached */
	int exit_code;                  /* a wait status (abi.md section 3) */
	bool group_exiting;             /* exit_group/fatal signal under way */
	int group_exit_code;            /* the status every thread reports */
	/* Set, on every other task of the group, by a thread whose execve
	 * is ending them (Linux's signal->group_exit_task; kernel/exec.c
	 * de_thread): they exit without a signal to anyone, and wake it. */
	struct task *group_exec_task;
	struct waitqueue wait_chldexit; /* wait4 sleeps here (group leader's) */

	/* the seed's CLONE_RELEASE_VM word (user-vm-unlock-2.5.31-A2): a
	 * user address (0: none); 0 is written there when this task releases
	 * its address space (release_user_vm, kernel/exit.c) */
	uint32_t user_vm_lock;
	/* kill(-1): the last kill_many that signalled the group (leader;
	 * kernel/signal_syscalls.c) */
	uint32_t kill_seq;

	struct trapframe *tf;           /* its user registers, on its stack */

	/* signals (kernel/signal.c) */
	struct sigpending pending;      /* for this task (tgkill, faults) */
	uint64_t blocked;               /* the signal mask */
	/* Linux's TIF_SIGPENDING: "look at the sets on the way to user
	 * mode". Set (set_tif_sigpending) with every signal queued for this
	 * task alone, every mask that unblocks a pending signal, every
	 * stop asked of it, and by every signal_pending() that says yes;
	 * cleared only by its own return path (return_to_user_prepare),
	 * just before that reads the sets. The group's set needs no flag:
	 * that path reads it anyway (group_signal_queued). */
	bool tif_sigpending;

	/* what only the Linux layer keeps (compat/linux/linux_task.h;
	 * empty in the seed kernel) */
	struct linux_task lx;
};

/* The task running on this CPU: its kernel stack's thread_info says. */
static inline struct task *current_task(void)
{
	return current_thread_info()->task;
}
#define current current_task()

/* Is anything queued for t's group (blocked or not)? Read on every
 * return to user mode, with t->tif_sigpending: a group's signal flags no
 * thread, since the set is also a CLONE_SIGHAND partner process's
 * (signal.h), which no sender knows of. Only for a user task: every
 * one has a sighand (init.c, fork.c). */
static inline bool group_signal_queued(const struct task *t)
{
	return *(const volatile uint64_t *)&t->sighand->shared_pending.signals != 0;
}

/* Flags t for its return path: called after the set or mask it is for
 * is written, which the release store orders first. */
static inline void set_tif_sigpending(struct task *t)
{
	__atomic_store_n(&t->tif_sigpending, true, __ATOMIC_RELEASE);
}

/* The return path's clear, before it reads the sets. A full barrier (SDM
 * Vol. 3A 8.2.3.4: a load may pass an older store): a sender whose bit
 * this read misses stores the flag after this store, so it stays set. */
static inline void clear_tif_sigpending(struct task *t)
{
	__atomic_store_n(&t->tif_sigpending, false, __ATOMIC_SEQ_CST);
}

/* Has t a signal it does not block (its own or its group's), or a job
 * control stop to take, on its way to user mode? t is current: every
 * interruptible sleep asks, and the return path when there is work. The
 * sets are read without a lock; each 32-bit half is read in one access,
 * and a bit lives in one half, so every bit seen is either its old or
 * its new value. A yes also flags t's return path: a call that saw it
 * and returns -EINTR or a restart code is then looked at on its way out
 * (arch/i386/trap.c), even when another thread has taken the group's
 * signal meanwhile. (Linux's signal_pending tests TIF_SIGPENDING itself,
 * so the two always agree there too.) */
static inline bool signal_pending(struct task *t)
{
	const struct sighand *sh = t->sighand;
	uint64_t pending;

	if (!sh)
		return false;           /* kernel threads take no signals */
	pending = *(const volatile uint64_t *)&t->pending.signals |
		  *(const volatile uint64_t *)&sh->shared_pending.signals;
	/* A job-control stop to take is the layer's (compat/linux/jobctl.c). */
	if (!linux_jobstop_pending(t) && !(pending & ~*(const volatile uint64_t *)&t->blocked))
		return false;
	set_tif_sigpending(t);
	return true;
}

/* kernel/task.c */
void task_init(void);                       /* the caches, the boot task */
struct task *task_alloc(void);              /* zeroed, with a kernel stack */
/* An AP's idle task (the boot CPU's is kmain's thread): as task_init
 * makes cpu0's, tid 0; NULL without memory. */
struct task *idle_task_create(int cpu);
/* The task cache poisons the struct (POISON_FREE, kmem.h); the stack is
 * unmapped (arch/i386/kstack.h): a use of either after the free faults
 * or reads 0x6b6b6b6b. */
void task_free(struct task *t);
/* A self-reaping task parking itself in the per-CPU task cache
 * (kernel/exit.c) is not freed yet, but the pointers it will never use
 * again - its resources, its family, its registers' tf, every field from
 * files up to the signal state - are poisoned (POISON_FREE) the moment it
 * parks. */
void task_poison_parked(struct task *t);
struct task *task_find(int tid);            /* under tasklist_lock */
int task_last_tid_locked(void);             /* the newest id given (/proc/loadavg) */
/* Gives t a thread id and puts it on all_tasks; the id or -EAGAIN. */
int task_hash(struct task *t);
void task_unhash_locked(struct task *t);    /* tasklist_lock held */
/* execve in a thread (kernel/exec.c de_thread): t is found under tid
 * from now on and its old id is free. tid must be free or still held by
 * the departing leader (whose task_unhash_locked then leaves it to t).
 * tasklist_lock held. */
void task_change_tid_locked(struct task *t, int tid);
/* Starts fn(arg) in a new kernel thread on the run queue. */
struct task *kthread_create(const char *name, void (*fn)(void *), void *arg);


extern struct spinlock tasklist_lock;
extern struct list all_tasks;

/* tasklist_lock as a grace period: returns once every CPU that held the
 * lock when it was called has let go. Another task's mm, files, cwd and
 * executable are read only under tasklist_lock (the Linux layer's /proc),
 * each pointer read once. So a task lets go of one by storing NULL (or
 * the new one) and putting the old, no lock needed; and whoever puts the
 * last reference calls this before freeing: a reader that found the
 * object before the store is done with it by then, and one that comes
 * after finds NULL. Not to be called holding tasklist_lock. */
void tasklist_lock_grace(void);

#endif
