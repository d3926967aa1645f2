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
#include "kernel/restart.h"
#include "kernel/waitqueue.h"
#include "arch/i386/spinlock.h"

enum task_state {
	TASK_RUNNING,           /* on a run queue (or running) */
	TASK_INTERRUPTIBLE,     /* asleep; a signal wakes it */
	TASK_UNINTERRUPTIBLE,   /* asleep; only its event wakes it */
	TASK_ZOMBIE,            /* exited, waiting for its parent's wait4 */
	TASK_DEAD,              /* reaped, or detached and gone */
	TASK_STOPPED,           /* stopped by job control; only SIGCONT or
				 * SIGKILL wakes it (kernel/jobctl.c) */
};

#define TASK_COMM_LEN 16

struct mm;
struct files;
struct fs_struct;
struct exe_link;

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
	/* CPU time (kernel/cputime.c), in ticks: each timer tick is charged
	 * to the task it interrupted, to utime if it came from user mode,
	 * to stime if from the kernel. Written only by the tick of the CPU
	 * the task runs on; before mm, so a parked task keeps them. */
	uint32_t utime, stime;

	/* resources */
	/* Before files: task_poison_parked leaves it, so task_free can
	 * still look (itimer_cancel; do_exit cancelled it already).
	 * ITIMER_REAL (kernel/itimer.c), in the group leader: the expiry
	 * (clock_ns; 0 = disarmed, then off the list) and the interval */
	uint64_t it_real_expires, it_real_interval;
	struct list it_link;
	struct mm *mm;                  /* NULL for kernel threads */
	struct files *files;
	struct fs_struct *fs;           /* cwd, umask (CLONE_FS shares it) */
	struct exe_link *exe;           /* what execve ran: /proc/PID/exe */
	struct sighand *sighand;
	/* getrlimit/setrlimit: the process's, a copy in each of its
	 * threads (kernel/fd.c); RLIMIT_NOFILE bounds the fd table */
	struct rlimit rlim[RLIM_NLIMITS];

	/* the family (kernel/exit.c); all under tasklist_lock */
	struct task *parent;            /* who gets exit_signal and wait4s us */
	struct list children;           /* our children, by sibling */
	struct list sibling;
	struct task *group_leader;      /* the task whose tid == tgid */
	struct list thread_group;       /* all tasks of the group, circular */
	struct list all_link;           /* on the global task list */
	/* job control (kernel/pgrp.c): the process's process group and
	 * session, the same in every thread of the group; 0 for kernel
	 * threads. Inherited by fork, kept by execve. */
	int pgid;
	int sid;
	int exit_signal;                /* CSIGNAL at clone; -1 = detached */
	int exit_code;                  /* a wait status (abi.md section 3) */
	bool group_exiting;             /* exit_group/fatal signal under way */
	int group_exit_code;            /* the status every thread reports */
	uint32_t kill_seq;              /* leader: the last kill_many that signalled the group */
	/* Set, on every other task of the group, by a thread whose execve
	 * is ending them (Linux's signal->group_exit_task; kernel/exec.c
	 * de_thread): they exit without a signal to anyone, and wake it. */
	struct task *group_exec_task;
	struct waitqueue wait_chldexit; /* wait4 sleeps here (group leader's) */
	/* The process's CPU-time books, in the group leader, under
	 * tasklist_lock (Linux keeps them in signal_struct): the time of
	 * its threads that are gone (dead_*), and of its reaped children
	 * with theirs (c*: times' tms_cutime, RUSAGE_CHILDREN). */
	uint32_t dead_utime, dead_stime;
	uint32_t cutime, cstime;

	/* signals (kernel/signal.c) */
	struct sigpending pending;      /* for this task (tgkill, faults) */
	uint64_t blocked;               /* the signal mask */
	/* rt_sigsuspend's mask is in force until a signal is handled; the
	 * frame then saves this one, the caller's (Linux's saved_sigmask,
	 * TIF_RESTORE_SIGMASK). kernel/signal_wait.c */
	uint64_t saved_sigmask;
	bool restore_sigmask;
	/* What restart_syscall does after an interrupted timed sleep
	 * (kernel/restart.h); only this task reads or writes it. */
	struct restart_block restart_block;
	/* job control (kernel/jobctl.c), under sighand->lock: whether this
	 * thread must stop or has stopped for its group's stop; and, in
	 * the group leader, the group stop (its signal, 0: none, and
	 * whether every thread is stopped) and what wait4's WUNTRACED and
	 * WCONTINUED, and the parent's SIGCHLD, have yet to be told */
	uint8_t jobstop;
	bool stop_dequeued;     /* took a stop signal; SIGCONT clears it */
	int stop_sig;
	bool group_stopped;
	int stop_report;
	bool cont_report, cld_continued;
	/* sigaltstack (kernel/signal_stack.c): 0 size = none */
	uint32_t sas_ss_sp, sas_ss_size;

	/* the seed's CLONE_RELEASE_VM word (user-vm-unlock-2.5.31-A2):
	 * 0 is written here when this task releases its address space;
	 * Linux's clear_child_tid (CLONE_CHILD_CLEARTID, set_tid_address)
	 * is the same word with a FUTEX_WAKE after the write (wake set) */
	uint32_t *user_vm_lock;
	bool user_vm_lock_wake;
	/* set_robust_list's head (user address, 0: none), walked when the
	 * address space is released (kernel/robust.c) */
	uint32_t robust_list;
	/* CLONE_VFORK: the parent sleeping until we exec or exit (fork.c) */
	struct vfork_done *vfork_done;
	/* seed or linux (kernel/personality.h): the whole group's, set by
	 * execve, inherited by fork and clone */
	uint8_t personality;

	struct trapframe *tf;           /* its user registers, on its stack */
};

/* The task running on this CPU: its kernel stack's thread_info says. */
static inline struct task *current_task(void)
{
	return current_thread_info()->task;
}
#define current current_task()

/* kernel/task.c */
void task_init(void);                       /* the caches, the boot task */
struct task *task_alloc(void);              /* zeroed, with a kernel stack */
/* The task cache poisons the struct (POISON_FREE, kmem.h); the stack is
 * unmapped (arch/i386/kstack.h): a use of either after the free faults
 * or reads 0x6b6b6b6b. */
void task_free(struct task *t);
/* A self-reaping task parking itself in the per-CPU task cache
 * (kernel/exit.c) is not freed yet, but what it will never use again -
 * every field after mm - is poisoned (POISON_FREE) the moment it parks. */
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
/* Linux's initial limits (kernel/fd.c): every new task starts with them,
 * fork and clone then copy the parent's. */
void rlimit_init_defaults(struct rlimit *r);
/* Starts fn(arg) in a new kernel thread on the run queue. */
struct task *kthread_create(const char *name, void (*fn)(void *), void *arg);

/* kernel/pgrp.c: does a live process of group pgid exist (in session
 * sid, when sid >= 0)? tasklist_lock held. */
bool pgrp_exists_locked(int pgid, int sid);

/* kernel/itimer.c: SIGALRMs due (from the tick); a leader's timer
 * stopped before its task is freed. */
void itimers_run(void);
void itimer_cancel(struct task *t);
/* execve in a thread (exec.c): the old leader's timer becomes to's.
 * tasklist_lock held, interrupts off. */
void itimer_move_locked(struct task *from, struct task *to);

extern struct spinlock tasklist_lock;
extern struct list all_tasks;

#endif
