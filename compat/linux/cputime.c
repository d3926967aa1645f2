/* compat/linux/cputime.c - CPU-time accounting and the calls that read it:
 * times 43, getrusage 77, wait4's rusage (cputime.h).
 *
 * Linux without VIRT_CPU_ACCOUNTING does the same: update_process_times
 * charges a whole tick to whatever the tick interrupted
 * (account_process_tick), user or system by the mode the CPU was in. A
 * task that runs for less than a tick between ticks is charged nothing;
 * one that happens to be running at every tick is charged them all. Over
 * many ticks the sums come out right, which is all times(2) promises.
 *
 * The books of a process live in its group leader (kernel/task.h), under
 * tasklist_lock; the per-task counters are written by one CPU's tick
 * only (the CPU the task runs on), and read with a single 32-bit load. */
#include "compat/linux/cputime.h"
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/cpu.h"
#include "arch/i386/thread_info.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define USER_HZ 100             /* clock_t's unit in the ABI (Linux's USER_HZ) */
#define RUSAGE_SELF      0
#define RUSAGE_CHILDREN  (-1)
#define RUSAGE_THREAD    1

/* struct rusage on i386 (Linux's): two timevals, then 14 longs Spindle
 * does not count (max RSS, faults, context switches ...): zero. */
struct rusage {
	struct timeval ru_utime, ru_stime;
	long ru_other[14];
};
_Static_assert(sizeof(struct rusage) == 72, "struct rusage on i386");

struct cputime {
	uint32_t utime, stime;      /* ticks */
};

/* Each CPU's ticks by kind (/proc/stat, /proc/uptime): written only by
 * that CPU's tick, read by anyone (relaxed: a figure, not a lock). 32
 * bits, which i386 loads and adds in one instruction, last 497 days. */
static uint32_t cpu_usage[NR_CPUS][CPU_USAGE_KINDS];

void linux_account_tick(bool user)
{
	struct task *t = current;
	int cpu = current_thread_info()->cpu;

	/* The idle task (tid 0, as do_exit knows it) is not a process: a
	 * tick that finds it running is idle time, charged to nobody. */
	if (t->tid == 0) {
		__atomic_add_fetch(&cpu_usage[cpu][CPU_IDLE], 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_add_fetch(&cpu_usage[cpu][user ? CPU_USER : CPU_SYSTEM], 1, __ATOMIC_RELAXED);
	if (user)
		__atomic_add_fetch(&t->lx.utime, 1, __ATOMIC_RELAXED);
	else
		__atomic_add_fetch(&t->lx.stime, 1, __ATOMIC_RELAXED);
}

uint64_t cputime_cpu_usage(int cpu, enum cpu_usage_kind kind)
{
	return (uint64_t)__atomic_load_n(&cpu_usage[cpu][kind], __ATOMIC_RELAXED) * USER_HZ / HZ;
}

static void add_task(struct cputime *c, const struct task *t)
{
	c->utime += __atomic_load_n(&t->lx.utime, __ATOMIC_RELAXED);
	c->stime += __atomic_load_n(&t->lx.stime, __ATOMIC_RELAXED);
}

/* A seed thread with an exit signal of its own (abi.md section 4) is
 * reaped like a child once it is a zombie, and its time then goes to
 * whoever reaps it, as in 2.5.31's sys_wait4: from its exit on, it is no
 * longer its process's. */
static bool reaped_like_a_child(const struct task *t)
{
	return t->group_leader != t && t->exit_signal != -1 &&
	       (t->state == TASK_ZOMBIE || t->state == TASK_DEAD);
}

/* The whole process of leader: its threads on the group list (the leader
 * is one of them, even a zombie) and the threads already gone. */
static struct cputime group_locked(struct task *leader)
{
	struct cputime c = { leader->lx.dead_utime, leader->lx.dead_stime };
	struct list *pos;

	ASSERT(spin_held(&tasklist_lock));
	add_task(&c, leader);
	list_for_each(pos, &leader->thread_group) {
		struct task *t = list_entry(pos, struct task, thread_group);
		if (!reaped_like_a_child(t))
			add_task(&c, t);
	}
	return c;
}

void cputime_unlink_locked(struct task *p)
{
	struct task *leader = p->group_leader;

	ASSERT(spin_held(&tasklist_lock));
	/* A detached leader reaping itself is the last of its process:
	 * nobody's books are left to add to. */
	if (leader == p)
		return;
	leader->lx.dead_utime += __atomic_load_n(&p->lx.utime, __ATOMIC_RELAXED);
	leader->lx.dead_stime += __atomic_load_n(&p->lx.stime, __ATOMIC_RELAXED);
}

/* What reaping c hands its reaper, Linux's RUSAGE_BOTH: a process's own
 * time and its reaped children's; a seed thread reaped on its own
 * (reaped_like_a_child): its own time. tasklist_lock held. */
static struct cputime reaped_time_locked(struct task *c)
{
	struct cputime t = { 0, 0 };

	ASSERT(spin_held(&tasklist_lock));
	if (c->group_leader == c) {
		t = group_locked(c);
		t.utime += c->lx.cutime;
		t.stime += c->lx.cstime;
	} else {
		add_task(&t, c);
	}
	return t;
}

void linux_reap_times_locked(struct task *reaper, struct task *c)
{
	struct task *books = reaper->group_leader;
	struct cputime t = reaped_time_locked(c);

	ASSERT(spin_held(&tasklist_lock));
	books->lx.cutime += t.utime;
	books->lx.cstime += t.stime;
}

void cputime_move_locked(struct task *from, struct task *to)
{
	ASSERT(spin_held(&tasklist_lock));
	to->lx.dead_utime += from->lx.dead_utime;
	to->lx.dead_stime += from->lx.dead_stime;
	to->lx.cutime += from->lx.cutime;
	to->lx.cstime += from->lx.cstime;
	from->lx.dead_utime = from->lx.dead_stime = from->lx.cutime = from->lx.cstime = 0;
}

static long ticks_to_clock_t(uint64_t ticks)
{
	return (long)(ticks * USER_HZ / HZ);
}

static struct timeval ticks_to_timeval(uint32_t ticks)
{
	struct timeval tv = { (long)(ticks / HZ), (long)(ticks % HZ * (1000000 / HZ)) };

	return tv;
}

static long rusage_to_user(uint32_t uru, struct cputime c)
{
	struct rusage ru;

	memset(&ru, 0, sizeof(ru));
	ru.ru_utime = ticks_to_timeval(c.utime);
	ru.ru_stime = ticks_to_timeval(c.stime);
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

void linux_zombie_times_locked(struct task *c, uint32_t ticks[2])
{
	struct cputime t = reaped_time_locked(c);

	ASSERT(spin_held(&tasklist_lock));
	ticks[0] = t.utime;
	ticks[1] = t.stime;
}

long linux_rusage_to_user(uint32_t urusage, const uint32_t ticks[2])
{
	return rusage_to_user(urusage, (struct cputime){ ticks[0], ticks[1] });
}

uint64_t cputime_ns(bool thread)
{
	struct cputime c = { 0, 0 };
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	if (thread)
		add_task(&c, current);
	else
		c = group_locked(current->group_leader);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ((uint64_t)c.utime + c.stime) * (1000000000ull / HZ);
}

/* getrusage(who, usage): who is RUSAGE_SELF (the process), RUSAGE_THREAD
 * (the caller) or RUSAGE_CHILDREN (the reaped children); anything else
 * is -EINVAL, as on Linux. */
LINUX_SYSCALL(SYS_getrusage, getrusage)
{
	int who = (int)arg[0];
	struct task *leader;
	struct cputime c = { 0, 0 };
	uint32_t flags;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	flags = spin_lock_irqsave(&tasklist_lock);
	leader = current->group_leader;
	if (who == RUSAGE_SELF)
		c = group_locked(leader);
	else if (who == RUSAGE_THREAD)
		add_task(&c, current);
	else
		c = (struct cputime){ leader->lx.cutime, leader->lx.cstime };
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return rusage_to_user(arg[1], c);
}

/* times(buf): the process's times and its reaped children's, in clock_t
 * units (1/USER_HZ s), at buf if it is not NULL; returns the clock ticks
 * since boot in the same unit. (Linux starts that count 5 minutes before
 * its 32-bit wrap, INITIAL_JIFFIES, to catch overflow bugs; Spindle
 * starts it at 0, so it is not mistaken for -errno for 497 days.) */
LINUX_SYSCALL(SYS_times, times)
{
	struct tms tms;
	uint32_t flags;

	if (arg[0]) {
		flags = spin_lock_irqsave(&tasklist_lock);
		cputime_tms_locked(current->group_leader, &tms);
		spin_unlock_irqrestore(&tasklist_lock, flags);
		if (copy_to_user(arg[0], &tms, sizeof(tms)))
			return -EFAULT;
	}
	return ticks_to_clock_t(clock_ticks());
}

void cputime_thread_tms_locked(struct task *th, struct tms *tms)
{
	ASSERT(spin_held(&tasklist_lock));
	tms->tms_utime = ticks_to_clock_t(th->lx.utime);
	tms->tms_stime = ticks_to_clock_t(th->lx.stime);
	tms->tms_cutime = ticks_to_clock_t(th->group_leader->lx.cutime);
	tms->tms_cstime = ticks_to_clock_t(th->group_leader->lx.cstime);
}

void cputime_tms_locked(struct task *leader, struct tms *tms)
{
	struct cputime c;

	ASSERT(spin_held(&tasklist_lock));
	c = group_locked(leader);
	tms->tms_utime = ticks_to_clock_t(c.utime);
	tms->tms_stime = ticks_to_clock_t(c.stime);
	tms->tms_cutime = ticks_to_clock_t(leader->lx.cutime);
	tms->tms_cstime = ticks_to_clock_t(leader->lx.cstime);
}
