/* user/tests/t_signal_wait.c - waiting for signals and the alternate
 * signal stack: rt_sigpending, rt_sigsuspend, pause, rt_sigtimedwait
 * (and _time64), alarm, setitimer/getitimer (ITIMER_REAL), sigaltstack
 * with SA_ONSTACK; every error path, through the libc's functions. */
#define T_PROG "t_signal_wait"
#include "t.h"
#include "signal.h"
#include "unistd.h"
#include "time.h"
#include "sys/time.h"

#define KERNEL_PTR ((void *)0xc0000000ul)

static volatile int got[NSIG + 1];
static volatile unsigned long handler_mask;

static void on_sig(int sig)
{
	sigset_t now;

	got[sig]++;
	sigprocmask(SIG_BLOCK, NULL, &now);
	handler_mask = now.__bits[0];
}

static void catch(int sig)
{
	struct sigaction sa = { .sa_flags = 0 };

	sa.sa_handler = on_sig;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void unblock_all(void)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

TEST(sigset_functions)
{
	sigset_t s;

	EXPECT_EQ(sigemptyset(&s), 0);
	EXPECT_EQ(sigismember(&s, SIGINT), 0);
	EXPECT_EQ(sigaddset(&s, SIGINT), 0);
	EXPECT_EQ(sigaddset(&s, 64), 0);
	EXPECT_EQ(sigismember(&s, SIGINT), 1);
	EXPECT_EQ(sigismember(&s, 64), 1);
	EXPECT_EQ(s.__bits[0], 2ul);
	EXPECT_EQ(s.__bits[1], 0x80000000ul);
	EXPECT_EQ(sigdelset(&s, SIGINT), 0);
	EXPECT_EQ(sigismember(&s, SIGINT), 0);
	EXPECT_EQ(sigaddset(&s, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(sigaddset(&s, 65), -1);
	EXPECT_EQ(sigfillset(&s), 0);
	EXPECT_EQ(sigismember(&s, SIGTERM), 1);
}

TEST(sigpending_and_raise)
{
	sigset_t b, p;

	catch(SIGUSR1);
	got[SIGUSR1] = 0;
	sigemptyset(&b);
	sigaddset(&b, SIGUSR1);
	EXPECT_EQ(sigprocmask(SIG_BLOCK, &b, NULL), 0);
	EXPECT_EQ(raise(SIGUSR1), 0);
	EXPECT_EQ(sigpending(&p), 0);
	EXPECT_EQ(sigismember(&p, SIGUSR1), 1);
	EXPECT_EQ(got[SIGUSR1], 0);
	EXPECT_EQ(RAW2(SYS_rt_sigpending, &p, 9), -EINVAL);
	EXPECT_EQ(RAW2(SYS_rt_sigpending, KERNEL_PTR, 8), -EFAULT);
	EXPECT_EQ(RAW2(SYS_rt_sigpending, &p, 4), 0);   /* Linux: up to 8 */
	unblock_all();
	EXPECT_EQ(got[SIGUSR1], 1);
	EXPECT_EQ(sigpending(&p), 0);
	EXPECT_EQ(p.__bits[0], 0ul);
}

/* The handler runs with sigsuspend's mask; afterwards the old one is
 * back (the frame saved it). */
TEST(sigsuspend_restores_mask)
{
	sigset_t b, during, now;

	catch(SIGUSR1);
	got[SIGUSR1] = 0;
	sigemptyset(&b);
	sigaddset(&b, SIGUSR1);
	sigaddset(&b, SIGUSR2);
	sigprocmask(SIG_SETMASK, &b, NULL);
	raise(SIGUSR1);
	sigemptyset(&during);
	sigaddset(&during, SIGTERM);
	errno = 0;
	EXPECT_EQ(sigsuspend(&during), -1);
	EXPECT_EQ(errno, EINTR);
	EXPECT_EQ(got[SIGUSR1], 1);
	/* SIGTERM (the suspend mask) and SIGUSR1 (itself) in the handler */
	EXPECT_EQ(handler_mask, (1ul << (SIGTERM - 1)) | (1ul << (SIGUSR1 - 1)));
	sigprocmask(SIG_BLOCK, NULL, &now);
	EXPECT_EQ(now.__bits[0], b.__bits[0]);
	EXPECT_EQ(RAW2(SYS_rt_sigsuspend, &during, 4), -EINVAL);
	EXPECT_EQ(RAW2(SYS_rt_sigsuspend, KERNEL_PTR, 8), -EFAULT);
	unblock_all();
}

TEST(alarm_and_pause)
{
	long long t0;

	catch(SIGALRM);
	got[SIGALRM] = 0;
	EXPECT_EQ(alarm(5), 0);
	EXPECT_EQ(alarm(0), 5);                 /* ~5 s left, rounded */
	EXPECT_EQ(alarm(1), 0);                 /* it had been cancelled */
	t0 = now_ms();
	errno = 0;
	EXPECT_EQ(pause(), -1);
	EXPECT_EQ(errno, EINTR);
	EXPECT_EQ(got[SIGALRM], 1);
	EXPECT(now_ms() - t0 >= 900, "SIGALRM after %lld ms", now_ms() - t0);
	EXPECT_EQ(alarm(0), 0);
}

TEST(setitimer_interval)
{
	struct itimerval v = { { 0, 50000 }, { 0, 50000 } }, o;

	catch(SIGALRM);
	got[SIGALRM] = 0;
	EXPECT_EQ(setitimer(ITIMER_REAL, &v, NULL), 0);
	EXPECT_EQ(getitimer(ITIMER_REAL, &o), 0);
	EXPECT_EQ(o.it_interval.tv_sec, 0);
	EXPECT_EQ(o.it_interval.tv_usec, 50000);
	EXPECT(o.it_value.tv_sec == 0 && o.it_value.tv_usec <= 50000, "value %ld.%06ld",
	       o.it_value.tv_sec, o.it_value.tv_usec);
	while (got[SIGALRM] < 3)
		pause();
	memset(&v, 0, sizeof(v));
	EXPECT_EQ(setitimer(ITIMER_REAL, &v, &o), 0);   /* disarmed */
	EXPECT_EQ(o.it_interval.tv_usec, 50000);
	EXPECT_EQ(getitimer(ITIMER_REAL, &o), 0);
	EXPECT_EQ(o.it_value.tv_sec + o.it_value.tv_usec, 0);
	EXPECT_EQ(got[SIGALRM], 3);
}

TEST(itimer_errors)
{
	struct itimerval v = { { 0, 0 }, { 0, 1000000 } }, o;

	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_REAL, &v, NULL), -EINVAL);   /* usec */
	v.it_value.tv_usec = -1;
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_REAL, &v, NULL), -EINVAL);
	v.it_value.tv_usec = 0;
	v.it_interval.tv_sec = -1;
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_REAL, &v, NULL), -EINVAL);
	v.it_interval.tv_sec = 0;
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_VIRTUAL, &v, NULL), -EINVAL);
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_PROF, &v, NULL), -EINVAL);
	EXPECT_EQ(RAW3(SYS_setitimer, 3, &v, NULL), -EINVAL);
	EXPECT_EQ(RAW2(SYS_getitimer, 7, &o), -EINVAL);
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_REAL, KERNEL_PTR, NULL), -EFAULT);
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_REAL, &v, KERNEL_PTR), -EFAULT);
	EXPECT_EQ(RAW2(SYS_getitimer, ITIMER_REAL, NULL), -EFAULT);
	EXPECT_EQ(RAW3(SYS_setitimer, ITIMER_REAL, NULL, &o), 0);  /* NULL: disarm */
}

TEST(sigtimedwait)
{
	sigset_t w;
	siginfo_t si;
	struct timespec zero = { 0, 0 }, short_ts = { 0, 200000000 }, bad = { 0, 1000000000 };
	long long t0;

	sigemptyset(&w);
	sigaddset(&w, SIGUSR2);
	sigprocmask(SIG_BLOCK, &w, NULL);
	raise(SIGUSR2);
	memset(&si, 0, sizeof(si));
	EXPECT_EQ(sigtimedwait(&w, &si, &zero), SIGUSR2);
	EXPECT_EQ(si.si_signo, SIGUSR2);
	EXPECT_EQ(si.si_code, SI_TKILL);
	EXPECT_EQ(si.si_pid, getpid());
	errno = 0;
	EXPECT_EQ(sigtimedwait(&w, &si, &zero), -1);
	EXPECT_EQ(errno, EAGAIN);
	t0 = now_ms();
	EXPECT_EQ(sigtimedwait(&w, NULL, &short_ts), -1);
	EXPECT_EQ(errno, EAGAIN);
	EXPECT(now_ms() - t0 >= 150, "timed out after %lld ms", now_ms() - t0);
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait, &w, NULL, &bad, 8), -EINVAL);
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait, &w, NULL, &zero, 4), -EINVAL);
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait, KERNEL_PTR, NULL, &zero, 8), -EFAULT);
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait, &w, NULL, KERNEL_PTR, 8), -EFAULT);
	/* a signal outside the set interrupts the wait: -EINTR */
	catch(SIGALRM);
	got[SIGALRM] = 0;
	alarm(1);
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait, &w, NULL, NULL, 8), -EINTR);
	EXPECT_EQ(got[SIGALRM], 1);
	/* the time64 call: 64-bit seconds and nanoseconds */
	long long ts64[2] = { 0, 0 };
	raise(SIGUSR2);
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait_time64, &w, NULL, ts64, 8), SIGUSR2);
	ts64[1] = -1;
	EXPECT_EQ(RAW4(SYS_rt_sigtimedwait_time64, &w, NULL, ts64, 8), -EINVAL);
	/* sigwait takes a pending one */
	int sig = 0;
	raise(SIGUSR2);
	EXPECT_EQ(sigwait(&w, &sig), 0);
	EXPECT_EQ(sig, SIGUSR2);
	unblock_all();
}

/* ---- sigaltstack ---- */

static char altstack[16384] __attribute__((aligned(16)));
static volatile uintptr_t handler_sp;
static volatile int handler_ss_flags, handler_eperm;

static void on_alt(int sig)
{
	stack_t now, other = { altstack, 0, sizeof(altstack) };
	char local;

	(void)sig;
	handler_sp = (uintptr_t)&local;
	sigaltstack(NULL, &now);
	handler_ss_flags = now.ss_flags;
	handler_eperm = sigaltstack(&other, NULL) == -1 && errno == EPERM;
}

TEST(sigaltstack_onstack)
{
	stack_t ss = { altstack, 0, sizeof(altstack) }, old;
	struct sigaction sa = { .sa_flags = SA_ONSTACK };

	EXPECT_EQ(sigaltstack(NULL, &old), 0);
	EXPECT_EQ(old.ss_flags, SS_DISABLE);
	EXPECT_EQ(old.ss_size, 0);
	EXPECT_EQ(sigaltstack(&ss, NULL), 0);
	sa.sa_handler = on_alt;
	sigemptyset(&sa.sa_mask);
	EXPECT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	handler_sp = 0;
	raise(SIGUSR1);
	EXPECT(handler_sp > (uintptr_t)altstack && handler_sp < (uintptr_t)altstack + sizeof(altstack),
	       "handler ran at %#lx, not on the alternate stack", (unsigned long)handler_sp);
	EXPECT_EQ(handler_ss_flags, SS_ONSTACK);
	EXPECT_EQ(handler_eperm, 1);
	/* without SA_ONSTACK: the ordinary stack */
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	EXPECT(handler_sp < (uintptr_t)altstack || handler_sp >= (uintptr_t)altstack + sizeof(altstack),
	       "without SA_ONSTACK the handler ran on the alternate stack");
	EXPECT_EQ(handler_ss_flags, 0);
	EXPECT_EQ(sigaltstack(NULL, &old), 0);
	EXPECT(old.ss_sp == altstack && old.ss_size == sizeof(altstack) && old.ss_flags == 0,
	       "old %p %u %d", old.ss_sp, (unsigned)old.ss_size, old.ss_flags);
}

static int child_has_altstack(long arg)
{
	stack_t old;

	(void)arg;
	sigaltstack(NULL, &old);
	return old.ss_sp == altstack ? 0 : 1;
}

TEST(sigaltstack_errors_and_fork)
{
	stack_t ss = { altstack, 0, MINSIGSTKSZ - 1 }, old;

	EXPECT_STATUS(child_status(child_has_altstack, 0), EXITED(0));
	EXPECT_EQ(RAW2(SYS_sigaltstack, &ss, NULL), -ENOMEM);
	ss.ss_size = MINSIGSTKSZ;
	ss.ss_flags = 4;
	EXPECT_EQ(RAW2(SYS_sigaltstack, &ss, NULL), -EINVAL);
	ss.ss_flags = 0;
	EXPECT_EQ(RAW2(SYS_sigaltstack, KERNEL_PTR, NULL), -EFAULT);
	EXPECT_EQ(RAW2(SYS_sigaltstack, NULL, KERNEL_PTR), -EFAULT);
	EXPECT_EQ(RAW2(SYS_sigaltstack, &ss, NULL), 0);     /* exactly MINSIGSTKSZ */
	ss.ss_flags = SS_DISABLE;
	EXPECT_EQ(sigaltstack(&ss, &old), 0);
	EXPECT_EQ(old.ss_size, MINSIGSTKSZ);
	EXPECT_EQ(sigaltstack(NULL, &old), 0);
	EXPECT_EQ(old.ss_flags, SS_DISABLE);
}

/* alarm survives execve (POSIX): the new program, with SIGALRM's
 * default action, dies of it. fork does not copy it. */
static int child_alarm_exec(long arg)
{
	char *argv[] = { "t_signal_wait", "pause", NULL };

	(void)arg;
	alarm(1);
	execve(T_DIR "t_signal_wait", argv, NULL);
	return 1;
}

static int child_no_alarm(long arg)
{
	(void)arg;
	return alarm(0) == 0 ? 0 : 1;
}

TEST(alarm_kept_by_exec_not_by_fork)
{
	EXPECT_EQ(alarm(30), 0);
	EXPECT_STATUS(child_status(child_no_alarm, 0), EXITED(0));
	EXPECT_EQ(alarm(0), 30);
	EXPECT_STATUS(child_status(child_alarm_exec, 0), KILLED(SIGALRM));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "pause") == 0) {
		for (;;)
			pause();
	}
	RUN(sigset_functions);
	RUN(sigpending_and_raise);
	RUN(sigsuspend_restores_mask);
	RUN(alarm_and_pause);
	RUN(setitimer_interval);
	RUN(itimer_errors);
	RUN(sigtimedwait);
	RUN(sigaltstack_onstack);
	RUN(sigaltstack_errors_and_fork);
	RUN(alarm_kept_by_exec_not_by_fork);
	return t_exit_code();
}
