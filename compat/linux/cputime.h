/* compat/linux/cputime.h - CPU-time accounting: times 43, getrusage 77 and
 * wait4's struct rusage (abi.md section 9, Linux's kernel/sched/cputime.c
 * with tick-based accounting).
 *
 * Each timer tick is charged to the task it interrupted: to utime when
 * it came from user mode, to stime when from the kernel (the idle task
 * is charged nothing). A process's time is the sum over its live
 * threads plus what its gone threads left in its leader (dead_*); a
 * reaped child's time, with its own children's, is added to its
 * parent's cutime/cstime at wait4, as Linux's wait_task_zombie does. The
 * resolution is the tick: 1/HZ s. */
#ifndef KERNEL_CPUTIME_H
#define KERNEL_CPUTIME_H

#include "lib/types.h"

struct task;

/* From the timer interrupt of this CPU: user says where it came from. */
void linux_account_tick(bool user);

/* How one CPU's ticks were spent, in clock_t units (1/USER_HZ s) since
 * boot: /proc/stat's cpu lines, /proc/uptime's idle time. */
enum cpu_usage_kind { CPU_USER, CPU_SYSTEM, CPU_IDLE, CPU_USAGE_KINDS };
uint64_t cputime_cpu_usage(int cpu, enum cpu_usage_kind kind);

/* A thread leaves its group for good without being reaped (it reaps
 * itself, or an execve in another thread ends it or, for the old leader,
 * takes its place): its time goes to its process's books, in
 * p->group_leader. tasklist_lock held. */
void cputime_unlink_locked(struct task *p);
/* wait4 reaps zombie c: a process's time (its threads' and its reaped
 * children's) goes to the reaper's cutime/cstime. tasklist_lock held. */
void linux_reap_times_locked(struct task *reaper, struct task *c);
/* execve in a thread (de_thread): the old leader's books become to's.
 * tasklist_lock held. */
void cputime_move_locked(struct task *from, struct task *to);
struct tms;
/* Process leader's times and its reaped children's, in clock_t units
 * (1/USER_HZ s): times(2) and /proc/PID/stat. tasklist_lock held. */
void cputime_tms_locked(struct task *leader, struct tms *tms);
/* The same for one thread: its own time, its process's children's
 * (/proc/PID/task/TID/stat). tasklist_lock held. */
void cputime_thread_tms_locked(struct task *th, struct tms *tms);
/* The CPU time of the calling process (thread: of the caller alone), in
 * ns: CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID (time.c). */
uint64_t cputime_ns(bool thread);
/* What reaping zombie c would hand its reaper (its time and its
 * children's, Linux's RUSAGE_BOTH), in ticks: user, system. Read while
 * the zombie cannot go away. tasklist_lock held. */
void linux_zombie_times_locked(struct task *c, uint32_t ticks[2]);
/* wait4's and waitid's struct rusage of those ticks at user address
 * urusage (the other fields 0): 0 or -EFAULT. */
long linux_rusage_to_user(uint32_t urusage, const uint32_t ticks[2]);

#endif
