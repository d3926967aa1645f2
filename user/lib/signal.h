/* user/lib/signal.h - signals (abi.md section 7). The numbers, SA_* and
 * the kernel's struct k_sigaction are lib/abi.h's; the values here are
 * Linux i386's. sigaction() installs handlers with the library's
 * restorer (__restore_rt); raw_rt_sigaction (raw.h) is the bare call. */
#ifndef USER_SIGNAL_H
#define USER_SIGNAL_H

#include "sys/types.h"
#include "lib/abi_linux.h"

#ifndef SIG_DFL
#define SIG_DFL ((void *)0)
#define SIG_IGN ((void *)1)
#endif
#ifndef SIG_BLOCK
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#endif
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

/* The kernel's sigset: 64 bits, signal s is bit s - 1. */
#define SIGSET_SIZE 8
#define SIGBIT(s) (1ull << ((s) - 1))

/* The SA_RESTORER restorer (sigreturn.S): calls rt_sigreturn. */
void __restore_rt(void);

/* SA_NOCLDSTOP, SA_RESTART and the other flags are lib/abi.h's. */
#define SIG_ERR ((void (*)(int))-1)

/* Signal numbers beyond lib/abi.h's (Linux i386). */
#ifndef SIGURG
#define SIGURG    23
#define SIGXCPU   24
#define SIGXFSZ   25
#define SIGVTALRM 26
#define SIGPROF   27
#define SIGWINCH  28
#define SIGIO     29
#define SIGPWR    30
#define SIGSYS    31
#endif

/* The set the kernel takes: 64 bits (signal s is bit s - 1), opaque as
 * POSIX wants; glibc's is larger, the kernel reads only its first 8. */
typedef struct {
	unsigned long __bits[2];
} sigset_t;
_Static_assert(sizeof(sigset_t) == SIGSET_SIZE, "the kernel's sigset size");

typedef void (*sighandler_t)(int);

union sigval {
	int sival_int;
	void *sival_ptr;
};

/* Linux's siginfo_t (128 bytes): the fields Spindle fills. */
typedef struct {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		struct { pid_t si_pid; uid_t si_uid; int si_status; } __kill;
		struct { void *si_addr; } __fault;
		int __pad[29];
	} __u;
} siginfo_t;
#define si_pid    __u.__kill.si_pid
#define si_uid    __u.__kill.si_uid
#define si_status __u.__kill.si_status
#define si_addr   __u.__fault.si_addr
_Static_assert(sizeof(siginfo_t) == 128, "Linux's siginfo_t");

struct sigaction {
	union {
		void (*__sa_handler)(int);
		void (*__sa_sigaction)(int, siginfo_t *, void *);
	} __sa;
	sigset_t sa_mask;
	int sa_flags;
	void (*sa_restorer)(void);
};
#define sa_handler   __sa.__sa_handler
#define sa_sigaction __sa.__sa_sigaction

/* sigaltstack: SS_ONSTACK, SS_DISABLE, MINSIGSTKSZ, SIGSTKSZ are lib/abi.h's */
typedef struct {
	void *ss_sp;
	int ss_flags;
	size_t ss_size;
} stack_t;

struct timespec;

int kill(pid_t pid, int sig);
int killpg(pid_t pgrp, int sig);
int sigaltstack(const stack_t *ss, stack_t *old);
int sigsuspend(const sigset_t *mask);
int sigpending(sigset_t *set);
int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout);
int sigwaitinfo(const sigset_t *set, siginfo_t *info);
int sigwait(const sigset_t *set, int *sig);
int tgkill(pid_t tgid, pid_t tid, int sig);
int raise(int sig);
int sigaction(int sig, const struct sigaction *act, struct sigaction *oact);
sighandler_t signal(int sig, sighandler_t handler);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);
int sigprocmask(int how, const sigset_t *set, sigset_t *oset);
int pthread_sigmask(int how, const sigset_t *set, sigset_t *oset);
struct pthread;                 /* pthread_t is struct pthread * (pthread.h) */
int pthread_kill(struct pthread *thread, int sig);

#endif
