/* kernel/signal.c - sending, blocking and delivering signals (signal.h).
 *
 * The shape is Linux 2.6's kernel/signal.c, cut down to what abi.md
 * section 7 asks: no queued siginfo (a pending set is a bit mask, so a
 * second standard signal merges with the first), no job control, no
 * sigaltstack, no SA_RESTART (an interrupted call returns -EINTR).
 *
 * The life of a signal:
 *   send:    kill/tgkill/a fault/an exiting child sets a bit in a pending
 *            set - the task's own (tgkill, faults) or the group's
 *            (sighand->shared_pending: kill) - unless the signal is
 *            ignored, and wakes a task that will take it (signal_wake);
 *   notice:  signal_pending() says "a set bit is not blocked"; sleeping
 *            calls then return -EINTR, and every return to user mode
 *            (arch/i386/trap.c return_to_user_prepare) calls do_signal;
 *   deliver: do_signal takes the bit off and ignores it, ends the thread
 *            group (the default action of most signals), or builds a
 *            handler frame on the user stack (arch/i386/signal_frame.c);
 *            the handler returns through rt_sigreturn. */
#include "kernel/signal.h"
#include "kernel/exit.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/signal_frame.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

/* ---- struct sighand: an object cache, made on first use ---- */

static struct objcache sighand_cache;
static bool sighand_cache_ready;
static struct spinlock sighand_cache_lock = SPINLOCK_INIT("sighand cache init");

/* A zeroed sighand (every action SIG_DFL, nothing pending), one user. */
static struct sighand *sighand_alloc(void)
{
	struct sighand *sh;

	if (!__atomic_load_n(&sighand_cache_ready, __ATOMIC_ACQUIRE)) {
		uint32_t flags = spin_lock_irqsave(&sighand_cache_lock);
		if (!sighand_cache_ready) {
			objcache_init(&sighand_cache, "sighand", sizeof(struct sighand), 4);
			__atomic_store_n(&sighand_cache_ready, true, __ATOMIC_RELEASE);
		}
		spin_unlock_irqrestore(&sighand_cache_lock, flags);
	}
	if (!(sh = objcache_alloc(&sighand_cache)))
		return NULL;
	memset(sh, 0, sizeof(*sh));
	sh->refcount = 1;
	sh->lock = (struct spinlock)SPINLOCK_INIT("sighand");
	return sh;
}

struct sighand *sighand_new(void)
{
	return sighand_alloc();
}

struct sighand *sighand_copy(const struct sighand *sh)
{
	struct sighand *n = sighand_alloc();
	struct spinlock *lock = (struct spinlock *)&sh->lock;
	uint32_t flags;

	if (!n)
		return NULL;
	/* Linux's copy_sighand: the actions, not the pending signals (a
	 * child of fork starts with none pending). */
	flags = spin_lock_irqsave(lock);
	memcpy(n->action, sh->action, sizeof(n->action));
	spin_unlock_irqrestore(lock, flags);
	return n;
}

void sighand_put(struct sighand *sh)
{
	if (__atomic_sub_fetch(&sh->refcount, 1, __ATOMIC_SEQ_CST) == 0)
		objcache_free(&sighand_cache, sh);
}

int sighand_unshare(struct task *t)
{
	struct sighand *old = t->sighand, *n;
	uint32_t flags;

	if (!old || __atomic_load_n(&old->refcount, __ATOMIC_SEQ_CST) == 1)
		return 0;
	if (!(n = sighand_alloc()))
		return -ENOMEM;
	/* Senders read t->sighand under tasklist_lock, so the switch is
	 * atomic for them; the old lock keeps the copy whole. What was
	 * pending for the group stays pending (Linux keeps pending signals
	 * across exec); the other sharers keep it too. */
	flags = spin_lock_irqsave(&tasklist_lock);
	spin_lock(&old->lock);
	memcpy(n->action, old->action, sizeof(n->action));
	n->shared_pending = old->shared_pending;
	t->sighand = n;
	spin_unlock(&old->lock);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	sighand_put(old);
	return 0;
}

int signals_exec_reset(struct task *t)
{
	int err = sighand_unshare(t);
	struct sighand *sh = t->sighand;
	uint32_t flags;

	if (!sh)
		return err;
	/* Linux's flush_signal_handlers(t, 0): a handler address means
	 * nothing in the new program; SIG_IGN is kept (that is how nohup
	 * works). If the unshare failed, the shared actions are reset all
	 * the same: a half-reset program would jump to stale addresses. */
	flags = spin_lock_irqsave(&sh->lock);
	for (int i = 0; i < NSIG; i++) {
		struct k_sigaction *ka = &sh->action[i];
		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = 0;
		ka->restorer = NULL;
		ka->mask[0] = ka->mask[1] = 0;
	}
	spin_unlock_irqrestore(&sh->lock, flags);
	return err;
}

/* ---- actions ---- */

/* Signals whose default action is to do nothing: Linux's
 * SIG_KERNEL_IGNORE_MASK (SIGCHLD, SIGCONT, SIGURG, SIGWINCH), plus the
 * four stop signals, whose default (stop the group) needs job control,
 * which Spindle does not have: SIGSTOP is therefore simply dropped. Every
 * other signal's default ends the thread group (sig_kernel_only/coredump
 * alike: no core files here). */
#define SIG_DEFAULT_IGNORE (SIGMASK(SIGCHLD) | SIGMASK(SIGCONT) | \
	SIGMASK(SIGURG) | SIGMASK(SIGWINCH) | SIGMASK(SIGSTOP) | \
	SIGMASK(SIGTSTP) | SIGMASK(SIGTTIN) | SIGMASK(SIGTTOU))

static bool action_ignores(const struct k_sigaction *ka, int sig)
{
	return ka->handler == SIG_IGN ||
	       (ka->handler == SIG_DFL && (SIG_DEFAULT_IGNORE & SIGMASK(sig)));
}

static bool task_alive(const struct task *t)
{
	return t->state != TASK_ZOMBIE && t->state != TASK_DEAD;
}

/* The sets are read without a lock here; each 32-bit half is read in one
 * access, and a bit lives in one half, so every bit seen is either its
 * old or its new value. */
static uint64_t read_set(const uint64_t *set)
{
	return *(const volatile uint64_t *)set;
}

bool signal_pending(struct task *t)
{
	struct sighand *sh = t->sighand;

	uint64_t pending;

	if (!sh)
		return false;           /* kernel threads take no signals */
	pending = read_set(&t->pending.signals) | read_set(&sh->shared_pending.signals);
	return pending && (pending & ~read_set(&t->blocked)) != 0;
}

/* ---- sending ---- */

/* Makes t notice a signal that it does not block. A task asleep in
 * TASK_INTERRUPTIBLE is woken (its call returns -EINTR); a running one
 * sees the signal at its next return to user mode, at most a tick later
 * (Spindle sends no IPI: Linux's kick_process). TASK_UNINTERRUPTIBLE
 * sleepers are left alone.
 *
 * No lost wake-up: a task going to sleep stores its state, then reads
 * signal_pending() in schedule() under the run-queue lock (after that
 * lock's xchg, a full barrier). We stored the pending bit, then read its
 * state. x86 may let a load pass an older store (SDM Vol. 3A 8.2.3.4),
 * so the fence puts our store first; then at least one side sees the
 * other's store, and wake_up_task() rechecks the state under the lock.
 * (Between our read and wake_up_task() the task could go back to sleep
 * uninterruptibly and get a spurious wake-up; sched.h has no
 * wake-up-if-still-interruptible call to close that window.) */
static void signal_wake(struct task *t)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (t->state == TASK_INTERRUPTIBLE)
		wake_up_task(t);
}

/* Sets sig in set for t; false if there is nothing to tell anyone.
 * sighand->lock held. As Linux's sig_ignored: an ignored signal is
 * dropped at once unless t blocks it (the action may change before it is
 * unblocked). A signal already pending merges. */
static bool queue_signal_locked(struct sighand *sh, struct sigpending *set,
				struct task *t, int sig)
{
	uint64_t m = SIGMASK(sig);

	if (!(t->blocked & m) && action_ignores(&sh->action[sig - 1], sig))
		return false;
	if (set->signals & m)
		return false;
	set->signals |= m;
	return true;
}

int send_signal_task(struct task *t, int sig)
{
	struct sighand *sh = t->sighand;
	uint32_t flags;
	bool wake;

	if (sig < 1 || sig > SIG_MAX || !sh)
		return 0;
	flags = spin_lock_irqsave(&sh->lock);
	wake = queue_signal_locked(sh, &t->pending, t, sig) && !(t->blocked & SIGMASK(sig));
	spin_unlock_irqrestore(&sh->lock, flags);
	if (wake)
		signal_wake(t);
	return 0;
}

/* A task that can take sig now: alive, not blocking it, and not stuck in
 * an uninterruptible sleep. sighand->lock held (for t->blocked). */
static bool wants_signal(const struct task *t, const struct sighand *sh, int sig)
{
	return t->sighand == sh && task_alive(t) && !(t->blocked & SIGMASK(sig)) &&
	       t->state != TASK_UNINTERRUPTIBLE;
}

int send_signal_group(struct task *g, int sig)
{
	struct task *t = g, *target = NULL;
	struct sighand *sh = NULL;
	uint32_t flags;

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
	if (queue_signal_locked(sh, &sh->shared_pending, t, sig)) {
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

void force_signal(struct task *t, int sig)
{
	struct sighand *sh = t->sighand;
	struct k_sigaction *ka;
	uint32_t flags;

	if (!sh || sig < 1 || sig > SIG_MAX)
		return;
	/* Linux's force_sig_info: a fault that is blocked or ignored would
	 * return to the same instruction and fault forever, so the signal
	 * goes back to SIG_DFL and is unblocked: the task dies of it. */
	flags = spin_lock_irqsave(&sh->lock);
	ka = &sh->action[sig - 1];
	if (ka->handler == SIG_IGN || (t->blocked & SIGMASK(sig))) {
		ka->handler = SIG_DFL;
		t->blocked &= ~SIGMASK(sig);
	}
	t->pending.signals |= SIGMASK(sig);
	spin_unlock_irqrestore(&sh->lock, flags);
	signal_wake(t);
}

void force_sigsegv(int sig)
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

	if (!t->sighand) {
		t->blocked = mask & ~SIG_UNBLOCKABLE;
		return;
	}
	flags = spin_lock_irqsave(&t->sighand->lock);
	t->blocked = mask & ~SIG_UNBLOCKABLE;
	spin_unlock_irqrestore(&t->sighand->lock, flags);
}

/* The lowest-numbered signal of a non-empty set (bit sig-1), one 32-bit
 * half at a time: no libgcc call for a 64-bit count. */
static int lowest_signal(uint64_t set)
{
	uint32_t lo = (uint32_t)set;

	return lo ? __builtin_ctz(lo) + 1 : __builtin_ctz((uint32_t)(set >> 32)) + 33;
}

/* Takes the next signal to deliver off its set, or returns 0. SIGKILL
 * first: when a group is being torn down (do_group_exit sends it to
 * every other thread) no handler should run before it. Then, as Linux's
 * dequeue_signal, the task's own set before the group's, lowest number
 * first. sighand->lock held. */
static int dequeue_signal_locked(struct task *t, struct sighand *sh)
{
	uint64_t *sets[2] = { &t->pending.signals, &sh->shared_pending.signals };
	uint64_t allowed = ~t->blocked;

	for (int i = 0; i < 2; i++) {
		if (*sets[i] & SIGMASK(SIGKILL)) {
			*sets[i] &= ~SIGMASK(SIGKILL);
			return SIGKILL;
		}
	}
	for (int i = 0; i < 2; i++) {
		uint64_t ready = *sets[i] & allowed;
		if (ready) {
			int sig = lowest_signal(ready);
			*sets[i] &= ~SIGMASK(sig);
			return sig;
		}
	}
	return 0;
}

void do_signal(struct trapframe *tf)
{
	struct task *t = current;
	struct sighand *sh = t->sighand;
	struct k_sigaction ka;
	uint64_t oldmask, mask;
	uint32_t flags;
	int sig;

	if (!sh)
		return;
	/* Writing the frame may fault and allocate (demand paging of the
	 * stack): interrupts on. No lock is held on the way to user mode. */
	sti();
	flags = spin_lock_irqsave(&sh->lock);
	sig = dequeue_signal_locked(t, sh);
	if (!sig) {
		/* Another thread took the group's signal first. */
		spin_unlock_irqrestore(&sh->lock, flags);
		return;
	}
	ka = sh->action[sig - 1];
	if (ka.handler != SIG_DFL && ka.handler != SIG_IGN && (ka.flags & SA_RESETHAND))
		sh->action[sig - 1].handler = SIG_DFL;      /* SA_ONESHOT */
	oldmask = t->blocked;
	spin_unlock_irqrestore(&sh->lock, flags);

	if (action_ignores(&ka, sig))
		return;
	if (ka.handler == SIG_DFL) {
		/* The wait status of a task killed by a signal is the signal
		 * number (abi.md section 3; no core dump bit). */
		do_group_exit(sig);
	}
	if (setup_rt_frame(sig, &ka, oldmask, tf) < 0) {
		kprintf("pid %d (%s): cannot write the frame of signal %d at esp=0x%08x: SIGSEGV\n",
			t->tgid, t->comm, sig, tf->esp);
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

/* ---- system calls ---- */

static bool valid_signal(int sig)
{
	return sig >= 0 && sig <= SIG_MAX;
}

/* Installs act as sig's action, returning the one it replaced. POSIX:
 * making a pending signal ignored discards it, blocked or not (Linux's
 * rm_from_queue_full over the group). */
static void install_action(int sig, const struct k_sigaction *act,
			   struct k_sigaction *replaced)
{
	struct task *self = current, *t = self;
	struct sighand *sh = self->sighand;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	spin_lock(&sh->lock);
	*replaced = sh->action[sig - 1];
	sh->action[sig - 1] = *act;
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

SYSCALL(SYS_rt_sigaction, rt_sigaction)
{
	int sig = (int)arg[0];
	uint32_t uact = arg[1], uoact = arg[2];
	struct sighand *sh = current->sighand;
	struct k_sigaction act, old, replaced;
	uint32_t flags;

	if (arg[3] != sizeof(uint64_t) || sig < 1 || sig > SIG_MAX || !sh)
		return -EINVAL;
	if (uact && (sig == SIGKILL || sig == SIGSTOP))
		return -EINVAL;
	if (uact && copy_from_user(&act, uact, sizeof(act)))
		return -EFAULT;
	/* The old action is written out before the new one is installed,
	 * so a bad oact changes nothing. (Linux 2.6 installs first and may
	 * then fail with -EFAULT having changed the action.) */
	if (uoact) {
		flags = spin_lock_irqsave(&sh->lock);
		old = sh->action[sig - 1];
		spin_unlock_irqrestore(&sh->lock, flags);
		if (copy_to_user(uoact, &old, sizeof(old)))
			return -EFAULT;
	}
	if (uact) {
		/* Linux's do_sigaction: the handler's mask never blocks
		 * SIGKILL or SIGSTOP. */
		act.mask[0] &= ~(unsigned long)SIG_UNBLOCKABLE;
		install_action(sig, &act, &replaced);
		/* Another thread changed it in between: report what was
		 * really replaced (the pointer was just written to). */
		if (uoact && memcmp(&replaced, &old, sizeof(old)) != 0)
			(void)copy_to_user(uoact, &replaced, sizeof(replaced));
	}
	return 0;
}

SYSCALL(SYS_rt_sigprocmask, rt_sigprocmask)
{
	int how = (int)arg[0];
	uint32_t uset = arg[1], uoset = arg[2];
	uint64_t old = current->blocked, set, mask;

	if (arg[3] != sizeof(uint64_t))
		return -EINVAL;
	/* Linux's order: the new mask is in force before oset is written,
	 * and a bad how only matters when there is a set. */
	if (uset) {
		if (copy_from_user(&set, uset, sizeof(set)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:   mask = old | set; break;
		case SIG_UNBLOCK: mask = old & ~set; break;
		case SIG_SETMASK: mask = set; break;
		default:          return -EINVAL;
		}
		signal_set_blocked(mask);
	}
	if (uoset && copy_to_user(uoset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* kill(pid > 0) and kill(0): the group of task `pid` (any of its
 * threads' ids names it, as on Linux). sig 0 only checks that it is
 * there. A zombie is there (Linux answers 0 and sends nothing). */
static long kill_group(int pid, int sig)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct task *t = pid ? task_find(pid) : current;
	long err = 0;

	if (!t || t->state == TASK_DEAD)
		err = -ESRCH;
	else if (sig)
		send_signal_group(t, sig);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

/* The one task of t's group that stands for it in kill(-1): the live
 * member with a sighand and the lowest tid. tasklist_lock held. */
static bool group_representative(struct task *t)
{
	struct task *o = t;

	do {
		if (o != t && o->tid < t->tid && o->sighand && task_alive(o))
			return false;
		o = list_entry(o->thread_group.next, struct task, thread_group);
	} while (o != t);
	return true;
}

/* kill(-1): every process but pid 1 and the caller's own (Linux's
 * kill_something_info); kernel threads, which take no signals, are not
 * counted. -ESRCH if there was nobody. */
static long kill_all(int sig)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	struct list *pos;
	int count = 0;

	list_for_each(pos, &all_tasks) {
		struct task *t = list_entry(pos, struct task, all_link);
		if (t->tgid <= 1 || t->tgid == current->tgid || !t->sighand ||
		    !task_alive(t) || !group_representative(t))
			continue;
		count++;
		if (sig)
			send_signal_group(t, sig);
	}
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return count ? 0 : -ESRCH;
}

/* Spindle has no process groups (no setpgid/setsid). kill(0, sig), "my
 * process group", reaches the caller's own process; kill(-pgid, sig)
 * names a group that cannot exist: -ESRCH, as Linux answers for a
 * process group with no members. */
SYSCALL(SYS_kill, kill)
{
	int pid = (int)arg[0], sig = (int)arg[1];

	if (!valid_signal(sig))
		return -EINVAL;
	if (pid >= 0)
		return kill_group(pid, sig);
	if (pid == -1)
		return kill_all(sig);
	return -ESRCH;
}

/* tgkill(tgid, tid, sig): one thread, which must be in group tgid (so a
 * recycled tid cannot hit a stranger: the reason tgkill replaced tkill). */
SYSCALL(SYS_tgkill, tgkill)
{
	int tgid = (int)arg[0], tid = (int)arg[1], sig = (int)arg[2];
	uint32_t flags;
	struct task *t;
	long err = 0;

	if (tgid <= 0 || tid <= 0 || !valid_signal(sig))
		return -EINVAL;
	flags = spin_lock_irqsave(&tasklist_lock);
	t = task_find(tid);
	if (!t || t->tgid != tgid || t->state == TASK_DEAD)
		err = -ESRCH;
	else if (sig)
		send_signal_task(t, sig);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}
