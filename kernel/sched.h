/* kernel/sched.h - the scheduler: per-CPU run queues, round robin.
 *
 * Each CPU has a run queue of its runnable tasks (the running one
 * included) and an idle task that runs when the queue is empty. The timer
 * tick asks for a reschedule; it happens on the way back to user mode
 * (the kernel itself is not preemptible: a kernel thread yields or
 * sleeps). The run-queue lock is held across switch_context and released
 * by the task that starts running (finish_task_switch), as in Linux.
 *
 * Sleeping without lost wake-ups (the race xv6's sleep() comment is
 * about): announce the sleep, then test the condition, then schedule:
 *
 *     DEFINE_WAIT(w);
 *     prepare_to_wait(&wq, &w, TASK_INTERRUPTIBLE);
 *     if (!condition)
 *         schedule();
 *     finish_wait(&wq, &w);
 *
 * A wake_up that comes after prepare_to_wait sets the task RUNNING again,
 * so the schedule() that follows returns at once instead of sleeping. */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include "lib/types.h"
#include "lib/list.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/cpu.h"
#include "kernel/task.h"
#include "kernel/waitqueue.h"

#define DEFINE_WAIT(w) struct waiter w = { current, LIST_INIT(w.link) }

void sched_init(void);              /* the boot task becomes cpu0's idle */
void sched_init_cpu(int cpu, struct task *idle);
void schedule(void);
/* Makes a sleeping task runnable (true if it was asleep). A stopped task
 * (TASK_STOPPED) is not asleep: only wake_up_stopped, for SIGCONT and
 * SIGKILL (compat/linux/jobctl.c), makes it run. */
bool wake_up_task(struct task *t);
bool wake_up_stopped(struct task *t);
/* Puts a new task on a run queue. */
void sched_add(struct task *t);
void sched_tick(void);              /* from the timer interrupt */

/* CPU affinity (sched_setaffinity(2)): bit i of a mask is CPU i. */
#define CPU_MASK_ALL ((uint32_t)((1ull << NR_CPUS) - 1))
/* The CPUs that are running, as a mask. */
uint32_t sched_online_mask(void);
/* Lets t run only on the CPUs of mask (which holds at least one online
 * CPU): a queued task moves to an allowed CPU at once, a running one at
 * its next schedule() (current: before it returns to user mode), a
 * sleeping one wakes up on an allowed CPU. */
void sched_set_allowed(struct task *t, uint32_t mask);
extern volatile bool sched_need_resched[];
static inline bool need_resched(void)
{
	return sched_need_resched[current_thread_info()->cpu];
}
/* Runs the idle loop of this CPU; never returns. */
void cpu_idle(void) __attribute__((noreturn));

/* Sleeps until woken or until ns have passed; the caller sets
 * current->state (TASK_INTERRUPTIBLE) first, after queueing itself where
 * its waker will look. Returns the nanoseconds left (0: time ran out). */
uint64_t schedule_timeout(uint64_t ns);
/* From the timer tick: wakes the sleepers whose time has come. */
void timers_run(void);

/* Called first by every task that starts running after a switch (from
 * schedule(), or from ret_from_fork and kthread_start for a new task).
 * The task switched away from is this run queue's rq->prev: no argument,
 * for a task's own `prev` local names itself once it runs again. */
void finish_task_switch(void);

static inline void preempt_disable(void)
{
	current_thread_info()->preempt_count++;
	/* A compiler barrier (Linux's barrier()): the count changes before
	 * and after what it protects, not around it. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void preempt_enable(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	current_thread_info()->preempt_count--;
}

/* arch: make CPU cpu call schedule() soon (a reschedule IPI). */
void arch_send_reschedule(int cpu);

/* Statistics, for tests and the monitor. */
uint64_t sched_switches(int cpu);
int sched_nr_running(int cpu);

#endif
