/* kernel/signal.c - sending, blocking and delivering signals (signal.h).
 * The system calls are in kernel/signal_syscalls.c, the handler's frame
 * and rt_sigreturn in arch/i386/signal_frame.c.
 *
 * The shape is Linux 2.6's kernel/signal.c, cut down to what abi.md
 * section 7 asks: a pending set is a bit mask with a few siginfo slots
 * (a second standard signal merges with the first, whose siginfo is
 * kept), job control in compat/linux/jobctl.c. A sleeping call interrupted by
 * a signal returns -EINTR or is made again, as Linux decides it
 * (SA_RESTART, compat/linux/restart.h).
 *
 * The life of a signal:
 *   send:    kill/tgkill/a fault/an exiting child sets a bit in a pending
 *            set - the task's own (tgkill, faults) or the group's
 *            (sighand->shared_pending: kill) - and keeps its siginfo,
 *            unless the signal is ignored, and wakes or interrupts a task
 *            that will take it (signal_wake);
 *   notice:  signal_pending() says "a set bit is not blocked"; sleeping
 *            calls then return -EINTR or a restart code (restart.h). A
 *            signal for the task alone also sets its tif_sigpending flag
 *            (Linux's TIF_SIGPENDING, task.h); a return to user mode that
 *            finds the flag set or the group's set not empty
 *            (arch/i386/trap.c return_to_user_prepare) reads the sets and
 *            calls do_signal;
 *   deliver: do_signal takes the bit and its siginfo off and ignores it,
 *            ends the thread group (the default action of most signals),
 *            or builds a handler frame on the user stack
 *            (arch/i386/signal_frame.c); the handler returns through
 *            rt_sigreturn. */
#include "kernel/signal.h"
#include "kernel/panic.h"
#include "kernel/exit.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "arch/i386/irqflags.h"
#include "arch/i386/signal_frame.h"
#include "arch/i386/trapframe.h"

/* ---- siginfo slots (signal.h) ---- */

/* Keeps info for a signal about to be set in set (its bit is clear).
 * Stale slots are freed first, so no old slot can come back to life with
 * the bit. No free slot: the information is lost, not the signal. */
static void sigpending_save(struct sigpending *set, const struct ksiginfo *info)
{
	struct ksiginfo *free = NULL;

	for (int i = 0; i < SIGQUEUE_SLOTS; i++) {
		struct ksiginfo *s = &set->slots[i];
		if (s->signo && !(set->signals & SIGMASK(s->signo)))
			s->signo = 0;
		if (!s->signo && !free)
			free = s;
	}
	if (free)
		*free = *info;
}

/* Takes sig (pending in set) off, with its siginfo. No slot: Linux's
 * collect_signal answers SI_USER from pid 0 ("we must have been out of
 * queue space"). */
static void sigpending_collect(struct sigpending *set, int sig, struct ksiginfo *info)
{
	*info = (struct ksiginfo){ .signo = sig, .code = SI_USER };
	for (int i = 0; i < SIGQUEUE_SLOTS; i++) {
		if (set->slots[i].signo == sig) {
			*info = set->slots[i];
			set->slots[i].signo = 0;
			break;
		}
	}
	set->signals &= ~SIGMASK(sig);
}

/* ---- taking pending signals (do_signal and rt_sigtimedwait) ---- */

/* The lowest-numbered signal of a non-empty set (bit sig-1), one 32-bit
 * half at a time: no libgcc call for a 64-bit count. */
static int lowest_signal(uint64_t set)
{
	uint32_t lo = (uint32_t)set;

	return lo ? __builtin_ctz(lo) + 1 : __builtin_ctz((uint32_t)(set >> 32)) + 33;
}

/* Takes the next signal to deliver off its set, with its siginfo, or
 * returns 0. SIGKILL first: when a group is being torn down
 * (do_group_exit sends it to every other thread) no handler should run
 * before it. Then, as Linux's dequeue_signal, the task's own set before
 * the group's, lowest number first. sighand->lock held. */
int dequeue_signal_locked(struct task *t, struct sighand *sh,
			  uint64_t allowed, struct ksiginfo *info)
{
	struct sigpending *sets[2] = { &t->pending, &sh->shared_pending };

	ASSERT(spin_held(&sh->lock));
	for (int i = 0; i < 2; i++) {
		if (sets[i]->signals & allowed & SIGMASK(SIGKILL)) {
			sigpending_collect(sets[i], SIGKILL, info);
			return SIGKILL;
		}
	}
	for (int i = 0; i < 2; i++) {
		uint64_t ready = sets[i]->signals & allowed;
		if (ready) {
			int sig = lowest_signal(ready);
			sigpending_collect(sets[i], sig, info);
			return sig;
		}
	}
	return 0;
}

/* ---- actions ---- */

/* Signals whose default action is to do nothing: Linux's
 * SIG_KERNEL_IGNORE_MASK (SIGCHLD, SIGCONT, SIGURG, SIGWINCH); SIGCONT's
 * work is done when it is sent (compat/linux/jobctl.c). The four stop signals
 * stop the group (jobctl_do_stop). Every other signal's default ends the
 * thread group (sig_kernel_only/coredump alike: no core files here). */
#define SIG_DEFAULT_IGNORE (SIGMASK(SIGCHLD) | SIGMASK(SIGCONT) | \
	SIGMASK(SIGURG) | SIGMASK(SIGWINCH))

static bool action_ignores(const struct k_sigaction *ka, int sig)
{
	return ka->handler == SIG_IGN ||
	       (ka->handler == SIG_DFL && (SIG_DEFAULT_IGNORE & SIGMASK(sig)));
}

static bool task_alive(const struct task *t)
{
	return t->state != TASK_ZOMBIE && t->state != TASK_DEAD;
}

void signal_install_action(int sig, const struct k_sigaction *act,
			   struct k_sigaction *replaced)
{
	struct task *self = current, *t = self;
	struct sighand *sh = self->sighand;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	spin_lock(&sh->lock);
	*replaced = sh->action[sig - 1];
	sh->action[sig - 1] = *act;
	/* POSIX: making a pending signal ignored discards it, blocked or
	 * not (Linux's rm_from_queue_full over the group). Its siginfo slot
	 * goes stale with the bit (signal.h). */
	if (action_ignores(act, sig)) {
		sh->shared_pending.signals &= ~SIGMASK(sig);
		do {
			if (t->sighand == sh)
				t->pending.signals &= ~SIGMASK(sig);
			t = list_entry(t->thread_group.next, struct task, thread_group);
		} while (t != self);
	}
	spin_unlock(&sh->lock);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* ---- sending ---- */

/* Makes t notice a signal that it does not block, as Linux's
 * signal_wake_up: a task asleep in TASK_INTERRUPTIBLE is woken (its call
 * returns -EINTR). One running on another CPU gets a reschedule IPI
 * (Linux's kick_process): the interrupt brings it into the kernel, and
 * if it was in user mode, the return path (return_to_user_prepare) finds
 * the signal and delivers it then, not at that CPU's next tick. One in
 * the kernel there sees it on its way out anyway; the IPI costs it
 * nothing more. TASK_UNINTERRUPTIBLE sleepers are left alone.
 *
 * No lost wake-up: a task going to sleep stores its state, then reads
 * signal_pending() in schedule() under the run-queue lock (after that
 * lock's xchg, a full barrier). We stored the pending bit, then read its
 * state. x86 may let a load pass an older store (SDM Vol. 3A 8.2.3.4),
 * so the fence puts our store first; then at least one side sees the
 * other's store, and wake_up_task() rechecks the state under the lock.
 * (Between our read and wake_up_task() the task could go back to sleep
 * uninterruptibly and get a spurious wake-up; sched.h has no
 * wake-up-if-still-interruptible call to close that window.)
 *
 * The kick reads on_cpu and cpu without a lock, as Linux's task_curr:
 * the pending bit is already visible (the fence), so a task that stops
 * running after our read finds it in its own return path, and an IPI
 * that reaches a CPU it has just left is harmless (the handler only
 * EOIs; trap.c). The IPI is sent after the fence and the store it
 * orders: the interrupt cannot overtake the bit (SDM Vol. 3A 10.6: the
 * ICR write that sends it is itself a store, in order with ours). */
void signal_wake(struct task *t)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (t->state == TASK_INTERRUPTIBLE && wake_up_task(t))
		return;
	if (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE)) {
		int cpu = __atomic_load_n(&t->cpu, __ATOMIC_RELAXED);
		if (cpu != current_thread_info()->cpu)
			arch_send_reschedule(cpu);
	}
}

/* Linux's SIGNAL_UNKILLABLE (sig_task_ignored): pid 1's group takes
 * only the signals it has asked for. A signal whose action there is
 * SIG_DFL, SIGKILL included (as Linux, for init seen from its own pid
 * namespace), is dropped when it comes from user space (kill, tgkill) or
 * is a child's exit signal: otherwise any process could end the system,
 * by kill(1, SIGTERM) or by exiting with CSIGNAL = SIGKILL. What the
 * kernel itself sends init - a fault's forced signal, the SIGKILL of its
 * own exit_group or execve - is not filtered: init may still die of its
 * own bug, and the machine then powers off (abi.md section 1). */
bool signal_init_ignores(struct task *t, int sig)
{
	struct sighand *sh = t->sighand;
	uint32_t flags;
	bool dfl;

	if (t->tgid != 1 || !sh || sig < 1 || sig > SIG_MAX)
		return false;
	/* As Linux's sig_ignored: a blocked signal is never ignored, init's
	 * included - it may be waiting for it (sigtimedwait, sigsuspend). */
	if (t->blocked & SIGMASK(sig))
		return false;
	flags = spin_lock_irqsave(&sh->lock);
	dfl = sh->action[sig - 1].handler == SIG_DFL;
	spin_unlock_irqrestore(&sh->lock, flags);
	return dfl;
}

/* Sets info's signal in set for t, with its siginfo; false if there is
 * nothing to tell anyone. sighand->lock held. An ignored signal is dropped
 * unless t blocks it (its action may change first: Linux's sig_ignored);
 * one already pending merges, keeping its first siginfo (legacy_queue). */
static bool queue_signal_locked(struct sighand *sh, struct sigpending *set,
				struct task *t, const struct ksiginfo *info)
{
	int sig = info->signo;
	uint64_t m = SIGMASK(sig);

	ASSERT(spin_held(&sh->lock));
	if (!(t->blocked & m) && action_ignores(&sh->action[sig - 1], sig))
		return false;
	if (set->signals & m)
		return false;
	sigpending_save(set, info);
	set->signals |= m;
	if (set == &t->pending)
		set_tif_sigpending(t);  /* the group's set needs none */
	return true;
}

int send_signal_task_info(struct task *t, const struct ksiginfo *info)
{
	struct sighand *sh = t->sighand;
	int sig = info->signo;
	uint32_t flags;
	bool wake;

	ASSERT(t == current || spin_held(&tasklist_lock));
	if (sig < 1 || sig > SIG_MAX || !sh)
		return 0;
	flags = spin_lock_irqsave(&sh->lock);
	linux_signal_prepare_locked(t, sh, sig);
	wake = queue_signal_locked(sh, &t->pending, t, info) && !(t->blocked & SIGMASK(sig));
	/* A stopped thread wakes for SIGKILL whatever its group's stop
	 * state says (jobctl_stop_self then sees the signal and lets go):
	 * the fuzzer left a stopped task that a SIGKILL did not wake. */
	if (sig == SIGKILL)
		wake_up_stopped(t);
	spin_unlock_irqrestore(&sh->lock, flags);
	if (wake)
		signal_wake(t);
	return 0;
}

/* A task that can take sig now: alive, not blocking it, and not stuck in
 * an uninterruptible sleep. sighand->lock held (for t->blocked). */
static bool wants_signal(const struct task *t, const struct sighand *sh, int sig)
{
	ASSERT(spin_held(&sh->lock));
	return t->sighand == sh && task_alive(t) && !(t->blocked & SIGMASK(sig)) &&
	       t->state != TASK_UNINTERRUPTIBLE;
}

int send_signal_group_info(struct task *g, const struct ksiginfo *info)
{
	struct task *t = g, *target = NULL;
	struct sighand *sh = NULL;
	int sig = info->signo;
	uint32_t flags;

	ASSERT(spin_held(&tasklist_lock));
	if (sig < 1 || sig > SIG_MAX)
		return 0;
	/* The group's sighand, from a member that still has one (a zombie
	 * leader may outlive its sighand's last live user in principle). */
	do {
		if (t->sighand && t->state != TASK_DEAD) {
			sh = t->sighand;
			break;
		}
		t = list_entry(t->thread_group.next, struct task, thread_group);
	} while (t != g);
	if (!sh)
		return 0;               /* a dead group: Linux also says 0 */

	flags = spin_lock_irqsave(&sh->lock);
	linux_signal_prepare_locked(t, sh, sig);
	if (sig == SIGKILL) {
		/* Linux's complete_signal for a fatal signal: into every
		 * thread's own set. sh->shared_pending is also a CLONE_SIGHAND
		 * partner process's (signal.h): one could take the SIGKILL
		 * meant for this group there, and a thread of ours that was
		 * stopped would then find none and stay stopped for ever
		 * (jobctl_stop_self; the fuzzer found it). Woken under the
		 * lock: the order is sighand->lock, then a run-queue lock. */
		struct task *o = g;
		do {
			if (o->sighand == sh && task_alive(o)) {
				if (queue_signal_locked(sh, &o->pending, o, info))
					signal_wake(o);
				wake_up_stopped(o);     /* to die: jobctl_stop_self */
			}
			o = list_entry(o->thread_group.next, struct task, thread_group);
		} while (o != g);
	} else if (queue_signal_locked(sh, &sh->shared_pending, t, info)) {
		/* Linux's complete_signal: g itself if it can take the
		 * signal, else the first thread of the group that can. If
		 * none can, it waits, pending, until one unblocks it. */
		t = g;
		do {
			if (wants_signal(t, sh, sig)) {
				target = t;
				break;
			}
			t = list_entry(t->thread_group.next, struct task, thread_group);
		} while (t != g);
	}
	spin_unlock_irqrestore(&sh->lock, flags);
	if (target)
		signal_wake(target);
	return 0;
}

void force_signal_info(struct task *t, const struct ksiginfo *info)
{
	struct sighand *sh = t->sighand;
	int sig = info->signo;
	struct k_sigaction *ka;
	uint32_t flags;

	if (!sh || sig < 1 || sig > SIG_MAX)
		return;
	/* Linux's force_sig_info: a fault that is blocked or ignored would
	 * return to the same instruction and fault forever, so the signal
	 * goes back to SIG_DFL and is unblocked: the task dies of it. If the
	 * signal is pending already, that one's siginfo stays (as
	 * send_signal: the first of a standard signal wins). */
	flags = spin_lock_irqsave(&sh->lock);
	ka = &sh->action[sig - 1];
	if (ka->handler == SIG_IGN || (t->blocked & SIGMASK(sig))) {
		ka->handler = SIG_DFL;
		t->blocked &= ~SIGMASK(sig);
	}
	if (!(t->pending.signals & SIGMASK(sig))) {
		sigpending_save(&t->pending, info);
		t->pending.signals |= SIGMASK(sig);
	}
	set_tif_sigpending(t);
	spin_unlock_irqrestore(&sh->lock, flags);
	signal_wake(t);
}

void force_signal(struct task *t, int sig)
{
	struct ksiginfo info = { .signo = sig, .code = SI_KERNEL };

	force_signal_info(t, &info);
}

/* A signal frame could not be written or read back: SIGSEGV for current,
 * with SIGSEGV's own handler reset first if sig was SIGSEGV (so a bad
 * stack ends the task instead of looping; Linux's force_sigsegv). */
static void force_sigsegv(int sig)
{
	struct task *t = current;
	uint32_t flags;

	if (sig == SIGSEGV && t->sighand) {
		flags = spin_lock_irqsave(&t->sighand->lock);
		t->sighand->action[SIGSEGV - 1].handler = SIG_DFL;
		spin_unlock_irqrestore(&t->sighand->lock, flags);
	}
	force_signal(t, SIGSEGV);
}

/* ---- delivery ---- */

void signal_set_blocked(uint64_t mask)
{
	struct task *t = current;
	uint32_t flags;

	/* Only a task in a system call sets its mask, and every user task
	 * has a sighand (init.c, fork.c); kernel threads make no calls. */
	flags = spin_lock_irqsave(&t->sighand->lock);
	t->blocked = mask & ~SIG_UNBLOCKABLE;
	/* Linux's recalc_sigpending: if a signal this unblocks is pending,
	 * signal_pending() flags the return path to look (task.h). */
	(void)signal_pending(t);
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

/* For the line a fatal fault prints (do_signal). */
static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGBUS: return "SIGBUS";
	case SIGTRAP: return "SIGTRAP";
	default: return "signal";
	}
}

void do_signal(struct trapframe *tf)
{
	struct task *t = current;
	struct sighand *sh = t->sighand;
	struct k_sigaction ka;
	struct ksiginfo info;
	uint64_t oldmask, mask;
	uint32_t flags;
	bool restore;
	int sig;

	if (!sh) {
		/* A kernel thread: nothing to deliver, and no mask to put
		 * back (return_to_user_prepare must not come again for it). */
		linux_saved_sigmask_take(t, &oldmask);
		return;
	}
	/* Writing the frame may fault and allocate (demand paging of the
	 * stack): interrupts on. No lock is held on the way to user mode. */
	local_irq_enable();
	linux_signal_stop_point();      /* the group is stopping? */
	flags = spin_lock_irqsave(&sh->lock);
	sig = dequeue_signal_locked(t, sh, ~t->blocked, &info);
	linux_signal_dequeued_locked(t, sig);
	/* After rt_sigsuspend the frame saves the mask from before it. */
	oldmask = t->blocked;
	restore = linux_saved_sigmask_take(t, &oldmask);
	if (!sig) {
		/* Another thread took the group's signal first. */
		t->blocked = oldmask & ~SIG_UNBLOCKABLE;
		spin_unlock_irqrestore(&sh->lock, flags);
		return;
	}
	ka = sh->action[sig - 1];
	if (ka.handler != SIG_DFL && ka.handler != SIG_IGN && (ka.flags & SA_RESETHAND))
		sh->action[sig - 1].handler = SIG_DFL;      /* SA_ONESHOT */
	spin_unlock_irqrestore(&sh->lock, flags);

	/* A stop signal's default stops the group: job control, which is
	 * the Linux layer's (linux_do_stop); the seed kernel has none and
	 * the signal does nothing there. */
	if (action_ignores(&ka, sig) || (ka.handler == SIG_DFL && sig_is_stop(sig))) {
		signal_set_blocked(oldmask);
		if (ka.handler == SIG_DFL && sig_is_stop(sig))
			linux_do_stop(sig);
		return;
	}
	if (ka.handler == SIG_DFL) {
		/* A fault that kills is reported, one line, as Linux's
		 * show_signal_msg does for an unhandled SIGSEGV; tf still
		 * holds the faulting instruction. addr is si_addr. */
		if (info.fault)
			kprintf("pid %d (%s): %s at eip=0x%08x addr=0x%08x\n", t->tgid, t->comm,
				signal_name(sig), tf->eip, info.addr);
		/* The wait status of a task killed by a signal is the signal
		 * number (abi.md section 3; no core dump bit). */
		do_group_exit(sig);
	}
	/* A call this signal interrupted returns -EINTR to the handler's
	 * caller, or is made again after it (compat/linux/restart.h); decided
	 * before the frame saves %eax and %eip. */
	linux_restart_for_handler(tf, ka.flags & SA_RESTART);
	/* Linux: a handler without SA_SIGINFO gets the old frame (and
	 * returns through sigreturn, 119); Spindle's own programs always
	 * get the rt frame (abi.md section 7). */
	if ((linux_personality(t) && !(ka.flags & SA_SIGINFO) ?
	     linux_setup_frame(&info, &ka, oldmask, tf) :
	     setup_rt_frame(&info, &ka, oldmask, tf)) < 0) {
		kprintf("pid %d (%s): cannot write the frame of signal %d at esp=0x%08x: SIGSEGV\n",
			t->tgid, t->comm, sig, tf->esp);
		/* No frame saved the caller's mask: it is still to be put
		 * back, by the SIGSEGV handler's frame if there is one
		 * (Linux leaves TIF_RESTORE_SIGMASK set here too). */
		if (restore)
			linux_saved_sigmask_keep(t);
		force_sigsegv(sig);
		return;
	}
	/* Linux's handle_signal: sa_mask, and sig itself unless SA_NODEFER,
	 * are blocked while the handler runs; rt_sigreturn puts oldmask
	 * back from the frame. */
	mask = sigaction_mask(&ka);
	if (!(ka.flags & SA_NODEFER))
		mask |= SIGMASK(sig);
	signal_set_blocked(t->blocked | mask);
}
