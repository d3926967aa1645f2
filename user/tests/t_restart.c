/* user/tests/t_restart.c - system-call restart (compat/linux/restart.h, abi.md
 * section 7, docs/signals.md): a call asleep when a signal comes returns
 * -EINTR if a handler runs, is made again if the handler has SA_RESTART
 * and the call is one Linux restarts (read, wait4, untimed FUTEX_WAIT),
 * and goes on after a stop and SIGCONT - a timed sleep to its old
 * deadline, through restart_syscall. rt_sigsuspend interrupted by a stop
 * keeps the caller's mask. Booted as init.
 *
 * Every case makes the interruption certain rather than likely: the
 * signaller waits until the sleeper is asleep (state S in /proc/tasks)
 * before it signals, and until the handler has run and the sleeper is
 * asleep again before it ends the wait. Without restart the sleeper
 * would be back in user space by then, with -EINTR. */
#define T_PROG "t_restart"
#include "t.h"
#include "thr.h"
#include "signal.h"

#define STOPPED(sig) (((sig) << 8) | 0x7f)
#define CONTINUED 0xffff

/* What the handler and the two processes share (fork keeps MAP_SHARED
 * shared): how often the handler ran, and a futex word. */
struct shared {
	volatile int handled;
	volatile int word;
};

static struct shared *sh;

static void on_usr1(int sig)
{
	(void)sig;
	__atomic_add_fetch(&sh->handled, 1, __ATOMIC_SEQ_CST);
}

/* SIGUSR1 to on_usr1, with flags (SA_RESTART or 0). */
static long catch_usr1(int flags)
{
	struct sigaction sa = { .sa_flags = flags };

	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGUSR1, &sa, NULL);
}

static bool setup(void)
{
	if (!sh) {
		long r = raw_mmap2(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (RAW_IS_ERR(r))
			return false;
		sh = (struct shared *)r;
	}
	sh->handled = 0;
	sh->word = 0;
	return true;
}

/* In a child: waits until tid sleeps, signals it, waits until its
 * handler ran and it sleeps again (restarted), then returns. */
static bool interrupt_and_wait(int tid)
{
	if (!thr_wait_sleeping(tid, 5000) || raw_kill(tid, SIGUSR1) != 0)
		return false;
	if (!thr_wait_word(&sh->handled, 1, 5000))
		return false;
	return true;
}

/* A child that interrupts the parent (pid) once with SIGUSR1 and, once
 * the handler has run, ends the parent's wait with wake(): at once if
 * the call was not restarted (it has returned already), after the
 * parent sleeps again if it was (waiting at most 500 ms for that, so a
 * parent busy elsewhere does not hold it up). Exit status 2: the parent
 * never slept or the handler never ran. */
static long interrupter(int pid, void (*wake)(void))
{
	long c = raw_fork();

	if (c == 0) {
		if (!interrupt_and_wait(pid))
			raw_exit_group(2);
		thr_wait_sleeping(pid, 500);
		wake();
		raw_exit_group(0);
	}
	return c;
}

/* setup(), SIGUSR1 to on_usr1 with flags, and an interrupter of this
 * process: the child's pid, or 0 if a step failed. */
static long interrupted_by_child(int flags, void (*wake)(void))
{
	long kid;

	if (!setup() || catch_usr1(flags) != 0)
		return 0;
	kid = interrupter(raw_getpid(), wake);
	return kid > 0 ? kid : 0;
}

static int pipe_fd[2];

static void write_pipe(void)
{
	raw_write(pipe_fd[1], "x", 1);
}

static void wake_word(void)
{
	sh->word = 1;
	raw_futex((int *)&sh->word, FUTEX_WAKE, 1, NULL);
}

static void nothing(void)
{
}

/* Stops pid and continues it, checking each step through wait4. */
static bool stop_and_continue(long pid, long pause_ms)
{
	int st = 0;

	if (raw_kill(pid, SIGSTOP) != 0 || raw_wait4(pid, &st, WUNTRACED, NULL) != pid ||
	    st != STOPPED(SIGSTOP))
		return false;
	thr_sleep_ms(pause_ms);
	return raw_kill(pid, SIGCONT) == 0 && raw_wait4(pid, &st, WCONTINUED, NULL) == pid &&
	       st == CONTINUED;
}

static long kid_status(long pid)
{
	int st = 0;

	return raw_wait4(pid, &st, 0, NULL) == pid ? st : -1;
}

TEST(sa_restart_read_is_made_again)
{
	char c = 0;
	long kid;

	EXPECT_EQ(raw_pipe(pipe_fd), 0);
	kid = interrupted_by_child(SA_RESTART, write_pipe);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_read(pipe_fd[0], &c, 1), 1);  /* not -EINTR */
	EXPECT_EQ(c, 'x');
	EXPECT_EQ(sh->handled, 1);
	EXPECT_EQ(kid_status(kid), 0);
	raw_close(pipe_fd[0]);
	raw_close(pipe_fd[1]);
}

TEST(without_sa_restart_read_is_eintr)
{
	char c = 0;
	long kid;

	EXPECT_EQ(raw_pipe(pipe_fd), 0);
	kid = interrupted_by_child(0, write_pipe);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_read(pipe_fd[0], &c, 1), -EINTR);
	EXPECT_EQ(sh->handled, 1);
	EXPECT_EQ(kid_status(kid), 0);
	EXPECT_EQ(raw_read(pipe_fd[0], &c, 1), 1);  /* what it wrote */
	raw_close(pipe_fd[0]);
	raw_close(pipe_fd[1]);
}

TEST(sa_restart_wait4_is_made_again)
{
	long kid;

	kid = interrupted_by_child(SA_RESTART, nothing);
	EXPECT(kid, "setup or fork failed");
	/* wait4 sleeps until the child exits: restarted, it reaps it. */
	EXPECT_EQ(kid_status(kid), 0);
	EXPECT_EQ(sh->handled, 1);
}

TEST(without_sa_restart_wait4_is_eintr)
{
	int st;
	long kid;

	kid = interrupted_by_child(0, nothing);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_wait4(kid, &st, 0, NULL), -EINTR);
	EXPECT_EQ(sh->handled, 1);
	EXPECT_EQ(kid_status(kid), 0);
}

TEST(sa_restart_futex_wait_is_made_again)
{
	long kid;

	kid = interrupted_by_child(SA_RESTART, wake_word);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_futex((int *)&sh->word, FUTEX_WAIT, 0, NULL), 0);
	EXPECT_EQ(sh->word, 1);
	EXPECT_EQ(kid_status(kid), 0);
}

TEST(timed_waits_are_eintr_even_with_sa_restart)
{
	struct timespec five = { 5, 0 }, rem = { 0, 0 };
	long kid;

	/* Linux restarts neither a timed FUTEX_WAIT nor nanosleep after a
	 * handler (ERESTART_RESTARTBLOCK): the caller gets -EINTR and, from
	 * nanosleep, what was left. */
	kid = interrupted_by_child(SA_RESTART, nothing);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_futex((int *)&sh->word, FUTEX_WAIT, 0, &five), -EINTR);
	EXPECT_EQ(kid_status(kid), 0);

	kid = interrupted_by_child(SA_RESTART, nothing);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_nanosleep(&five, &rem), -EINTR);
	EXPECT(rem.tv_sec < 5 && (rem.tv_sec > 0 || rem.tv_nsec > 0),
	       "rem %ld.%09ld", (long)rem.tv_sec, rem.tv_nsec);
	EXPECT_EQ(kid_status(kid), 0);
}

TEST(pause_and_poll_are_eintr_even_with_sa_restart)
{
	struct pollfd p;
	long kid;

	kid = interrupted_by_child(SA_RESTART, nothing);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_syscall0(SYS_pause), -EINTR);
	EXPECT_EQ(kid_status(kid), 0);

	EXPECT_EQ(raw_pipe(pipe_fd), 0);
	p.fd = pipe_fd[0];
	p.events = POLLIN;
	p.revents = 0;
	kid = interrupted_by_child(SA_RESTART, nothing);
	EXPECT(kid, "setup or fork failed");
	EXPECT_EQ(raw_syscall3(SYS_poll, (long)&p, 1, -1), -EINTR);
	EXPECT_EQ(kid_status(kid), 0);
	raw_close(pipe_fd[0]);
	raw_close(pipe_fd[1]);
}

/* ---- a stop and SIGCONT: no handler runs, the call goes on ---- */

/* Forks a child that runs fn and exits with its result (0: right);
 * waits until it sleeps, stops and continues it (pause_ms apart), and
 * returns its exit status. finish(), if any, ends its wait, once it is
 * asleep again: a call made again (a read, pause) sleeps again, while
 * one sent back with -EINTR would have returned, and the child's result
 * says so. A timed sleep needs no finish: it ends at its deadline. */
static long stopped_child(int (*fn)(void), long pause_ms, void (*finish)(long pid))
{
	long kid = raw_fork();

	if (kid == 0)
		raw_exit_group(fn());
	if (kid < 0)
		return kid;
	if (!thr_wait_sleeping((int)kid, 5000) || !stop_and_continue(kid, pause_ms)) {
		raw_kill(kid, SIGKILL);
		kid_status(kid);
		return -1;
	}
	if (finish) {
		thr_wait_sleeping((int)kid, 2000);
		finish(kid);
	}
	return kid_status(kid);
}

static int read_one(void)
{
	char c;

	return raw_read(pipe_fd[0], &c, 1) == 1 ? 0 : 1;
}

static void finish_write(long pid)
{
	(void)pid;
	write_pipe();
}

static void finish_usr1(long pid)
{
	raw_kill(pid, SIGUSR1);
}

TEST(a_stopped_read_goes_on)
{
	EXPECT(setup(), "mmap");
	EXPECT_EQ(raw_pipe(pipe_fd), 0);
	EXPECT_EQ(stopped_child(read_one, 20, finish_write), 0);
	raw_close(pipe_fd[0]);
	raw_close(pipe_fd[1]);
}

/* 300 ms asleep, stopped for part of it: the call ends at its deadline,
 * never before, and says 0 (not -EINTR). */
static int sleep_300(void)
{
	struct timespec req = { 0, 300000000 }, rem = { 9, 9 };
	long long t0 = thr_now_ns();
	long r = raw_nanosleep(&req, &rem);

	if (r != 0)
		return 10 + (r == -EINTR);
	return thr_now_ns() - t0 >= 300000000ll ? 0 : 3;
}

TEST(a_stopped_nanosleep_goes_on_to_its_deadline)
{
	EXPECT_EQ(stopped_child(sleep_300, 50, NULL), 0);
}

static int poll_300(void)
{
	struct pollfd p = { pipe_fd[0], POLLIN, 0 };
	long long t0 = thr_now_ns();
	long r = raw_syscall3(SYS_poll, (long)&p, 1, 300);

	if (r != 0)
		return 10 + (r == -EINTR);
	return thr_now_ns() - t0 >= 300000000ll ? 0 : 3;
}

static int futex_300(void)
{
	struct timespec req = { 0, 300000000 };
	long long t0 = thr_now_ns();
	long r = raw_futex((int *)&sh->word, FUTEX_WAIT, 0, &req);

	if (r != -ETIMEDOUT)
		return 10 + (r == -EINTR);
	return thr_now_ns() - t0 >= 300000000ll ? 0 : 3;
}

TEST(a_stopped_poll_and_futex_wait_go_on_to_their_deadline)
{
	EXPECT(setup(), "mmap");
	EXPECT_EQ(raw_pipe(pipe_fd), 0);
	EXPECT_EQ(stopped_child(poll_300, 50, NULL), 0);
	raw_close(pipe_fd[0]);
	raw_close(pipe_fd[1]);
	EXPECT_EQ(stopped_child(futex_300, 50, NULL), 0);
}

/* pause survives the stop and ends at the handler's signal; so does
 * rt_sigsuspend, which then still puts the caller's mask back. */
static int pause_until_usr1(void)
{
	if (catch_usr1(0) != 0)
		return 5;
	return raw_syscall0(SYS_pause) == -EINTR && sh->handled == 1 ? 0 : 1;
}

static int sigsuspend_until_usr1(void)
{
	uint64_t usr1 = 1ull << (SIGUSR1 - 1), none = 0, now = 0;

	if (catch_usr1(0) != 0 || raw_rt_sigprocmask(SIG_BLOCK, &usr1, NULL, 8) != 0)
		return 5;
	if (raw_syscall2(SYS_rt_sigsuspend, (long)&none, 8) != -EINTR || sh->handled != 1)
		return 1;
	if (raw_rt_sigprocmask(SIG_BLOCK, NULL, &now, 8) != 0)
		return 6;
	return now == usr1 ? 0 : 2;                 /* the mask from before */
}

TEST(a_stopped_pause_and_sigsuspend_go_on)
{
	EXPECT(setup(), "mmap");
	EXPECT_EQ(stopped_child(pause_until_usr1, 20, finish_usr1), 0);
	EXPECT(setup(), "mmap");
	EXPECT_EQ(stopped_child(sigsuspend_until_usr1, 20, finish_usr1), 0);
}

/* The sleep restarted through 0, then 0 by hand: -ENOSYS again. */
static int sleep_then_call_0(void)
{
	int r = sleep_300();

	return r ? r : raw_syscall0(SYS_restart_syscall) == -ENOSYS ? 0 : 4;
}

TEST(restart_syscall_by_hand_is_enosys)
{
	/* 0 is not in the seed's table (abi.md section 3), even right
	 * after a restart the kernel made through it. */
	EXPECT_EQ(raw_syscall0(SYS_restart_syscall), -ENOSYS);
	EXPECT_EQ(stopped_child(sleep_then_call_0, 20, NULL), 0);
}

int main(void)
{
	RUN(sa_restart_read_is_made_again);
	RUN(without_sa_restart_read_is_eintr);
	RUN(sa_restart_wait4_is_made_again);
	RUN(without_sa_restart_wait4_is_eintr);
	RUN(sa_restart_futex_wait_is_made_again);
	RUN(timed_waits_are_eintr_even_with_sa_restart);
	RUN(pause_and_poll_are_eintr_even_with_sa_restart);
	RUN(a_stopped_read_goes_on);
	RUN(a_stopped_nanosleep_goes_on_to_its_deadline);
	RUN(a_stopped_poll_and_futex_wait_go_on_to_their_deadline);
	RUN(a_stopped_pause_and_sigsuspend_go_on);
	RUN(restart_syscall_by_hand_is_enosys);
	return t_exit_code();
}
