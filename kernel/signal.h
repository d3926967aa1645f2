/* kernel/signal.h - signals (abi.md section 7).
 *
 * Signals 1..63 are bits of a 64-bit set (bit sig-1). Pending signals are
 * per task (tgkill, faults) and per thread group (kill); handlers are per
 * group through the shared struct sighand (CLONE_SIGHAND). Standard
 * signals do not queue: a second SIGCHLD while one is pending merges,
 * and the first one's siginfo is the one delivered (Linux's legacy_queue;
 * Spindle merges real-time signals the same way).
 *
 * Each pending set keeps the siginfo of its signals in a few slots
 * (SIGQUEUE_SLOTS), Linux's sigqueue list bounded as RLIMIT_SIGPENDING
 * bounds it. When the slots are full the signal is still sent, with its
 * information lost: it arrives as SI_USER with si_pid 0, what Linux's
 * collect_signal reports for a signal that found no queue space.
 *
 * Simplification: Linux keeps the group's pending set in signal_struct,
 * which exactly the thread group shares. Spindle has no signal_struct, so
 * the group's set lives in struct sighand (shared_pending). sighand is
 * shared by the thread group *plus* any CLONE_SIGHAND clone that is not a
 * thread; such a partner process may take a kill() meant for the other.
 *
 * Locking: sighand->lock (irqsave) protects action[], shared_pending, and
 * every task's pending and blocked sets of the tasks that share it. Order:
 * tasklist_lock, then sighand->lock, then a run-queue lock (wake_up_task).
 * signal_pending() takes no lock: schedule() calls it under its run-queue
 * lock (see signal_wake in signal.c for why no wake-up is lost). */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include "lib/types.h"
#include "lib/abi.h"
#include "arch/i386/spinlock.h"

#define SIGMASK(sig) (1ull << ((sig) - 1))
/* SIGKILL and SIGSTOP can be neither caught nor blocked. */
#define SIG_UNBLOCKABLE (SIGMASK(SIGKILL) | SIGMASK(SIGSTOP))
/* The highest signal number, as Linux's _NSIG: signals are 1..64, bit
 * sig-1 of a 64-bit set. */
#define SIG_MAX 64

#define SIG_DFL ((void *)0)
#define SIG_IGN ((void *)1)

/* Linux i386 numbers the kernel needs that lib/abi.h does not list. */
#define SIGURG   23
#define SIGWINCH 28

/* sigaction flags beyond lib/abi.h's (Linux i386 values). */
#define SA_NODEFER   0x40000000u    /* do not block sig in its handler */
#define SA_RESETHAND 0x80000000u    /* back to SIG_DFL once delivered */

/* rt_sigprocmask's how. */
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* What a signal tells its SA_SIGINFO handler: Linux's kernel_siginfo,
 * cut to the fields Spindle fills. arch/i386/signal_frame.c lays it out
 * as the user's struct siginfo, choosing pid or addr by signal and code
 * as Linux's siginfo_layout does (they share one word there). */
struct ksiginfo {
	int signo;
	int code;               /* SI_USER, SI_TKILL, SI_KERNEL, SEGV_MAPERR.. */
	int pid;                /* the sender's tgid (kill), or the child's tid */
	uint32_t addr;          /* faults: si_addr (CR2 for a page fault) */
	int status;             /* SIGCHLD: exit code or killing signal */
	bool fault;             /* raised by this task's own fault (trap.c
				 * user_fault): if it kills, do_signal says so */
};

/* Pending signals with the siginfo of each in slots[]: a slot holds
 * info for slots[i].signo while that signal's bit is set. A slot whose
 * bit was cleared without it (signal_install_action dropping ignored ones,
 * or a test writing `signals` directly) is stale and reused. */
#define SIGQUEUE_SLOTS 8
struct sigpending {
	uint64_t signals;
	struct ksiginfo slots[SIGQUEUE_SLOTS];
};

struct sighand {
	int refcount;                       /* atomic (fork adds sharers) */
	struct spinlock lock;
	struct k_sigaction action[NSIG];    /* index sig - 1 */
	struct sigpending shared_pending;   /* kill(): for the whole group */
};

struct task;
struct trapframe;

/* kernel/sighand.c: the object, shared by CLONE_SIGHAND. */
void sighand_init(void);                    /* its cache, at boot */
struct sighand *sighand_new(void);          /* every action SIG_DFL */
/* fork without CLONE_SIGHAND: the same actions, nothing pending. */
struct sighand *sighand_copy(const struct sighand *sh);
void sighand_put(struct sighand *sh);
/* Gives t a private copy if its sighand is shared; 0 or -ENOMEM. */
int sighand_unshare(struct task *t);
/* execve: unshare, then caught signals go back to SIG_DFL (ignored ones
 * stay ignored, the mask and pending signals survive: Linux's
 * flush_signal_handlers). 0, or -ENOMEM when the unshare failed (the
 * handlers are reset in place all the same). */
int signals_exec_reset(struct task *t);

/* Sends info->signo with info to one task (tgkill, faults) or to its
 * whole group (kill); 0 always (a task without sighand - a kernel thread,
 * a reaped zombie - quietly gets nothing, as Linux). The caller keeps t
 * alive: current, or tasklist_lock held. The group form walks t's thread
 * group, so it must be called with tasklist_lock held. A task running in
 * user mode on another CPU is interrupted at once (a reschedule IPI). */
int send_signal_task_info(struct task *t, const struct ksiginfo *info);
int send_signal_group_info(struct task *t, const struct ksiginfo *info);
/* Is t in pid 1's group, with sig's action SIG_DFL? Then kill, tgkill
 * and a child's exit signal drop sig (Linux's SIGNAL_UNKILLABLE). */
bool signal_init_ignores(struct task *t, int sig);
/* Makes t notice a pending signal (or a stop: compat/linux/jobctl.c) now: a
 * task asleep interruptibly is woken, one running elsewhere is kicked. */
void signal_wake(struct task *t);
/* The same for a signal the kernel sends on its own: SI_KERNEL (Linux's
 * SEND_SIG_PRIV), except the exit signal a new zombie sends its parent,
 * which carries exit_siginfo(). */
int send_signal_task(struct task *t, int sig);
int send_signal_group(struct task *t, int sig);
/* info to every process of process group pgid (linux_pgid), or, with
 * pgid 0, to every process but init and the caller's (kill(-1)); takes
 * tasklist_lock. 0, or -ESRCH if none was found. */
long kill_many(int pgid, const struct ksiginfo *info);
/* A synchronous fault in user mode: unblock and, if ignored, reset the
 * signal so the task cannot loop on the faulting instruction, then send
 * it (the _info form with the fault's siginfo; the plain one SI_KERNEL). */
void force_signal_info(struct task *t, const struct ksiginfo *info);
void force_signal(struct task *t, int sig);

/* rt_sigaction's change: act becomes sig's action for current's sighand,
 * *replaced gets the old one. A signal that act ignores is discarded
 * from every pending set of the group, blocked or not (POSIX). */
void signal_install_action(int sig, const struct k_sigaction *act,
			   struct k_sigaction *replaced);

/* signal_pending(t): deliverable now (inline, kernel/task.h). */
/* The stop signals: SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU. */
#define SIG_STOP_SIGNALS (SIGMASK(SIGSTOP) | SIGMASK(SIGTSTP) | \
	SIGMASK(SIGTTIN) | SIGMASK(SIGTTOU))
/* Four compares, not a test of SIG_STOP_SIGNALS: a 64-bit shift by a
 * variable count is about ten i386 instructions, and every delivered
 * signal asks this at least twice on the full kernel (jobctl.c). */
static inline bool sig_is_stop(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}
/* On the way back to user mode: deliver one pending signal, building a
 * handler frame on the user stack or taking the default action. */
void do_signal(struct trapframe *tf);
/* current's mask becomes mask (minus SIGKILL and SIGSTOP). */
void signal_set_blocked(uint64_t mask);
/* Takes the next signal of allowed off t's pending sets, with its
 * siginfo: SIGKILL first, then t's own set before the group's, lowest
 * number first; 0 if none. sighand->lock held (do_signal,
 * rt_sigtimedwait). */
int dequeue_signal_locked(struct task *t, struct sighand *sh,
			  uint64_t allowed, struct ksiginfo *info);
/* struct k_sigaction's mask as one set, and back. */
static inline uint64_t sigaction_mask(const struct k_sigaction *ka)
{
	return (uint64_t)ka->mask[0] | ((uint64_t)ka->mask[1] << 32);
}

#endif
