/* kernel/task_cache.c - the per-CPU task cache (clone-detached-2.5.31-A1).
 *
 * A task that reaps itself (a CLONE_DETACHED thread, a kernel thread)
 * cannot free its own task struct and kernel stack: it is still running
 * on that stack when it decides to go. The seed's answer: with
 * preemption off, the exiting task parks itself in its CPU's slot,
 * task_cache[cpu], and frees whatever task was parked there before,
 * which is certainly no longer running: it was the previous self-reaping
 * task on this same CPU and has switched away since. clone (task_alloc)
 * takes the parked task back instead of allocating, when there is one.
 *
 * Linux dropped it in 2.6.0-test2, when freeing a dead task moved to the
 * next task's finish_task_switch; here it is built as the seed had it
 * (docs/threads.md). */
#include "kernel/task_cache.h"
#include "kernel/panic.h"
#include "kernel/task.h"
#include "kernel/trace.h"
#include "arch/i386/cpu.h"
#include "arch/i386/irqflags.h"

/* The per-CPU task cache (clone-detached-A1's task_cache[NR_CPUS]). */
static struct task *task_cache[NR_CPUS];

/* Its counters, per CPU like the cache itself: each is written only by
 * its own CPU with interrupts off, so no lock and no shared cache line on
 * the exit path. 32-bit words, so a reader on another CPU never sees half
 * an increment. */
static struct {
	uint32_t parked, freed, reused;
} cache_stats[NR_CPUS];

void task_cache_stats_cpu(int cpu, struct task_cache_stats *s)
{
	s->parked = __atomic_load_n(&cache_stats[cpu].parked, __ATOMIC_RELAXED);
	s->freed = __atomic_load_n(&cache_stats[cpu].freed, __ATOMIC_RELAXED);
	s->reused = __atomic_load_n(&cache_stats[cpu].reused, __ATOMIC_RELAXED);
}

void task_cache_stats(struct task_cache_stats *s)
{
	struct task_cache_stats c;

	*s = (struct task_cache_stats){ 0, 0, 0 };
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		task_cache_stats_cpu(cpu, &c);
		s->parked += c.parked;
		s->freed += c.freed;
		s->reused += c.reused;
	}
}

/* The seed's __put_task_struct for tsk == current: free the task parked
 * on this CPU, park current. Runs with preemption (and interrupts) off,
 * which is what the seed's comment relies on: nothing else runs on this
 * CPU between here and the final schedule(). */
void task_cache_put_current(void)
{
	/* LAB 5: BEGIN SOLUTION */
	int cpu = this_cpu()->id;
	struct task *old = task_cache[cpu];

	ASSERT(current_thread_info()->preempt_count > 0);
	ASSERT(irqs_disabled());   /* cache_stats[cpu] is ours */
	TRACE(TR_PARK, (uint32_t)current->tid, (uint32_t)current, 0, 0, 0);
	task_poison_parked(current);
	task_cache[cpu] = current;
	cache_stats[cpu].parked++;
	if (old)
		cache_stats[cpu].freed++;
	if (old) {
		/* It parked itself, then switched away on this CPU. */
		while (old->on_cpu)
			cpu_relax();
		TRACE(TR_FREE, (uint32_t)old, 0, 0, 0, 0);
		task_free(old);
	}
	/* LAB 5: END SOLUTION */
#if 0 /* LAB 5: STUB */
	/* Lab 5: park current in this CPU's slot of task_cache and free
	 * the task parked there before (docs/labs/lab5-exit.md). Doing
	 * nothing leaks every self-reaping task. */
	(void)task_cache;
#endif /* LAB 5: END STUB */
}

struct task *task_cache_take(void)
{
	/* LAB 5: BEGIN SOLUTION */
	uint32_t flags;
	struct task *t;

	local_irq_save(flags);
	t = task_cache[this_cpu()->id];
	/* Only once it has switched away: otherwise it is not ours yet. */
	if (t && !t->on_cpu) {
		task_cache[this_cpu()->id] = NULL;
		cache_stats[this_cpu()->id].reused++;
		TRACE(TR_REUSE, (uint32_t)t, 0, 0, 0, 0);
	} else {
		t = NULL;
	}
	local_irq_restore(flags);
	return t;
	/* LAB 5: END SOLUTION */
#if 0 /* LAB 5: STUB */
	/* Lab 5: take the task parked on this CPU, if it has switched
	 * away for good; NULL makes task_alloc allocate a new one. */
	return NULL;
#endif /* LAB 5: END STUB */
}
