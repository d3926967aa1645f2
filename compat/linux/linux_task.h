/* compat/linux/linux_task.h - what the Linux layer keeps in each task.
 *
 * struct task (kernel/task.h) holds what the seed kernel needs; the fields
 * below serve abi.md section 9 alone: job control, CPU time, interval
 * timers, limits, the file-system context, system-call restart and the
 * rest. They live in one struct the layer owns, embedded in struct task
 * as `lx` (kernel/linux_hooks.h); the core never reads them. A task comes
 * zeroed from task_alloc, which is every field's start state. */
#ifndef COMPAT_LINUX_LINUX_TASK_H
#define COMPAT_LINUX_LINUX_TASK_H

#include "lib/types.h"
#include "lib/list.h"
#include "lib/abi_linux.h"
#include "compat/linux/restart.h"

/* linux_task.jobstop (compat/linux/jobctl.c) */
#define JOBSTOP_NONE    0
#define JOBSTOP_PENDING 1       /* must stop at its next return to user mode */
#define JOBSTOP_STOPPED 2       /* has stopped for the group stop */

struct fs_struct;
struct exe_link;
struct task;

struct linux_task {
	/* seed or linux (compat/linux/personality.h): the whole group's,
	 * set by execve, inherited by fork and clone */
	uint8_t personality;

	/* job control (compat/linux/pgrp.c): the process's process group
	 * and session, the same in every thread of the group; 0 for kernel
	 * threads. Inherited by fork, kept by execve. Under tasklist_lock. */
	int pgid;
	int sid;
	/* job control (compat/linux/jobctl.c), under sighand->lock: whether
	 * this thread must stop or has stopped for its group's stop; and, in
	 * the group leader, the group stop (its signal, 0: none, and whether
	 * every thread is stopped) and what wait4's WUNTRACED and
	 * WCONTINUED, and the parent's SIGCHLD, have yet to be told */
	uint8_t jobstop;
	bool stop_dequeued;     /* took a stop signal; SIGCONT clears it */
	int stop_sig;
	bool group_stopped;
	int stop_report;
	bool cont_report, cld_continued;

	/* CPU time (compat/linux/cputime.c), in ticks: each timer tick is
	 * charged to the task it interrupted, to utime if it came from user
	 * mode, to stime if from the kernel. Written only by the tick of the
	 * CPU the task runs on. */
	uint32_t utime, stime;
	/* The process's CPU-time books, in the group leader, under
	 * tasklist_lock (Linux keeps them in signal_struct): the time of
	 * its threads that are gone (dead_*), and of its reaped children
	 * with theirs (c*: times' tms_cutime, RUSAGE_CHILDREN). */
	uint32_t dead_utime, dead_stime;
	uint32_t cutime, cstime;

	/* ITIMER_REAL (compat/linux/itimer.c), in the group leader: the
	 * expiry (clock_ns; 0 = disarmed, then off the list) and the
	 * interval */
	uint64_t it_real_expires, it_real_interval;
	struct list it_link;

	/* getrlimit/setrlimit (compat/linux/fd.c), in the group leader:
	 * the process's limits, which its threads read there (task_rlimits,
	 * layer.h); RLIMIT_NOFILE bounds the fd table */
	struct rlimit rlim[RLIM_NLIMITS];
	struct fs_struct *fs;           /* cwd, umask (CLONE_FS shares it) */
	struct exe_link *exe;           /* what execve ran: /proc/PID/exe */

	/* rt_sigsuspend's mask is in force until a signal is handled; the
	 * frame then saves this one, the caller's (Linux's saved_sigmask,
	 * TIF_RESTORE_SIGMASK). compat/linux/signal_wait.c */
	uint64_t saved_sigmask;
	bool restore_sigmask;
	/* What restart_syscall does after an interrupted timed sleep
	 * (compat/linux/restart.h); only this task reads or writes it. */
	struct restart_block restart_block;
	/* sigaltstack (compat/linux/signal_stack.c): 0 size = none */
	uint32_t sas_ss_sp, sas_ss_size;

	/* CLONE_CHILD_CLEARTID (set_tid_address too): the core's
	 * user_vm_lock word is then Linux's clear_child_tid, and one
	 * FUTEX_WAKE follows the write of 0 */
	bool clear_tid_wake;
	/* set_robust_list's head (user address, 0: none), walked when the
	 * address space is released (compat/linux/robust.c) */
	uint32_t robust_list;
	/* CLONE_VFORK (compat/linux/clone.c): the parent sleeping until we
	 * exec or exit; and, in that parent, whether we have */
	struct task *vfork_parent;
	bool vfork_done;
};

#endif
