/* kernel/task_cache.h - the per-CPU task cache of clone-detached-2.5.31-A1
 * (kernel/task_cache.c). */
#ifndef KERNEL_TASK_CACHE_H
#define KERNEL_TASK_CACHE_H

#include "lib/types.h"

struct task;

/* do_exit's last act for a self-reaping task (current): park it in this
 * CPU's slot and free the task parked there before. Preemption and
 * interrupts off (asserted). */
void task_cache_put_current(void);
/* clone's first choice (task_alloc): the task parked on this CPU, if it
 * has switched away for good; else NULL. */
struct task *task_cache_take(void);

/* Its counters. */
struct task_cache_stats {
	uint64_t parked;        /* self-reaping tasks parked in a CPU slot */
	uint64_t freed;         /* parked tasks freed by the next exit */
	uint64_t reused;        /* parked tasks reused by clone */
};
void task_cache_stats(struct task_cache_stats *s);            /* all CPUs */
void task_cache_stats_cpu(int cpu, struct task_cache_stats *s);

#endif
