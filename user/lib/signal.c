/* user/lib/signal.c - the POSIX signal functions over rt_sigaction and
 * rt_sigprocmask (abi.md section 7).
 *
 * sigaction() always hands the kernel the library's restorer
 * (__restore_rt, SA_RESTORER), as glibc does: a handler then returns
 * into rt_sigreturn. signal() has BSD semantics, as glibc's: the handler
 * stays installed (no SA_RESETHAND) and interrupted calls restart
 * (SA_RESTART). */
#include "signal.h"
#include "errno.h"
#include "unistd.h"
#include "raw.h"
#include "pthread_impl.h"
#include "time.h"
#include "sys/time.h"

static bool bad_signal(int sig)
{
	return sig < 1 || sig > NSIG;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct k_sigaction k, ok;
	long r;

	if (act) {
		k.handler = (void *)act->sa_handler;
		k.flags = (unsigned long)act->sa_flags | SA_RESTORER;
		k.restorer = (void *)__restore_rt;
		k.mask[0] = act->sa_mask.__bits[0];
		k.mask[1] = act->sa_mask.__bits[1];
	}
	r = raw_rt_sigaction(sig, act ? &k : NULL, oact ? &ok : NULL, SIGSET_SIZE);
	if (r < 0)
		return __syscall_ret(r);
	if (oact) {
		oact->sa_handler = (void (*)(int))ok.handler;
		oact->sa_flags = (int)ok.flags;
		oact->sa_restorer = (void (*)(void))ok.restorer;
		oact->sa_mask.__bits[0] = ok.mask[0];
		oact->sa_mask.__bits[1] = ok.mask[1];
	}
	return 0;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa = { .sa_flags = SA_RESTART }, old = { 0 };

	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

int raise(int sig)
{
	return __syscall_ret(raw_tgkill(raw_getpid(), raw_gettid(), sig));
}

int sigemptyset(sigset_t *set)
{
	set->__bits[0] = set->__bits[1] = 0;
	return 0;
}

int sigfillset(sigset_t *set)
{
	set->__bits[0] = set->__bits[1] = ~0ul;
	return 0;
}

int sigaddset(sigset_t *set, int sig)
{
	if (bad_signal(sig)) {
		errno = EINVAL;
		return -1;
	}
	set->__bits[(sig - 1) / 32] |= 1ul << ((sig - 1) % 32);
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	if (bad_signal(sig)) {
		errno = EINVAL;
		return -1;
	}
	set->__bits[(sig - 1) / 32] &= ~(1ul << ((sig - 1) % 32));
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	if (bad_signal(sig)) {
		errno = EINVAL;
		return -1;
	}
	return (set->__bits[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *oset)
{
	return __syscall_ret(raw_rt_sigprocmask(how, set, oset, SIGSET_SIZE));
}

/* POSIX: the error number is returned, errno is left alone. */
int pthread_sigmask(int how, const sigset_t *set, sigset_t *oset)
{
	long r = raw_rt_sigprocmask(how, set, oset, SIGSET_SIZE);

	return r < 0 ? (int)-r : 0;
}

/* tgkill to the thread: the error number (ESRCH once it has finished),
 * errno untouched. */
int pthread_kill(pthread_t thread, int sig)
{
	long r;

	if (thread->done == 1)
		return ESRCH;
	r = raw_tgkill(raw_getpid(), thread->tid, sig);
	return r < 0 ? (int)-r : 0;
}

int killpg(pid_t pgrp, int sig)
{
	if (pgrp <= 1) {        /* 0 and 1 would name other things */
		errno = EINVAL;
		return -1;
	}
	return __syscall_ret(raw_kill(-pgrp, sig));
}

int sigaltstack(const stack_t *ss, stack_t *old)
{
	return __syscall_ret(RAW2(SYS_sigaltstack, ss, old));
}

int sigsuspend(const sigset_t *mask)
{
	return __syscall_ret(RAW2(SYS_rt_sigsuspend, mask, SIGSET_SIZE));
}

int sigpending(sigset_t *set)
{
	return __syscall_ret(RAW2(SYS_rt_sigpending, set, SIGSET_SIZE));
}

int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *timeout)
{
	return __syscall_ret(RAW4(SYS_rt_sigtimedwait, set, info, timeout, SIGSET_SIZE));
}

int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	return sigtimedwait(set, info, NULL);
}

/* POSIX: the error number is returned; EINTR is retried, as glibc. */
int sigwait(const sigset_t *set, int *sig)
{
	long r;

	do
		r = RAW4(SYS_rt_sigtimedwait, set, NULL, NULL, SIGSET_SIZE);
	while (r == -EINTR);
	if (r < 0)
		return (int)-r;
	*sig = (int)r;
	return 0;
}

int pause(void)
{
	return __syscall_ret(RAW0(SYS_pause));
}

unsigned int alarm(unsigned int seconds)
{
	return (unsigned int)RAW1(SYS_alarm, seconds);
}

int setitimer(int which, const struct itimerval *value, struct itimerval *old)
{
	return __syscall_ret(RAW3(SYS_setitimer, which, value, old));
}

int getitimer(int which, struct itimerval *value)
{
	return __syscall_ret(RAW2(SYS_getitimer, which, value));
}
