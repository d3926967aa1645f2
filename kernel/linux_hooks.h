/* kernel/linux_hooks.h - the one door between the core and the Linux layer.
 *
 * Spindle is two kernels from one tree (docs/architecture.md):
 *   - the seed kernel (make seed): the core alone - boot/, arch/i386/,
 *     kernel/, lib/ - which is abi.md sections 1 to 8 and 10: the seed's
 *     ABI, the kernel a course reads;
 *   - the full kernel (make, make run): the core plus compat/linux/, the
 *     Linux layer, which is abi.md section 9: the linux personality and
 *     the system calls added for Linux programs (which Spindle's own
 *     programs may use too, where the layer is in): the RAM file system,
 *     pipes, the terminal's modes and job control, interval timers, CPU
 *     time, limits, system-call restart, and the rest.
 * The layer's system calls are its own (LINUX_SYSCALL, kernel/syscall.h).
 * Everywhere else the core calls the layer through the hooks below, and
 * through nothing else (tests/arch_boundary.py checks that no core file
 * names a layer function any other way). Built without CONFIG_LINUX (the
 * seed kernel), every hook is an empty inline function or a constant
 * that says "nothing to add": the compiler leaves nothing behind.
 *
 * Each hook is named for the moment it is called at, and says what the
 * layer does there. The layer's part of each task lives in
 * struct linux_task (compat/linux/linux_task.h), embedded in struct task
 * as `lx`: the core never reads it. */
#ifndef KERNEL_LINUX_HOOKS_H
#define KERNEL_LINUX_HOOKS_H

#include "lib/types.h"
#include "lib/errno.h"

struct task;
struct trapframe;
struct clone_args;
struct ksiginfo;
struct sighand;
struct file;
struct files;
struct kbuf;
struct exe_link;

#ifdef CONFIG_LINUX
#include "compat/linux/hooks.h"
#else /* !CONFIG_LINUX: the seed kernel. Every hook, what it is for, and
 * what it is without the layer. */

#include "arch/i386/uaccess.h"

struct linux_task { };

/* Is the layer in? A constant: code under `if (linux_layer_present())`
 * disappears from the seed kernel. */
static inline bool linux_layer_present(void) { return false; }

/* ---- tasks: created, copied, freed ---- */
/* A new task that copies no parent (the boot task, an idle task, a kernel
 * thread): Linux's default limits (compat/linux/fd.c). clone and fork
 * copy the parent's instead (linux_copy_resources). */
static inline void linux_task_init(struct task *t) { (void)t; }
/* Its last moment: the interval timer stopped, cwd and executable let go. */
static inline void linux_task_free(struct task *t) { (void)t; }
/* Is t a Linux program (the GNU ABI note at its execve)? */
static inline bool linux_personality(const struct task *t) { (void)t; return false; }

/* ---- clone (kernel/fork.c) ---- */
/* A Linux program's clone flags into *a (compat/linux/clone.c): 0 or
 * -EINVAL. */
static inline int linux_clone_args(uint32_t uflags, struct clone_args *a)
{ (void)uflags; (void)a; return -EINVAL; }
/* What the child shares or copies of the layer's: cwd and umask
 * (CLONE_FS), the executable, the limits, the personality, the
 * alternate signal stack. 0 or -ENOMEM. */
static inline int linux_copy_resources(struct task *c, struct task *p, uint32_t flags)
{ (void)c; (void)p; (void)flags; return 0; }
/* Before the child can run: CLONE_CHILD_CLEARTID, CLONE_VFORK. */
static inline void linux_clone_prepare(struct task *c, const struct clone_args *a)
{ (void)c; (void)a; }
/* The child has its tid: CLONE_CHILD_SETTID writes it. */
static inline void linux_clone_hashed(struct task *c, const struct clone_args *a, int tid)
{ (void)c; (void)a; (void)tid; }
/* Under tasklist_lock: the child's parent (p, or p's with CLONE_PARENT),
 * and its process group and session. */
static inline struct task *linux_clone_parent_locked(struct task *c, struct task *p,
						     const struct clone_args *a)
{ (void)c; (void)a; return p; }
/* clone's result on its way out: CLONE_VFORK sleeps until the child
 * execs or exits. */
static inline long linux_clone_return(const struct clone_args *a, long tid)
{ (void)a; return tid; }

/* ---- exit and exec (kernel/exit.c, kernel/exec.c) ---- */
/* mm_release's first and last steps (Linux's order): the robust list
 * is walked; the vfork parent is let go. */
static inline void linux_exit_robust_list(struct task *t) { (void)t; }
static inline void linux_vfork_done(struct task *t) { (void)t; }
/* The RELEASE_VM word was just zeroed: CLONE_CHILD_CLEARTID's FUTEX_WAKE. */
static inline void linux_child_tid_cleared(struct task *t) { (void)t; }
/* do_exit, after the core's resources: cwd, umask, executable. */
static inline void linux_exit_resources(struct task *t) { (void)t; }
/* do_exit of a self-reaping task, tasklist_lock held: its CPU time goes
 * to its process, its interval timer (a leader's) stops. */
static inline void linux_exit_reap_self_locked(struct task *t) { (void)t; }
/* The stack execve maps: most (USER_STACK_SIZE), or less as the
 * caller's RLIMIT_STACK says. */
static inline uint32_t linux_exec_stack_size(uint32_t most) { return most; }
/* execve in a thread takes over its zombie leader (de_thread), under
 * tasklist_lock: the process's interval timer and CPU-time books. */
static inline void linux_exec_take_over_locked(struct task *leader, struct task *t)
{ (void)leader; (void)t; }
/* Before execve's point of no return: the /proc/PID/exe link for the
 * program file f found at path (0 or -ENOMEM); dropped if execve fails. */
static inline long linux_exec_prepare(const char *path, struct file *f, struct exe_link **exe)
{ (void)path; (void)f; *exe = NULL; return 0; }
static inline void linux_exec_abandon(struct exe_link *exe) { (void)exe; }
/* After it: the personality (is_linux: the GNU ABI note), the exe link,
 * no alternate signal stack. */
static inline void linux_exec_commit(struct task *t, bool is_linux, struct exe_link *exe)
{ (void)t; (void)is_linux; (void)exe; }

/* ---- files (kernel/file.c) ---- */
/* open(2) and execve's open in the layer's RAM file system, devices and
 * /proc (compat/linux/fs/), instead of the seed's initrd table. */
static inline long linux_openat(struct files *fs, int dirfd, const char *path, int flags,
				unsigned mode)
{ (void)fs; (void)dirfd; (void)path; (void)flags; (void)mode; return -ENOSYS; }
static inline struct file *linux_open_exec(const char *path, long *err)
{ (void)path; *err = -ENOSYS; return NULL; }
/* init's console: the layer's terminal (compat/linux/tty_console.c). */
static inline struct file *linux_console_file(void) { return NULL; }
/* file_put's last step: the inode behind the file, if any. */
static inline void linux_file_free(struct file *f) { (void)f; }
/* The fd limit: the caller's RLIMIT_NOFILE instead of dflt. */
static inline unsigned long linux_nofile_limit(unsigned long dflt) { return dflt; }

/* ---- futex(2) (kernel/futex_syscall.c) ---- */
/* Every command but FUTEX_WAIT and FUTEX_WAKE (compat/linux/futex_linux.c). */
static inline long linux_futex(const uint32_t *arg, bool time64)
{ (void)arg; (void)time64; return -ENOSYS; }
/* FUTEX_WAKE's count: a Linux program's is read as Linux reads it (at
 * least one waiter); a seed program's is the contract's, up to val. */
static inline uint32_t linux_futex_wake_count(uint32_t val) { return val; }
/* A FUTEX_WAIT a signal interrupted: system-call restart, to the same
 * deadline (what the core returns instead: -EINTR). */
static inline long linux_futex_interrupted(uint32_t uaddr, unsigned flags, uint32_t val,
					   uint64_t deadline, uint32_t bitset)
{ (void)uaddr; (void)flags; (void)val; (void)deadline; (void)bitset; return -EINTR; }

/* ---- signals (kernel/signal.c, arch/i386/signal_frame.c, trap.c) ---- */
/* Must t stop for its group's stop (job control) on its way out? */
static inline bool linux_jobstop_pending(const struct task *t) { (void)t; return false; }
/* A signal is being sent to t's group, sighand->lock held: what job
 * control does at once (Linux's prepare_signal: SIGCONT continues a
 * stopped group, a stop signal cancels a pending SIGCONT). */
static inline void linux_signal_prepare_locked(struct task *t, struct sighand *sh, int sig)
{ (void)t; (void)sh; (void)sig; }
/* do_signal's first step: stop here if the group is stopping. */
static inline void linux_signal_stop_point(void) { }
/* do_signal took sig (0: none) off t's pending sets, sighand->lock held. */
static inline void linux_signal_dequeued_locked(struct task *t, int sig) { (void)t; (void)sig; }
/* rt_sigsuspend's saved mask: if one is to be put back, *mask gets it
 * and true is returned (the duty is taken); _keep gives it back. */
static inline bool linux_saved_sigmask_take(struct task *t, uint64_t *mask)
{ (void)t; (void)mask; return false; }
static inline void linux_saved_sigmask_keep(struct task *t) { (void)t; }
static inline bool linux_saved_sigmask_pending(const struct task *t) { (void)t; return false; }
/* A stop signal's default action: the group stops (job control). */
static inline void linux_do_stop(int sig) { (void)sig; }
struct k_sigaction;
/* The old signal frame (arch/i386/signal_frame.c setup_frame), for a
 * Linux program's handler without SA_SIGINFO. */
static inline int linux_setup_frame(const struct ksiginfo *info, const struct k_sigaction *ka,
				    uint64_t oldmask, struct trapframe *tf)
{ (void)info; (void)ka; (void)oldmask; (void)tf; return -EFAULT; }
/* System-call restart (compat/linux/i386/syscall_restart.c): a handler
 * is about to run; no handler will (on every return to user mode, so
 * the layer's version is inline: one compare, and linux_restart_slow()
 * when %eax holds a restart code); sigreturn's registers are not a
 * call's. */
static inline void linux_restart_for_handler(struct trapframe *tf, bool sa_restart)
{ (void)tf; (void)sa_restart; }
static inline void linux_restart_no_handler(struct trapframe *tf) { (void)tf; }
static inline void linux_restart_forget(struct trapframe *tf) { (void)tf; }
/* No system-call restart in the seed kernel: an interrupted sleep says
 * -EINTR. */
/* What a sleep a signal interrupts returns: a restart code that becomes
 * -EINTR if a handler runs (Linux's -ERESTARTSYS, -ERESTARTNOHAND). */
#define EINTR_RESTARTSYS        (-EINTR)
#define EINTR_RESTARTNOHAND     (-EINTR)
/* sigaltstack: the frame's top for a signal interrupting esp, and the
 * frame's uc_stack. */
static inline uint32_t linux_sigaltstack_frame_top(uint32_t esp, unsigned long sa_flags)
{ (void)sa_flags; return esp; }
/* No alternate stack: uc_stack says SS_DISABLE (2), as Linux's does
 * when none is set. */
static inline void linux_sigaltstack_save(uint32_t *sp, int *flags, uint32_t *size, uint32_t esp)
{ (void)esp; *sp = 0; *flags = 2; *size = 0; }
/* kill(0, sig) and kill(-pgid, sig): the caller's process group (0 if
 * it has none: then kill(0) is its own process). */
static inline int linux_pgid(const struct task *t) { (void)t; return 0; }

/* ---- nanosleep and clock_gettime (kernel/time.c) ---- */
/* A relative sleep a signal cut short, rem written: made again after a
 * stop, to the same deadline (the restart block). */
static inline long linux_nanosleep_interrupted(uint64_t deadline, uint32_t urem, bool time64)
{ (void)deadline; (void)urem; (void)time64; return -EINTR; }
/* The CPU-time clocks: true and *ns if clk is one. */
static inline bool linux_cputime_clock(int clk, uint64_t *ns) { (void)clk; (void)ns; return false; }

/* ---- wait4 (kernel/wait.c) ---- */
/* WUNTRACED/WCONTINUED: c's stop or continue as a wait status, taken
 * unless WNOWAIT (0: none). tasklist_lock held. */
static inline int linux_wait_report_locked(struct task *c, uint32_t options)
{ (void)c; (void)options; return 0; }
/* A zombie's CPU time (user, system ticks) with its children's; then,
 * reaping it, into the reaper's books. tasklist_lock held. */
static inline void linux_zombie_times_locked(struct task *c, uint32_t ticks[2])
{ (void)c; ticks[0] = ticks[1] = 0; }
static inline void linux_reap_times_locked(struct task *reaper, struct task *c)
{ (void)reaper; (void)c; }
/* No CPU time is kept: Linux's struct rusage (18 longs), all 0. */
/* wait4's struct rusage at urusage: 0 or -EFAULT. */
static inline long linux_rusage_to_user(uint32_t urusage, const uint32_t ticks[2])
{ (void)ticks; return clear_user(urusage, 18 * sizeof(long)) ? -EFAULT : 0; }

/* ---- time (arch/i386/trap.c, kernel/clock.c, kernel/sched.c) ---- */
/* A timer tick interrupted current, in user mode or not: CPU time. */
static inline void linux_account_tick(bool user) { (void)user; }
/* The boot CPU's tick: the load average. */
static inline void linux_tick(void) { }
/* The sleep timers were run: the interval timers due too. */
static inline void linux_timers_run(void) { }

/* ---- init and /proc (kernel/init.c, kernel/kinfo.c) ---- */
/* pid 1 before its execve: the root as cwd, session and process group
 * 1 with the console as its terminal. 0 or -ENOMEM. */
static inline int linux_init_task(struct task *t) { (void)t; return 0; }
/* The layer's lines of /proc/kstat, and its system-wide /proc files
 * (their generator, or NULL). */
static inline void linux_kstat(struct kbuf *b) { (void)b; }
static inline void (*linux_kinfo_gen(const char *path))(struct kbuf *b)
{ (void)path; return NULL; }
/* RLIMIT_AS for the caller (bytes, or RLIM_INFINITY). */
static inline unsigned long linux_as_limit(void) { return ~0ul; }
/* At boot: the RAM file system, the initrd unpacked into it. Is path a
 * regular file there? */
static inline void linux_fs_init(void) { }
static inline bool linux_is_file(const char *path) { (void)path; return false; }

#endif /* CONFIG_LINUX */
#endif
