/* kernel/sched.c - run queues, schedule(), sleeping and waking (sched.h).
 *
 * SMP: each CPU schedules from its own queue under its own lock. A task
 * is woken onto the queue of the CPU it last ran on (t->cpu); a new task
 * goes to the least loaded CPU; an idle CPU pulls a waiting task from the
 * busiest queue (sched_balance). Whenever a queue gets work for a CPU other
 * than this one, that CPU gets a reschedule IPI (arch_send_reschedule).
 *
 * Affinity (t->cpus_allowed, sched_setaffinity): every placement above
 * chooses among the task's allowed CPUs only. A task whose mask no longer
 * holds its CPU leaves it the way Linux 2.6's migration did, but without a
 * migration thread: a queued one is moved at once (migrate_push); a
 * running one at its next schedule(), which takes it off this queue and
 * lets finish_task_switch, on the task that runs next here, push it to an
 * allowed CPU; a sleeping one gets an allowed t->cpu to wake up on.
 *
 * The rule for t->cpu: it changes only while t is on no queue and not
 * running (on_cpu false), under the lock of the queue it names - so
 * task_rq_lock's second look always sees it settled - and, when t is put
 * on the new queue at the same time, under that queue's lock too (both
 * taken in index order: no deadlock). */
#include "kernel/sched.h"
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/trace.h"
#include "arch/i386/cpu.h"
#include "arch/i386/process.h"
#include "arch/i386/irqflags.h"

/* One per CPU, each on cache lines of its own (64 bytes, the line of
 * every i386 since the Pentium 4): CPUs that lock their own queues then
 * never write the same line (Linux's ____cacheline_aligned_in_smp), and
 * &rqs[cpu] is a shift rather than a multiplication. */
struct rq {
	struct spinlock lock;
	int cpu;                        /* rq == &rqs[cpu] */
	struct list queue;              /* runnable tasks but idle, in turn */
	struct task *idle;
	struct task *curr;              /* the task running on this CPU */
	struct task *prev;              /* the task being switched away from
					 * (set at each switch, read by the
					 * next task's finish_task_switch) */
	int nr_running;
	uint64_t switches;
} __attribute__((aligned(64)));

static struct rq rqs[NR_CPUS];

/* Per CPU: call schedule() before returning to user mode. An array of its
 * own so need_resched() (sched.h) is one load on the return path. */
volatile bool sched_need_resched[NR_CPUS];

/* Tasks in a timed sleep, unordered: timers_run scans it at each tick.
 * Few tasks sleep with a timeout at once, so a list is enough here. */
static struct list timer_list = LIST_INIT(timer_list);
static struct spinlock timer_lock = SPINLOCK_INIT("sleep timers");

static struct rq *this_rq(void)
{
	return &rqs[current_thread_info()->cpu];
}

void sched_init_cpu(int cpu, struct task *idle)
{
	struct rq *rq = &rqs[cpu];

	rq->lock = (struct spinlock)SPINLOCK_INIT("run queue");
	rq->cpu = cpu;
	list_init(&rq->queue);
	rq->idle = idle;
	idle->cpu = cpu;
	idle->state = TASK_RUNNING;
	idle->on_rq = false;            /* the idle task is never queued */
	idle->on_cpu = true;
	rq->curr = idle;
}

/* Locks the queue t is on. t->cpu may change until the lock is held
 * (a migration), so check again once it is, as Linux's task_rq_lock. */
static struct rq *task_rq_lock(struct task *t, uint32_t *flags)
{
	for (;;) {
		struct rq *rq = &rqs[t->cpu];
		*flags = spin_lock_irqsave(&rq->lock);
		if (rq == &rqs[t->cpu])
			return rq;
		spin_unlock_irqrestore(&rq->lock, *flags);
	}
}

/* Tells CPU rq's owner that it has work, if that is another CPU. */
static void kick(struct rq *rq)
{
	int cpu = rq->cpu;

	sched_need_resched[rq->cpu] = true;
	if (cpu != current_thread_info()->cpu)
		arch_send_reschedule(cpu);
}

void sched_init(void)
{
	sched_init_cpu(0, current);
}

static bool cpu_allowed(const struct task *t, int cpu)
{
	return (t->cpus_allowed >> cpu) & 1;
}

/* A task is queued only on the queue its t->cpu names (switch_to relies
 * on it), and only where it may run (schedule() relies on that). (Its
 * mask may change while it is queued: sched_set_allowed then moves it at
 * once, or, if it is running, its next schedule() does.) */
static void enqueue(struct rq *rq, struct task *t)
{
	ASSERT(t->cpu == rq->cpu && cpu_allowed(t, rq->cpu));
	/* At the back; a seed's other order puts it in front of the first
	 * (kernel/chaos.h). */
	list_add_tail(&t->run_link, chaos_wake_first() ? rq->queue.next : &rq->queue);
	t->on_rq = true;
	rq->nr_running++;
}

static void dequeue(struct rq *rq, struct task *t)
{
	list_del(&t->run_link);
	t->on_rq = false;
	rq->nr_running--;
}

uint32_t sched_online_mask(void)
{
	uint32_t m = 0;

	for (int i = 0; i < NR_CPUS; i++)
		if (cpus[i].started)
			m |= 1u << i;
	return m;
}

/* The least loaded started CPU that t may use, preferring this one on a
 * tie. (nr_running is read without the queues' locks: a hint.) */
static int pick_cpu(const struct task *t)
{
	int self = current_thread_info()->cpu, best = -1;
	int n = __atomic_load_n(&ncpus, __ATOMIC_ACQUIRE);

	if (cpu_allowed(t, self))
		best = self;
	/* Started CPUs are cpus[0 .. ncpus-1] (arch/i386/smp.c): no need
	 * to look at the NR_CPUS - ncpus that never came up. */
	for (int i = 0; i < n; i++)
		if (cpus[i].started && cpu_allowed(t, i) &&
		    (best < 0 || rqs[i].nr_running < rqs[best].nr_running))
			best = i;
	/* sched_setaffinity refuses a mask without an online CPU. */
	ASSERT(best >= 0);
	return best;
}

/* Both queues' locks, lower index first (one lock when a == b). */
static uint32_t double_rq_lock(struct rq *a, struct rq *b)
{
	uint32_t flags = spin_lock_irqsave(&(a < b ? a : b)->lock);

	if (a != b)
		spin_lock(&(a < b ? b : a)->lock);
	return flags;
}

static void double_rq_unlock(struct rq *a, struct rq *b, uint32_t flags)
{
	if (a != b)
		spin_unlock(&(a < b ? b : a)->lock);
	spin_unlock_irqrestore(&(a < b ? a : b)->lock, flags);
}

/* Puts t, runnable but on no queue (t->migrating), on the queue of an
 * allowed CPU. Its mask may change meanwhile (sched_set_allowed holds the
 * lock of t->cpu's queue to change it), hence the check with both locks. */
static void migrate_push(struct task *t)
{
	for (;;) {
		struct rq *src = &rqs[t->cpu], *dst = &rqs[pick_cpu(t)];
		uint32_t flags = double_rq_lock(src, dst);

		ASSERT(t->migrating && !t->on_rq);
		if (src == &rqs[t->cpu] && cpu_allowed(t, dst->cpu)) {
			t->migrating = false;
			TRACE(TR_MIGRATE, (uint32_t)t->tid, (uint32_t)t->cpu, (uint32_t)(dst - rqs), 0, 0);
			t->cpu = dst->cpu;
			enqueue(dst, t);
			kick(dst);
			double_rq_unlock(src, dst, flags);
			return;
		}
		double_rq_unlock(src, dst, flags);
	}
}

void sched_set_allowed(struct task *t, uint32_t mask)
{
	uint32_t flags;
	struct rq *rq = task_rq_lock(t, &flags);
	int cpu = rq->cpu;

	ASSERT(mask & sched_online_mask());
	t->cpus_allowed = mask;
	if (cpu_allowed(t, cpu) || t->migrating) {
		/* Nothing to move (migrate_push reads the new mask). */
	} else if (t->on_cpu) {
		/* Running there (or just switching away): its schedule()
		 * moves it; make that soon, by IPI if it is another CPU. */
		kick(rq);
	} else if (t->on_rq) {
		dequeue(rq, t);
		t->migrating = true;
		spin_unlock_irqrestore(&rq->lock, flags);
		migrate_push(t);
		return;
	} else if (t->state == TASK_INTERRUPTIBLE || t->state == TASK_UNINTERRUPTIBLE ||
		   t->state == TASK_STOPPED) {
		t->cpu = pick_cpu(t);   /* it wakes up there */
	}
	spin_unlock_irqrestore(&rq->lock, flags);
}

void sched_add(struct task *t)
{
	struct rq *rq;
	uint32_t flags;

	t->cpu = pick_cpu(t);
	rq = &rqs[t->cpu];
	flags = spin_lock_irqsave(&rq->lock);
	t->state = TASK_RUNNING;
	enqueue(rq, t);
	kick(rq);
	spin_unlock_irqrestore(&rq->lock, flags);
}

static bool try_wake(struct task *t, bool stopped)
{
	uint32_t flags;
	struct rq *rq = task_rq_lock(t, &flags);
	bool woke = false;

	if (stopped ? t->state == TASK_STOPPED :
	    t->state == TASK_INTERRUPTIBLE || t->state == TASK_UNINTERRUPTIBLE) {
		t->state = TASK_RUNNING;
		if (!t->on_rq && t != rq->idle)
			enqueue(rq, t);
		kick(rq);
		woke = true;
	}
	spin_unlock_irqrestore(&rq->lock, flags);
	return woke;
}

bool wake_up_task(struct task *t)
{
	return try_wake(t, false);
}

bool wake_up_stopped(struct task *t)
{
	return try_wake(t, true);
}

/* Called by an idle CPU: take one waiting (queued, not running) task from
 * the busiest other queue. Both locks, lower index first: no deadlock. */
static void sched_balance(void)
{
	int self = current_thread_info()->cpu, busiest = -1;
	struct rq *src, *dst = &rqs[self], *first, *second;
	struct list *pos;
	uint32_t flags;

	for (int i = 0; i < NR_CPUS; i++)
		if (i != self && cpus[i].started && rqs[i].nr_running >= 2 &&
		    (busiest < 0 || rqs[i].nr_running > rqs[busiest].nr_running))
			busiest = i;
	if (busiest < 0)
		return;
	src = &rqs[busiest];
	first = src < dst ? src : dst;
	second = src < dst ? dst : src;
	flags = spin_lock_irqsave(&first->lock);
	spin_lock(&second->lock);
	list_for_each(pos, &src->queue) {
		struct task *t = list_entry(pos, struct task, run_link);
		if (t->on_cpu || t == src->curr || !cpu_allowed(t, self))
			continue;
		dequeue(src, t);
		TRACE(TR_MIGRATE, (uint32_t)t->tid, (uint32_t)busiest, (uint32_t)self, 0, 0);
		t->cpu = self;
		enqueue(dst, t);
		sched_need_resched[self] = true;
		break;
	}
	spin_unlock(&second->lock);
	spin_unlock_irqrestore(&first->lock, flags);
}

/* The checks schedule() relies on, each panicking with its name. */
static void schedule_checks(struct task *prev)
{
	struct thread_info *ti = current_thread_info();

	if (ti->preempt_count != 0)
		panic("schedule: called while atomic (preempt_count %d) by %s",
		      ti->preempt_count, prev->comm);
	/* The last lock taken is released when locks were let go out of
	 * order: then the report cannot say which one is held. */
	if (spin_depth[ti->cpu].count != 0)
		panic("schedule: sleeping with spinlock '%s' held (%d held) by %s (tid %d)",
		      spin_held(spin_depth[ti->cpu].last) ? spin_depth[ti->cpu].last->name : "?",
		      spin_depth[ti->cpu].count, prev->comm,
		      prev->tid);
	if (ti->magic != THREAD_INFO_MAGIC)
		panic("schedule: kernel stack of %s overflowed (thread_info magic %#x)",
		      prev->comm, ti->magic);
	if (ti->task != prev)
		panic("schedule: thread_info names another task");
}

/* What must hold at the switch itself, as xv6's sched() checks it (there:
 * holding(&p->lock), noff == 1, state != RUNNING, !intr_get()): this
 * CPU holds its run-queue lock and no other spinlock (the next task
 * releases that one in finish_task_switch, and could not release any
 * other), interrupts are off (a tick in between would find the queue
 * locked); prev, if it is leaving the queue to sleep or die, is no longer
 * TASK_RUNNING (or nobody would ever queue it again); next is running on
 * no CPU (its old CPU finished switching away from it:
 * finish_task_switch).
 *
 * xv6's sched() checks them because its callers made them true. Here
 * schedule() makes the first three itself, a few lines above: it found
 * no lock held (schedule_checks), took this one with interrupts off, and
 * took prev off the queue only for a state other than TASK_RUNNING (or to
 * migrate it); checking that again would test those lines, not the
 * kernel. What schedule() cannot see is the other CPUs: next may still
 * be on its way off the CPU it last ran on, so that is what is checked,
 * with interrupts, which the switch's correctness hangs on. These hold
 * for the task that starts on the other side too: switch_to changes
 * neither locks nor EFLAGS.IF, so finish_task_switch relies on them
 * unchecked. */
static void switch_checks(struct task *next)
{
	ASSERT(irqs_disabled());
	ASSERT(!next->on_cpu);
}

/* The first thing a task does when it (re)starts running: the task we
 * switched away from is now truly off this CPU (its registers are saved),
 * so its on_cpu can drop: wait4 and the task cache wait for that before
 * they free a task. Then the run-queue lock schedule() took is released.
 * Inline in schedule(); new tasks call the out-of-line finish_task_switch
 * below (arch/i386/task_entry.S). */
static inline void finish_switch(struct rq *rq)
{
	struct task *prev = rq->prev, *push = NULL;

	/* schedule() left the lock held and interrupts off for us
	 * (switch_checks), and set rq->prev: every task starts running
	 * here, or in ret_from_fork or kthread_start, only through a
	 * switch. (The boot task and the idle tasks start otherwise, and
	 * do not come here.) */

	/* Affinity: schedule() took prev off this queue because it may no
	 * longer run here (migrating); or it went to sleep (or stopped) here
	 * and must wake up on a CPU it may use: its t->cpu changes now, while
	 * it is on no queue and not yet off this CPU (the rule at the top of
	 * this file). A yield, neither, pays two compares. */
	if (prev->migrating)
		push = prev;
	else if (prev->state != TASK_RUNNING && !cpu_allowed(prev, rq->cpu) &&
		 prev->state != TASK_ZOMBIE && prev->state != TASK_DEAD)
		prev->cpu = pick_cpu(prev);
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	spin_unlock(&rq->lock);
	local_irq_enable();
	if (push)
		migrate_push(push);
}

void finish_task_switch(void)
{
	finish_switch(this_rq());
}

void schedule(void)
{
	struct task *prev = current, *next;
	struct rq *rq;

	schedule_checks(prev);
	local_irq_disable();
	rq = this_rq();
	spin_lock(&rq->lock);
	sched_need_resched[rq->cpu] = false;

	if (prev != rq->idle) {
		if (prev->state == TASK_INTERRUPTIBLE && signal_pending(prev))
			prev->state = TASK_RUNNING;
		if (prev->state != TASK_RUNNING) {
			if (prev->on_rq)
				dequeue(rq, prev);
		} else if (prev->on_rq) {
			if (cpu_allowed(prev, rq->cpu)) {
				list_del(&prev->run_link);  /* to the back */
				list_add_tail(&prev->run_link, &rq->queue);
			} else {
				/* sched_setaffinity took this CPU away: off
				 * this queue; finish_task_switch pushes it
				 * elsewhere. */
				dequeue(rq, prev);
				prev->migrating = true;
			}
		}
	}
	/* Every queued task may run on this CPU (enqueue asserts it), but
	 * for prev, dealt with just above. */
	next = list_empty(&rq->queue) ? rq->idle
		: list_first_entry(&rq->queue, struct task, run_link);

	if (next == prev) {
		spin_unlock(&rq->lock);
		local_irq_enable();
		/* Nobody else to run here: a task that yields in a loop is
		 * spinning, so say so, as a spin-wait does (a hyperthread
		 * sibling gets the core; QEMU's round-robin -icount gives the
		 * other vCPUs their turn, which such a loop otherwise keeps:
		 * docs/benchmarks.md, "Why round-robin icount repeats"). */
		cpu_relax();
		return;
	}
	switch_checks(next);
	rq->switches++;
	rq->prev = prev;
	rq->curr = next;
	next->on_cpu = true;
	TRACE_SWITCH(prev, next);
	/* switch_to returns when some CPU switches back to prev; the run
	 * queue lock is then released by finish_task_switch. */
	switch_to(prev, next);
	finish_switch(this_rq());
}


void sched_tick(void)
{
	struct rq *rq = this_rq();

	/* A time slice is one tick: ask for a switch if anyone else waits. */
	if (rq->nr_running > 1 || (current == rq->idle && rq->nr_running > 0))
		sched_need_resched[rq->cpu] = true;
}

void cpu_idle(void)
{
	for (;;) {
		if (this_rq()->nr_running == 0)
			sched_balance();
		local_irq_disable();
		if (this_rq()->nr_running > 0) {
			local_irq_enable();
			schedule();
			continue;
		}
		safe_halt();
	}
}

/* ---- wait queues ---- */

void waitqueue_init(struct waitqueue *wq, const char *name)
{
	wq->lock = (struct spinlock)SPINLOCK_INIT(name);
	list_init(&wq->waiters);
}

void prepare_to_wait(struct waitqueue *wq, struct waiter *w, int state)
{
	uint32_t flags = spin_lock_irqsave(&wq->lock);

	w->task = current;
	if (list_empty(&w->link))
		list_add_tail(&w->link, &wq->waiters);
	current->state = (enum task_state)state;
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct waitqueue *wq, struct waiter *w)
{
	uint32_t flags;

	current->state = TASK_RUNNING;
	flags = spin_lock_irqsave(&wq->lock);
	list_del(&w->link);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int wake_up_n(struct waitqueue *wq, int n)
{
	uint32_t flags = spin_lock_irqsave(&wq->lock);
	struct list *pos, *tmp;
	int woken = 0;

	list_for_each_safe(pos, tmp, &wq->waiters) {
		struct waiter *w = list_entry(pos, struct waiter, link);
		if (n >= 0 && woken >= n)
			break;
		/* Off the queue now, so a second wake-up counts someone else. */
		list_del(&w->link);
		if (wake_up_task(w->task))
			woken++;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	return woken;
}

/* ---- timed sleep ---- */

uint64_t schedule_timeout(uint64_t ns)
{
	struct task *t = current;
	uint64_t now = clock_ns(), deadline = now + ns;
	uint32_t flags;

	if (deadline < now)
		deadline = UINT64_MAX;
	flags = spin_lock_irqsave(&timer_lock);
	t->wake_ns = deadline;
	list_add_tail(&t->timer_link, &timer_list);
	spin_unlock_irqrestore(&timer_lock, flags);

	schedule();

	flags = spin_lock_irqsave(&timer_lock);
	list_del(&t->timer_link);
	t->wake_ns = 0;
	spin_unlock_irqrestore(&timer_lock, flags);
	now = clock_ns();
	return now >= deadline ? 0 : deadline - now;
}

void timers_run(void)
{
	uint64_t now = clock_ns();
	struct list *pos;

	spin_lock(&timer_lock);
	list_for_each(pos, &timer_list) {
		struct task *t = list_entry(pos, struct task, timer_link);
		if (t->wake_ns && t->wake_ns <= now)
			wake_up_task(t);
	}
	spin_unlock(&timer_lock);
	linux_timers_run();
}

uint64_t sched_switches(int cpu)
{
	return rqs[cpu].switches;
}

int sched_nr_running(int cpu)
{
	return rqs[cpu].nr_running;
}
