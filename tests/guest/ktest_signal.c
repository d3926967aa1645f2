/* tests/guest/ktest_signal.c - group signal: what kernel/signal.c does
 * without user mode: mask arithmetic, sighand reference counts, the
 * pending-set rules of sending, force_signal, delivery order and the
 * bad-stack path of do_signal, and the argument checks of the calls.
 *
 * The tests run in the boot task (cpu0's idle task, no mm, no sighand).
 * Tasks that take signals are "paper" tasks from task_alloc(): never
 * hashed, never queued, never woken (they are TASK_RUNNING, and
 * signal_wake only wakes TASK_INTERRUPTIBLE sleepers). Where current
 * must have a sighand (do_signal, the calls), the boot task borrows one
 * and gives it back; the idle task is never asked about signals by the
 * scheduler, and no return to user mode happens here. */
#include "tests/guest/ktest.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/segment.h"
#include "lib/string.h"

static uint32_t sighand_inuse(void)
{
	for (struct objcache *c = kmem_caches(); c; c = c->next)
		if (strcmp(c->name, "sighand") == 0)
			return c->nr_inuse;
	return 0;
}

/* A paper task of group `leader` (itself if NULL) sharing sh. */
static struct task *paper_task(struct sighand *sh, struct task *leader, int tid)
{
	struct task *t = task_alloc();

	if (!t)
		return NULL;
	t->tid = tid;
	t->state = TASK_RUNNING;
	t->sighand = sh;
	if (leader) {
		uint32_t flags = spin_lock_irqsave(&tasklist_lock);
		t->tgid = leader->tgid;
		t->group_leader = leader;
		list_add_tail(&t->thread_group, &leader->thread_group);
		spin_unlock_irqrestore(&tasklist_lock, flags);
	} else {
		t->tgid = tid;
		t->group_leader = t;    /* as fork makes a process's */
	}
	return t;
}

static void paper_free(struct task *t)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	list_del(&t->thread_group);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	task_free(t);
}

static int group_send(struct task *t, int sig)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	int r = send_signal_group(t, sig);

	spin_unlock_irqrestore(&tasklist_lock, flags);
	return r;
}

/* send_signal_task on a task other than current: under tasklist_lock, as
 * its callers in the kernel (send_signal_task_info asserts it). */
static void task_send(struct task *t, int sig)
{
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);

	send_signal_task(t, sig);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

static void *const HANDLER = (void *)0x08048000;  /* any user address */

KTEST(signal, mask_arithmetic)
{
	struct k_sigaction ka = { 0 };

	KCHECK_EQ(SIGMASK(1), 1);
	KCHECK_EQ(SIGMASK(SIGKILL), 0x100);
	KCHECK_EQ(SIGMASK(33), 1ull << 32);
	KCHECK_EQ(SIGMASK(SIG_MAX), 1ull << 63);
	KCHECK_EQ(SIG_UNBLOCKABLE, (1u << 8) | (1u << 18));
	ka.mask[0] = 0x80000001u;
	ka.mask[1] = 0x40000002u;
	KCHECK_EQ(sigaction_mask(&ka), 0x4000000280000001ull);
}

KTEST(signal, sighand_new_is_all_default)
{
	struct sighand *sh = sighand_new();
	uint32_t inuse;

	KCHECK(sh);
	inuse = sighand_inuse();
	KCHECK(inuse >= 1);
	KCHECK_EQ(sh->refcount, 1);
	KCHECK_EQ(sh->shared_pending.signals, 0);
	for (int i = 0; i < NSIG; i++)
		KCHECK(sh->action[i].handler == SIG_DFL && sh->action[i].flags == 0);
	sighand_put(sh);
	KCHECK_EQ(sighand_inuse(), inuse - 1);
}

KTEST(signal, sighand_copy_and_refcount)
{
	uint32_t base;
	struct sighand *sh = sighand_new(), *cp;

	KCHECK(sh);
	base = sighand_inuse() - 1;
	sh->action[SIGUSR1 - 1].handler = HANDLER;
	sh->action[SIGUSR1 - 1].flags = SA_RESTORER;
	sh->action[SIGINT - 1].handler = SIG_IGN;
	sh->shared_pending.signals = SIGMASK(SIGUSR2);
	cp = sighand_copy(sh);
	KCHECK(cp);
	KCHECK_EQ(sighand_inuse(), base + 2);
	KCHECK(cp->action[SIGUSR1 - 1].handler == HANDLER);
	KCHECK_EQ(cp->action[SIGUSR1 - 1].flags, SA_RESTORER);
	KCHECK(cp->action[SIGINT - 1].handler == SIG_IGN);
	KCHECK_EQ(cp->shared_pending.signals, 0);   /* fork: nothing pending */
	KCHECK_EQ(cp->refcount, 1);
	/* CLONE_SIGHAND, as fork.c does it: one more user, same object. */
	__atomic_add_fetch(&sh->refcount, 1, __ATOMIC_SEQ_CST);
	sighand_put(sh);
	KCHECK_EQ(sighand_inuse(), base + 2);       /* still one user */
	sighand_put(sh);
	sighand_put(cp);
	KCHECK_EQ(sighand_inuse(), base);
}

KTEST(signal, send_task_pending_blocked_ignored)
{
	struct sighand *sh = sighand_new();
	struct task *t;

	KCHECK(sh);
	t = paper_task(sh, NULL, 30001);
	KCHECK(t);
	KCHECK(!signal_pending(t));
	task_send(t, SIGUSR1);
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGUSR1));
	KCHECK(signal_pending(t));
	task_send(t, SIGUSR1);               /* merges */
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGUSR1));
	t->blocked = SIGMASK(SIGUSR1);
	KCHECK(!signal_pending(t));                 /* pending, not deliverable */
	t->blocked = 0;
	t->pending.signals = 0;

	/* Ignored (SIGCHLD by default, SIG_IGN): dropped unless blocked. */
	task_send(t, SIGCHLD);
	task_send(t, SIGSTOP);               /* queued: it stops when taken */
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGSTOP));
	task_send(t, SIGCONT);               /* cancels it, is ignored itself */
	KCHECK_EQ(t->pending.signals, 0);
	sh->action[SIGTERM - 1].handler = SIG_IGN;
	task_send(t, SIGTERM);
	KCHECK_EQ(t->pending.signals, 0);
	KCHECK(!signal_pending(t));
	t->blocked = SIGMASK(SIGCHLD);
	task_send(t, SIGCHLD);
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGCHLD));
	KCHECK(!signal_pending(t));

	/* Out of range is refused, not a stray bit. */
	t->pending.signals = 0;
	task_send(t, 0);
	task_send(t, SIG_MAX + 1);
	task_send(t, 200);
	KCHECK_EQ(t->pending.signals, 0);

	paper_free(t);
	sighand_put(sh);
}

KTEST(signal, send_group_shared_pending)
{
	struct sighand *sh = sighand_new();
	struct task *a, *b;

	KCHECK(sh);
	sh->refcount = 2;
	a = paper_task(sh, NULL, 30002);
	b = a ? paper_task(sh, a, 30003) : NULL;
	KCHECK(a && b);
	a->blocked = SIGMASK(SIGUSR1);
	group_send(a, SIGUSR1);
	KCHECK_EQ(sh->shared_pending.signals, SIGMASK(SIGUSR1));
	KCHECK_EQ(a->pending.signals, 0);
	KCHECK(!signal_pending(a));                 /* a blocks it ... */
	KCHECK(signal_pending(b));                  /* ... b takes it */
	/* A zombie's sighand still names the group; a dead member is skipped. */
	a->state = TASK_ZOMBIE;
	group_send(a, SIGUSR2);
	KCHECK_EQ(sh->shared_pending.signals, SIGMASK(SIGUSR1) | SIGMASK(SIGUSR2));
	a->state = TASK_RUNNING;

	paper_free(b);
	paper_free(a);
	sighand_put(sh);
	sighand_put(sh);
}

KTEST(signal, force_signal_unblocks_and_resets)
{
	struct sighand *sh = sighand_new();
	struct task *t;

	KCHECK(sh);
	t = paper_task(sh, NULL, 30004);
	KCHECK(t);
	sh->action[SIGSEGV - 1].handler = SIG_IGN;
	sh->action[SIGFPE - 1].handler = HANDLER;
	t->blocked = SIGMASK(SIGFPE) | SIGMASK(SIGUSR1);
	force_signal(t, SIGSEGV);
	KCHECK(sh->action[SIGSEGV - 1].handler == SIG_DFL);
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGSEGV));
	force_signal(t, SIGFPE);
	KCHECK(sh->action[SIGFPE - 1].handler == SIG_DFL);
	KCHECK_EQ(t->blocked, SIGMASK(SIGUSR1));    /* only SIGFPE unblocked */
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGSEGV) | SIGMASK(SIGFPE));
	/* A handled, unblocked fault keeps its handler. */
	sh->action[SIGILL - 1].handler = HANDLER;
	force_signal(t, SIGILL);
	KCHECK(sh->action[SIGILL - 1].handler == HANDLER);
	paper_free(t);
	sighand_put(sh);
}

KTEST(signal, exec_reset_keeps_ignored)
{
	struct sighand *sh = sighand_new(), *shared;
	struct task *t;
	uint32_t base;

	KCHECK(sh);
	base = sighand_inuse() - 1;
	t = paper_task(sh, NULL, 30005);
	KCHECK(t);
	sh->action[SIGUSR1 - 1].handler = HANDLER;
	sh->action[SIGUSR1 - 1].mask[0] = 0xff;
	sh->action[SIGINT - 1].handler = SIG_IGN;
	sh->action[SIGINT - 1].flags = SA_RESTORER;
	sh->shared_pending.signals = SIGMASK(SIGHUP);
	t->blocked = SIGMASK(SIGUSR2);
	/* Shared with another process: exec unshares. */
	__atomic_add_fetch(&sh->refcount, 1, __ATOMIC_SEQ_CST);
	shared = sh;
	KCHECK_EQ(signals_exec_reset(t), 0);
	KCHECK(t->sighand != shared);
	KCHECK_EQ(shared->refcount, 1);
	KCHECK_EQ(sighand_inuse(), base + 2);
	KCHECK(shared->action[SIGUSR1 - 1].handler == HANDLER);    /* untouched */
	sh = t->sighand;
	KCHECK(sh->action[SIGUSR1 - 1].handler == SIG_DFL);
	KCHECK_EQ(sh->action[SIGUSR1 - 1].mask[0], 0);
	KCHECK(sh->action[SIGINT - 1].handler == SIG_IGN);
	KCHECK_EQ(sh->action[SIGINT - 1].flags, 0);
	KCHECK_EQ(sh->shared_pending.signals, SIGMASK(SIGHUP));    /* kept */
	KCHECK_EQ(t->blocked, SIGMASK(SIGUSR2));                   /* kept */
	/* Not shared: reset in place. */
	sh->action[SIGUSR1 - 1].handler = HANDLER;
	KCHECK_EQ(signals_exec_reset(t), 0);
	KCHECK(t->sighand == sh);
	KCHECK(sh->action[SIGUSR1 - 1].handler == SIG_DFL);
	paper_free(t);
	sighand_put(sh);
	sighand_put(shared);
	KCHECK_EQ(sighand_inuse(), base);
}

/* ---- with a borrowed sighand on current ---- */

static struct sighand *borrow(void)
{
	struct task *t = current;

	if (t->sighand || !(t->sighand = sighand_new()))
		return NULL;
	t->pending.signals = 0;
	t->blocked = 0;
	return t->sighand;
}

static void give_back(void)
{
	struct task *t = current;

	sighand_put(t->sighand);
	t->sighand = NULL;
	t->pending.signals = 0;
	t->blocked = 0;
}

/* do_signal on a user frame whose stack cannot be written (the boot task
 * has no address space at all): the signal is consumed, SIGSEGV is
 * forced, the mask is untouched, and the frame left as it was. The task's
 * own set goes before the group's, even for a higher number. */
KTEST(signal, do_signal_bad_stack_forces_sigsegv)
{
	struct sighand *sh = borrow();
	struct task *t = current;
	struct trapframe tf;

	KCHECK(sh);
	memset(&tf, 0, sizeof(tf));
	tf.cs = __USER_CS;
	tf.ss = tf.ds = tf.es = __USER_DS;
	tf.eip = 0x08048123;
	tf.esp = 0x40002000;
	sh->action[SIGUSR1 - 1].handler = HANDLER;
	sh->action[SIGHUP - 1].handler = HANDLER;
	sh->action[SIGSEGV - 1].handler = HANDLER;
	sh->action[SIGUSR2 - 1].handler = SIG_IGN;
	t->pending.signals = SIGMASK(SIGUSR1);
	sh->shared_pending.signals = SIGMASK(SIGHUP);
	t->blocked = SIGMASK(SIGUSR2);
	do_signal(&tf);
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGSEGV));
	KCHECK_EQ(sh->shared_pending.signals, SIGMASK(SIGHUP));
	KCHECK_EQ(t->blocked, SIGMASK(SIGUSR2));
	KCHECK_EQ(tf.eip, 0x08048123);
	KCHECK_EQ(tf.esp, 0x40002000);
	KCHECK(sh->action[SIGSEGV - 1].handler == HANDLER);
	/* SIGSEGV's own frame fails too: its handler goes, so the next
	 * delivery would end the task instead of looping. */
	do_signal(&tf);
	KCHECK_EQ(t->pending.signals, SIGMASK(SIGSEGV));
	KCHECK(sh->action[SIGSEGV - 1].handler == SIG_DFL);
	/* An ignored signal that was pending while blocked is dropped. */
	t->pending.signals = SIGMASK(SIGUSR2);
	sh->shared_pending.signals = 0;
	t->blocked = 0;
	KCHECK(signal_pending(t));
	do_signal(&tf);
	KCHECK_EQ(t->pending.signals, 0);
	KCHECK(!signal_pending(t));
	KCHECK_EQ(tf.eip, 0x08048123);
	give_back();
}

KTEST(signal, set_blocked_never_blocks_kill_stop)
{
	KCHECK(borrow());
	signal_set_blocked(~0ull);
	KCHECK_EQ(current->blocked, ~0ull & ~SIG_UNBLOCKABLE);
	give_back();
}

/* The calls through the kernel's one system-call path: an int $0x80 from
 * ring 0 goes through syscall_entry (arch/i386/vectors.S) exactly as a
 * user program's does - the frame, syscall_table, the six argument words,
 * return_to_user_prepare and trap_ret - only the CPU pushes no user
 * %esp/%ss and the iret stays in ring 0. Nothing is pending on the way
 * out (each test checks), so that return path neither delivers a signal
 * nor finds another task to run. Only the paths that need no user
 * memory: every pointer here is a kernel one, which must give -EFAULT. */
static long call(uint32_t nr, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d)
			 : "memory", "cc");
	return ret;
}

KTEST(signal, call_argument_checks)
{
	static struct k_sigaction kact;
	static uint64_t kset;
	uint32_t kp = (uint32_t)&kact, ks = (uint32_t)&kset;
	struct sighand *sh = borrow();

	KCHECK(sh);
	/* rt_sigaction */
	KCHECK_EQ(call(SYS_rt_sigaction, SIGUSR1, 0, 0, 4), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigaction, 0, 0, 0, 8), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigaction, SIG_MAX + 1, 0, 0, 8), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigaction, (uint32_t)-1, 0, 0, 8), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigaction, SIGKILL, kp, 0, 8), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigaction, SIGSTOP, kp, 0, 8), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigaction, SIGKILL, 0, 0, 8), 0);    /* query is fine */
	KCHECK_EQ(call(SYS_rt_sigaction, SIGUSR1, kp, 0, 8), -EFAULT);
	KCHECK_EQ(call(SYS_rt_sigaction, SIGUSR1, 0, kp, 8), -EFAULT);
	KCHECK_EQ(call(SYS_rt_sigaction, SIGUSR1, 0, 0x10, 8), -EFAULT);
	KCHECK(sh->action[SIGUSR1 - 1].handler == SIG_DFL);
	/* rt_sigprocmask */
	KCHECK_EQ(call(SYS_rt_sigprocmask, SIG_BLOCK, 0, 0, 4), -EINVAL);
	KCHECK_EQ(call(SYS_rt_sigprocmask, 7, 0, 0, 8), 0);        /* no set: how unused */
	KCHECK_EQ(call(SYS_rt_sigprocmask, SIG_BLOCK, ks, 0, 8), -EFAULT);
	KCHECK_EQ(call(SYS_rt_sigprocmask, SIG_BLOCK, 0, ks, 8), -EFAULT);
	KCHECK_EQ(call(SYS_rt_sigprocmask, SIG_BLOCK, 0xbffffffc, 0, 8), -EFAULT);
	/* kill */
	KCHECK_EQ(call(SYS_kill, 0, SIG_MAX + 1, 0, 0), -EINVAL);
	KCHECK_EQ(call(SYS_kill, 0, (uint32_t)-1, 0, 0), -EINVAL);
	KCHECK_EQ(call(SYS_kill, 0, 0, 0, 0), 0);                  /* own (no group) */
	KCHECK_EQ(call(SYS_kill, 31000, 0, 0, 0), -ESRCH);
	KCHECK_EQ(call(SYS_kill, 0x7fffffff, SIGTERM, 0, 0), -ESRCH);
	KCHECK_EQ(call(SYS_kill, (uint32_t)-5, 0, 0, 0), -ESRCH);  /* no group 5 */
	KCHECK_EQ(call(SYS_kill, (uint32_t)-1, 0, 0, 0), -ESRCH);  /* no user process */
	/* tgkill */
	KCHECK_EQ(call(SYS_tgkill, 0, 1, 0, 0), -EINVAL);
	KCHECK_EQ(call(SYS_tgkill, 1, 0, 0, 0), -EINVAL);
	KCHECK_EQ(call(SYS_tgkill, (uint32_t)-1, 1, 0, 0), -EINVAL);
	KCHECK_EQ(call(SYS_tgkill, 1, 1, SIG_MAX + 1, 0), -EINVAL);
	KCHECK_EQ(call(SYS_tgkill, 31000, 31000, 0, 0), -ESRCH);
	KCHECK_EQ(current->pending.signals, 0);
	KCHECK_EQ(sh->shared_pending.signals, 0);
	give_back();
}
