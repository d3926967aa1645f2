/* compat/linux/itimer.c - the real-time interval timer of a process: alarm 27,
 * setitimer 104 and getitimer 105 with ITIMER_REAL (Linux's
 * kernel/time/itimer.c). When it expires the process gets SIGALRM; with
 * an interval it is re-armed that far on.
 *
 * The timer is the process's: it lives in its group leader's task (the
 * leader's struct outlives every thread of the group) and is kept by
 * execve, as POSIX says of alarm (a thread that execs and becomes the
 * leader takes it over: itimer_move_locked). Armed timers are on itimer_list, which
 * the clock tick scans (linux_timers_run, from timers_run). Resolution is the
 * tick (10 ms); an expiry is never early. ITIMER_VIRTUAL and ITIMER_PROF
 * (CPU time) are -EINVAL: Spindle accounts CPU time (compat/linux/cputime.c)
 * but has no timers on it.
 * Lock order: tasklist_lock, then itimer_lock. Every write of
 * it_real_expires holds both, but itimer_cancel's (itimer_lock only: a
 * task on its way out, whose own timer nobody else arms), so under
 * tasklist_lock a zero is exact (linux_exit_reap_self_locked). */
#include "kernel/task.h"
#include "kernel/panic.h"
#include "kernel/clock.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "arch/i386/irqflags.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/uaccess.h"
#include "lib/errno.h"

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2
#define NSEC_PER_USEC 1000ull
#define USEC_PER_SEC 1000000ull

struct user_itimerval {
	int32_t interval_sec, interval_usec;
	int32_t value_sec, value_usec;
};

static struct spinlock itimer_lock = SPINLOCK_INIT("itimer");
static struct list itimer_list = LIST_INIT(itimer_list);

/* From the tick: SIGALRM to every process whose time has come. */
void linux_timers_run(void)
{
	uint64_t now = clock_ns();
	struct list *pos, *next;

	spin_lock(&tasklist_lock);      /* the tick runs with interrupts off */
	spin_lock(&itimer_lock);
	for (pos = itimer_list.next; pos != &itimer_list; pos = next) {
		struct task *g = list_entry(pos, struct task, lx.it_link);
		next = pos->next;
		if (g->lx.it_real_expires > now)
			continue;
		if (g->lx.it_real_interval) {
			g->lx.it_real_expires += g->lx.it_real_interval;
			if (g->lx.it_real_expires <= now)  /* missed ticks: no burst */
				g->lx.it_real_expires = now + g->lx.it_real_interval;
		} else {
			g->lx.it_real_expires = 0;
			list_del(&g->lx.it_link);
		}
		send_signal_group(g, SIGALRM);
	}
	spin_unlock(&itimer_lock);
	spin_unlock(&tasklist_lock);
}

void itimer_cancel(struct task *t)
{
	uint32_t flags = spin_lock_irqsave(&itimer_lock);

	if (t->lx.it_real_expires)
		list_del(&t->lx.it_link);
	t->lx.it_real_expires = 0;
	spin_unlock_irqrestore(&itimer_lock, flags);
}

void itimer_move_locked(struct task *from, struct task *to)
{
	ASSERT(spin_held(&tasklist_lock) && irqs_disabled());
	spin_lock(&itimer_lock);
	if (from->lx.it_real_expires) {
		list_del(&from->lx.it_link);
		list_add_tail(&to->lx.it_link, &itimer_list);
	}
	to->lx.it_real_expires = from->lx.it_real_expires;
	to->lx.it_real_interval = from->lx.it_real_interval;
	from->lx.it_real_expires = 0;
	spin_unlock(&itimer_lock);
}

static void ns_to_tv(uint64_t ns, int32_t *sec, int32_t *usec)
{
	uint64_t us = (ns + NSEC_PER_USEC - 1) / NSEC_PER_USEC;    /* never 0 early */

	*sec = (int32_t)(us / USEC_PER_SEC);
	*usec = (int32_t)(us % USEC_PER_SEC);
}

/* Reads and (if set) replaces the calling process's timer; values in ns,
 * value 0 disarms. */
static void itimer_swap(const uint64_t *set, uint64_t *old)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *g = current->group_leader;
	uint64_t now = clock_ns();

	spin_lock(&itimer_lock);
	old[0] = g->lx.it_real_interval;
	old[1] = g->lx.it_real_expires > now ? g->lx.it_real_expires - now :
		 g->lx.it_real_expires ? 1 : 0;
	if (set) {
		if (g->lx.it_real_expires)
			list_del(&g->lx.it_link);
		g->lx.it_real_interval = set[1] ? set[0] : 0;
		g->lx.it_real_expires = set[1] ? now + set[1] : 0;
		if (g->lx.it_real_expires)
			list_add_tail(&g->lx.it_link, &itimer_list);
	}
	spin_unlock(&itimer_lock);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static long check_which(int which)
{
	if (which == ITIMER_REAL)
		return 0;
	return -EINVAL;     /* VIRTUAL, PROF: no CPU-time accounting; others */
}

LINUX_SYSCALL(SYS_setitimer, setitimer)
{
	struct user_itimerval v = { 0, 0, 0, 0 }, o;
	uint64_t set[2], old[2];
	long err = check_which((int)arg[0]);

	if (err)
		return err;
	/* Linux 6.1 takes a NULL new value as zero (disarm). */
	if (arg[1] && copy_from_user(&v, arg[1], sizeof(v)))
		return -EFAULT;
	if (v.interval_sec < 0 || v.interval_usec < 0 || v.interval_usec >= (int32_t)USEC_PER_SEC ||
	    v.value_sec < 0 || v.value_usec < 0 || v.value_usec >= (int32_t)USEC_PER_SEC)
		return -EINVAL;
	set[0] = (uint64_t)v.interval_sec * 1000000000ull + (uint64_t)v.interval_usec * NSEC_PER_USEC;
	set[1] = (uint64_t)v.value_sec * 1000000000ull + (uint64_t)v.value_usec * NSEC_PER_USEC;
	itimer_swap(set, old);
	if (arg[2]) {
		ns_to_tv(old[0], &o.interval_sec, &o.interval_usec);
		ns_to_tv(old[1], &o.value_sec, &o.value_usec);
		if (copy_to_user(arg[2], &o, sizeof(o)))
			return -EFAULT;
	}
	return 0;
}

LINUX_SYSCALL(SYS_getitimer, getitimer)
{
	struct user_itimerval o;
	uint64_t old[2];
	long err = check_which((int)arg[0]);

	if (err)
		return err;
	itimer_swap(NULL, old);
	ns_to_tv(old[0], &o.interval_sec, &o.interval_usec);
	ns_to_tv(old[1], &o.value_sec, &o.value_usec);
	return copy_to_user(arg[1], &o, sizeof(o)) ? -EFAULT : 0;
}

/* alarm(seconds): a one-shot ITIMER_REAL; returns the seconds that were
 * left, rounded as Linux's alarm_setitimer (to the nearest, never 0 for
 * a timer still armed). */
LINUX_SYSCALL(SYS_alarm, alarm)
{
	uint64_t set[2] = { 0, (uint64_t)arg[0] * 1000000000ull }, old[2];
	int32_t sec, usec;

	itimer_swap(set, old);
	ns_to_tv(old[1], &sec, &usec);
	if ((!sec && usec) || usec >= 500000)
		sec++;
	return sec;
}
