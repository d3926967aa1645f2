/* compat/linux/hooks.h - the Linux layer's side of kernel/linux_hooks.h:
 * with CONFIG_LINUX (the full kernel) each hook is one of the layer's
 * functions, declared here; kernel/linux_hooks.h documents them, beside
 * the empty versions the seed kernel compiles to. */
#ifndef COMPAT_LINUX_HOOKS_H
#define COMPAT_LINUX_HOOKS_H

#include "compat/linux/linux_task.h"
#include "compat/linux/personality.h"
#include "arch/i386/trapframe.h"

static inline bool linux_layer_present(void) { return true; }

/* What a Linux clone asks beyond the seed's bits (clone_args.linux_flags,
 * set by compat/linux/clone.c's table). */
#define LCL_VFORK          (1u << 0)  /* parent sleeps until exec or exit */
#define LCL_PARENT         (1u << 1)  /* child of the caller's parent */
#define LCL_CHILD_SETTID   (1u << 2)  /* TID to *ctid, child's memory */
#define LCL_CHILD_CLEARTID (1u << 3)  /* 0 to *ctid + FUTEX_WAKE at mm release */

void linux_task_init(struct task *t);
void linux_task_free(struct task *t);
int linux_clone_args(uint32_t uflags, struct clone_args *a);
int linux_copy_resources(struct task *c, struct task *p, uint32_t flags);
struct task *linux_clone_parent_locked(struct task *c, struct task *p,
				       const struct clone_args *a);
void linux_exit_resources(struct task *t);
void linux_exit_reap_self_locked(struct task *t);
uint32_t linux_exec_stack_size(uint32_t most);
void linux_exec_take_over_locked(struct task *leader, struct task *t);
long linux_exec_prepare(const char *path, struct file *f, struct exe_link **exe);
void linux_exec_abandon(struct exe_link *exe);
void linux_exec_commit(struct task *t, bool is_linux, struct exe_link *exe);
long linux_openat(struct files *fs, int dirfd, const char *path, int flags, unsigned mode);
struct file *linux_open_exec(const char *path, long *err);
struct file *linux_console_file(void);
void linux_file_free(struct file *f);
unsigned long linux_nofile_limit(unsigned long dflt);
long linux_futex(const uint32_t *arg, bool time64);
long linux_futex_interrupted(uint32_t uaddr, unsigned flags, uint32_t val, uint64_t deadline,
			     uint32_t bitset);
void linux_signal_prepare_locked(struct task *t, struct sighand *sh, int sig);
void linux_signal_stop_point(void);
void linux_signal_dequeued_locked(struct task *t, int sig);
bool linux_saved_sigmask_take(struct task *t, uint64_t *mask);
void linux_saved_sigmask_keep(struct task *t);
struct k_sigaction;
int linux_setup_frame(const struct ksiginfo *info, const struct k_sigaction *ka,
		      uint64_t oldmask, struct trapframe *tf);
void linux_do_stop(int sig);
void linux_restart_for_handler(struct trapframe *tf, bool sa_restart);
void linux_restart_slow(struct trapframe *tf);
static inline void linux_restart_no_handler(struct trapframe *tf)
{
	if (tf->eax + ERESTART_RESTARTBLOCK <= ERESTART_RESTARTBLOCK - ERESTARTSYS)
		linux_restart_slow(tf);
}
void linux_restart_forget(struct trapframe *tf);

#define EINTR_RESTARTSYS        (-ERESTARTSYS)
#define EINTR_RESTARTNOHAND     (-ERESTARTNOHAND)

uint32_t linux_sigaltstack_frame_top(uint32_t esp, unsigned long sa_flags);
void linux_sigaltstack_save(uint32_t *sp, int *flags, uint32_t *size, uint32_t esp);
int linux_pgid(const struct task *t);
long linux_nanosleep_interrupted(uint64_t deadline, uint32_t urem, bool time64);
bool linux_cputime_clock(int clk, uint64_t *ns);
int linux_wait_report_locked(struct task *c, uint32_t options);
void linux_zombie_times_locked(struct task *c, uint32_t ticks[2]);
void linux_reap_times_locked(struct task *reaper, struct task *c);
long linux_rusage_to_user(uint32_t urusage, const uint32_t ticks[2]);
void linux_account_tick(bool user);
void linux_tick(void);
void linux_timers_run(void);
int linux_init_task(struct task *t);
struct kbuf;
void linux_kstat(struct kbuf *b);
void (*linux_kinfo_gen(const char *path))(struct kbuf *b);
void linux_fs_init(void);
bool linux_is_file(const char *path);
unsigned long linux_as_limit(void);

/* Hooks that most tasks have nothing for - every seed program's, and
 * every clone and exit without vfork, CHILD_SETTID/CLEARTID or a robust
 * list: the test is made here, inline, and the layer's function called
 * only when there is work (as linux_restart_no_handler above). A call
 * that found nothing to do cost about ten instructions, and a thread's
 * create+exit made six of them. Macros, as below: struct task and struct
 * clone_args are complete only where they are used. Their arguments may
 * be evaluated twice: pass variables, not calls (every caller does). */
#define linux_personality(t) ((t)->lx.personality == PERSONALITY_LINUX)
/* FUTEX_WAKE's count: a Linux program's 0 or negative count wakes one
 * waiter, as Linux's int count does (compat/linux/futex_linux.c says
 * why); a seed program's is the contract's. A seed program's wake pays
 * one compare. */
#define linux_futex_wake_count(val) \
	((int32_t)(val) <= 0 && linux_personality(current) ? 1u : (val))
void linux_clone_flags_prepare(struct task *c, const struct clone_args *a);
void linux_clone_settid(struct task *c, const struct clone_args *a, int tid);
long linux_vfork_wait(long tid);
void linux_robust_list_walk(struct task *t);
void linux_vfork_release(struct task *t);
void linux_clear_tid_wake(struct task *t);
#define linux_clone_prepare(c, a) \
	do { if ((a)->linux_flags) linux_clone_flags_prepare(c, a); } while (0)
#define linux_clone_hashed(c, a, tid) \
	do { if ((a)->linux_flags & LCL_CHILD_SETTID) linux_clone_settid(c, a, tid); } while (0)
#define linux_clone_return(a, tid) \
	((tid) >= 0 && ((a)->linux_flags & LCL_VFORK) ? linux_vfork_wait(tid) : (tid))
#define linux_exit_robust_list(t) \
	do { if ((t)->lx.robust_list) linux_robust_list_walk(t); } while (0)
#define linux_vfork_done(t) \
	do { if ((t)->lx.vfork_parent) linux_vfork_release(t); } while (0)
#define linux_child_tid_cleared(t) \
	do { if ((t)->lx.clear_tid_wake) linux_clear_tid_wake(t); } while (0)

/* Read on every return to user mode (signal_pending,
 * return_to_user_prepare): a field each, as macros - struct task is
 * complete only where they are used. */
#define linux_jobstop_pending(t) \
	(__atomic_load_n(&(t)->lx.jobstop, __ATOMIC_RELAXED) == JOBSTOP_PENDING)
#define linux_saved_sigmask_pending(t) ((t)->lx.restore_sigmask)

#endif
