/* kernel/exit.h - ending tasks, and waiting for them. */
#ifndef KERNEL_EXIT_H
#define KERNEL_EXIT_H

#include "lib/types.h"

struct task;

/* Ends the calling task with a wait status (abi.md section 3: exited
 * (code & 0xff) << 8, killed by a signal: the signal number). */
void do_exit(int status) __attribute__((noreturn));
/* Ends every task of the calling thread group (exit_group, fatal
 * signals), then the caller. */
void do_group_exit(int status) __attribute__((noreturn));

/* Is every other task of t's group a zombie or dead? tasklist_lock held. */
bool group_dead(struct task *t);

/* Linux's release_task: the end of a zombie (or of a task killed by an
 * execve, whose pid the execve takes over): off its parent's children,
 * its group and the pid table, then freed once it is off its CPU.
 * release_task does both halves; the first needs tasklist_lock held,
 * the second must run without it. */
void release_task(struct task *p);
void release_task_unlink_locked(struct task *p);
void release_task_free(struct task *p);

/* The seed's CLONE_RELEASE_VM: writes 0 to current->user_vm_lock (if set)
 * in the address space being released; a fault is ignored ("if userspace
 * has not set up a proper pointer then tough luck", user-vm-unlock-A2).
 * Its descendants happen here too (Linux's mm_release): the robust list
 * is walked, a CLONE_CHILD_CLEARTID word gets a FUTEX_WAKE after the 0,
 * and a CLONE_VFORK parent is let go. t is current, on exit and execve. */
void release_user_vm_lock(struct task *t);
/* kernel/robust.c: the robust-futex list of t (current), walked once. */
void exit_robust_list(struct task *t);
/* kernel/fork.c: wakes t's CLONE_VFORK parent, if it has one waiting. */
void vfork_done_complete(struct task *t);

/* The per-CPU task cache of clone-detached-2.5.31-A1: counters. */
struct task_cache_stats {
	uint64_t parked;        /* self-reaping tasks parked in a CPU slot */
	uint64_t freed;         /* parked tasks freed by the next exit */
	uint64_t reused;        /* parked tasks reused by clone */
};
void task_cache_stats(struct task_cache_stats *s);            /* all CPUs */
void task_cache_stats_cpu(int cpu, struct task_cache_stats *s);
/* clone's first choice: the task parked on this CPU, if any (else NULL). */
struct task *task_cache_take(void);

#endif
