/* arch/i386/spinlock.h - test-and-set spinlocks.
 *
 * xchg with a memory operand is locked by the CPU (SDM Vol. 3A 8.1.2.1),
 * and is a full barrier, so acquire needs nothing more; release is a plain
 * store after a compiler barrier (x86 stores are not reordered with older
 * loads or stores, SDM 8.2.2). The irqsave variants also disable
 * interrupts on this CPU, for data that interrupt handlers touch. Each
 * lock records its name and owner CPU so the checks can say which lock
 * was misused. */
#ifndef ARCH_I386_SPINLOCK_H
#define ARCH_I386_SPINLOCK_H

#include "lib/types.h"
#include "arch/i386/x86.h"
#include "arch/i386/thread_info.h"
#include "kernel/chaos.h"            /* CHAOS_UNLOCK_POINT */

struct spinlock {
	volatile uint32_t locked;
	const char *name;
	int owner_cpu;              /* -1 when free */
};

#define SPINLOCK_INIT(n) { 0, (n), -1 }

/* The spinlocks each CPU holds now, and the last one it took (trap()
 * puts it back after an interrupt that took its own): schedule()
 * panics unless the count is 0 (kernel/sched.c schedule_checks), for a
 * task that sleeps holding a spinlock leaves every other taker spinning,
 * possibly forever (Linux's "scheduling while atomic"). Per CPU, not per
 * task: the run-queue lock is taken by one task and released by the next
 * on the same CPU (finish_task_switch). Indexed by thread_info->cpu. */
struct spin_depth {
	int count;
	struct spinlock *last;
};
extern struct spin_depth spin_depth[];

void spinlock_held_panic(struct spinlock *l, const char *what)
	__attribute__((noreturn));


/* May this CPU sleep, as far as spinlocks go? */
static inline bool spin_none_held(void)
{
	return spin_depth[current_thread_info()->cpu].count == 0;
}

/* Does this CPU hold l? What the "lock held" comments promise, checked
 * where they are relied on: ASSERT(spin_held(&tasklist_lock)). Exact on
 * SMP: owner_cpu can equal this CPU only while this CPU holds l (the
 * owner sets it after taking l and clears it before letting go, so a
 * reader elsewhere sees another CPU's number or -1, never its own). */
static inline bool spin_held(const struct spinlock *l)
{
	return l->locked && l->owner_cpu == current_thread_info()->cpu;
}

static inline void spin_lock(struct spinlock *l)
{
	int cpu = current_thread_info()->cpu;

	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
		/* Busy. If this CPU is the holder, it would wait forever:
		 * say so instead (asked only when the lock is busy, which a
		 * recursive acquire always finds it). */
		if (l->owner_cpu == cpu)
			spinlock_held_panic(l, "recursive acquire");
		while (l->locked)
			pause();
	}
	l->owner_cpu = cpu;
	spin_depth[cpu].count++;
	spin_depth[cpu].last = l;
}

static inline void spin_unlock(struct spinlock *l)
{
	int cpu = current_thread_info()->cpu;

	/* owner_cpu is this CPU only while this CPU holds l (spin_held):
	 * the one test covers a lock that is free too. */
	if (l->owner_cpu != cpu)
		spinlock_held_panic(l, "release by a non-owner");
	spin_depth[cpu].count--;
	l->owner_cpu = -1;
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
	CHAOS_UNLOCK_POINT();           /* where another CPU's taker goes in */
}

static inline uint32_t spin_lock_irqsave(struct spinlock *l)
{
	uint32_t flags = read_eflags();
	cli();
	spin_lock(l);
	return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, uint32_t flags)
{
	spin_unlock(l);
	if (flags & EFLAGS_IF)
		sti();
}

#endif
