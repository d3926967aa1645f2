/* user/linux/lx_select.c - the select calls and ppoll (abi.md section 9,
 * compat/linux/fs/select.c, compat/linux/fs/poll.c) as glibc programs make them:
 * glibc's select() and pselect(), and each system call by its number
 * (select 82 with its argument struct, _newselect 142, pselect6 308 and
 * pselect6_time64 413, ppoll 309 and ppoll_time64 414). Readable,
 * writable and hung-up pipes, the count of bits, the time left written
 * back, the temporary signal mask, and Linux's errors (EBADF, EINVAL,
 * EFAULT). Each expectation is Linux 6.1's, checked with qemu-i386 on
 * Linux. */
#define _GNU_SOURCE
#define LX_PROG "lx_select"
#include "lx.h"
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* The kernel's 32-bit struct timespec and the time64 one, for the calls
 * made by number (glibc's own struct timespec may be either). */
struct ts32 {
	int32_t tv_sec, tv_nsec;
};
struct ts64 {
	int64_t tv_sec, tv_nsec;
};
struct tv32 {
	int32_t tv_sec, tv_usec;
};

static volatile sig_atomic_t usr1s;

static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
}

TEST(empty_pipe_times_out_and_clears_the_sets)
{
	fd_set rd, wr;
	struct tv32 tv = { 0, 50000 };
	long long t0;
	long r;

	if (lx_open_pipe() < 0)
		return;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(lx_pipe_fd[0], &rd);
	t0 = lx_now_ms();
	r = syscall(SYS__newselect, lx_pipe_fd[0] + 1, &rd, &wr, NULL, &tv);
	lx_close_pipe();
	EXPECT_EQ(r, 0);
	EXPECT(lx_now_ms() - t0 >= 50, "returned after %lld ms", lx_now_ms() - t0);
	EXPECT(!FD_ISSET(lx_pipe_fd[0], &rd), "read set not cleared");
	EXPECT(tv.tv_sec == 0 && tv.tv_usec == 0, "time left %d.%06d", tv.tv_sec, tv.tv_usec);
}

TEST(readable_and_writable_count_per_set)
{
	fd_set rd, wr;
	struct timeval tv = { 5, 0 };
	int r;

	if (lx_open_pipe() < 0)
		return;
	EXPECT_EQ(write(lx_pipe_fd[1], "x", 1), 1);
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(lx_pipe_fd[0], &rd);
	FD_SET(lx_pipe_fd[1], &rd);            /* a write end is never readable */
	FD_SET(lx_pipe_fd[0], &wr);            /* nor a read end writable */
	FD_SET(lx_pipe_fd[1], &wr);
	r = select((lx_pipe_fd[0] > lx_pipe_fd[1] ? lx_pipe_fd[0] : lx_pipe_fd[1]) + 1, &rd, &wr, NULL, &tv);
	lx_close_pipe();
	EXPECT_EQ(r, 2);
	EXPECT(FD_ISSET(lx_pipe_fd[0], &rd) && !FD_ISSET(lx_pipe_fd[1], &rd), "read set wrong");
	EXPECT(FD_ISSET(lx_pipe_fd[1], &wr) && !FD_ISSET(lx_pipe_fd[0], &wr), "write set wrong");
}

TEST(no_writer_is_readable)
{
	fd_set rd, ex;
	struct tv32 tv = { 0, 0 };

	if (lx_open_pipe() < 0)
		return;
	close(lx_pipe_fd[1]);
	FD_ZERO(&rd);
	FD_ZERO(&ex);
	FD_SET(lx_pipe_fd[0], &rd);
	FD_SET(lx_pipe_fd[0], &ex);            /* hang-up is not an exception */
	EXPECT_EQ(syscall(SYS__newselect, lx_pipe_fd[0] + 1, &rd, NULL, &ex, &tv), 1);
	close(lx_pipe_fd[0]);
	EXPECT(FD_ISSET(lx_pipe_fd[0], &rd) && !FD_ISSET(lx_pipe_fd[0], &ex), "sets wrong");
}

TEST(old_select_takes_a_struct)
{
	fd_set wr;
	struct tv32 tv = { 1, 0 };
	struct {
		int32_t n;
		uint32_t in, out, ex, tv;
	} a;

	if (lx_open_pipe() < 0)
		return;
	FD_ZERO(&wr);
	FD_SET(lx_pipe_fd[1], &wr);
	a.n = lx_pipe_fd[1] + 1;
	a.in = 0;
	a.out = (uint32_t)(uintptr_t)&wr;
	a.ex = 0;
	a.tv = (uint32_t)(uintptr_t)&tv;
	EXPECT_EQ(syscall(SYS_select, &a), 1);
	lx_close_pipe();
	EXPECT(FD_ISSET(lx_pipe_fd[1], &wr), "write set wrong");
	EXPECT_EQ(syscall(SYS_select, (void *)8), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(errors)
{
	fd_set rd;
	struct tv32 tv = { 0, 0 }, neg = { -1, 0 }, negus = { 0, -1 };

	FD_ZERO(&rd);
	FD_SET(200, &rd);               /* not open */
	errno = 0;
	EXPECT_EQ(syscall(SYS__newselect, 201, &rd, NULL, NULL, &tv), -1);
	EXPECT_EQ(errno, EBADF);
	FD_ZERO(&rd);
	FD_SET(0, &rd);
	EXPECT_EQ(syscall(SYS__newselect, -1, &rd, NULL, NULL, &tv), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS__newselect, 1, &rd, NULL, NULL, &neg), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS__newselect, 1, &rd, NULL, NULL, &negus), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS__newselect, 1, (void *)8, NULL, NULL, &tv), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS__newselect, 1, &rd, NULL, NULL, (void *)8), -1);
	EXPECT_EQ(errno, EFAULT);
	/* No fds at all: a sleep. */
	EXPECT_EQ(syscall(SYS__newselect, 0, NULL, NULL, NULL, &(struct tv32){ 0, 2000 }), 0);
	/* ppoll: a mask of the wrong size. */
	uint64_t mask = 0;
	struct ts32 ts = { 0, 0 };
	EXPECT_EQ(syscall(SYS_ppoll, NULL, 0, &ts, &mask, 4), -1);
	EXPECT_EQ(errno, EINVAL);
	struct ts32 badns = { 0, 1000000000 };
	EXPECT_EQ(syscall(SYS_ppoll, NULL, 0, &badns, NULL, 8), -1);
	EXPECT_EQ(errno, EINVAL);
}

/* SIGUSR1 is blocked and pending; the call's temporary mask lets it in:
 * the handler runs, the call says EINTR, and the old mask is back. */
static void setup_pending_usr1(sigset_t *old)
{
	sigset_t b;

	usr1s = 0;
	signal(SIGUSR1, on_usr1);
	sigemptyset(&b);
	sigaddset(&b, SIGUSR1);
	sigprocmask(SIG_BLOCK, &b, old);
	raise(SIGUSR1);
}

static int usr1_still_blocked(void)
{
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, SIGUSR1);
}

/* The call (result r) let the pending SIGUSR1 in: -1 EINTR, the handler
 * ran once, the mask from before is back. Then everything is undone. */
static void expect_usr1_handled(int r, const sigset_t *old)
{
	int err = errno, blocked = usr1_still_blocked();

	sigprocmask(SIG_SETMASK, old, NULL);
	signal(SIGUSR1, SIG_DFL);
	EXPECT_EQ(r, -1);
	EXPECT_EQ(err, EINTR);
	EXPECT_EQ(usr1s, 1);
	EXPECT(blocked, "the old mask is not back");
}

TEST(pselect_mask_lets_a_signal_in)
{
	sigset_t old, none;
	struct timespec ts = { 5, 0 };
	fd_set rd;
	int r;

	if (lx_open_pipe() < 0)
		return;
	setup_pending_usr1(&old);
	sigemptyset(&none);
	FD_ZERO(&rd);
	FD_SET(lx_pipe_fd[0], &rd);
	errno = 0;
	r = pselect(lx_pipe_fd[0] + 1, &rd, NULL, NULL, &ts, &none);
	lx_close_pipe();
	expect_usr1_handled(r, &old);
}

TEST(pselect6_by_number_both_timespecs)
{
	sigset_t old;
	fd_set rd;
	struct ts32 t32 = { 0, 30000000 };
	struct ts64 t64 = { 0, 30000000 };
	uint64_t none = 0;
	struct {
		uint32_t ss, len;
	} sig = { (uint32_t)(uintptr_t)&none, 8 };

	if (lx_open_pipe() < 0)
		return;
	FD_ZERO(&rd);
	FD_SET(lx_pipe_fd[0], &rd);
	EXPECT_EQ(syscall(SYS_pselect6, lx_pipe_fd[0] + 1, &rd, NULL, NULL, &t32, NULL), 0);
	EXPECT(t32.tv_sec == 0 && t32.tv_nsec == 0, "time left %d.%09d", t32.tv_sec, t32.tv_nsec);
	FD_SET(lx_pipe_fd[0], &rd);
	EXPECT_EQ(syscall(SYS_pselect6_time64, lx_pipe_fd[0] + 1, &rd, NULL, NULL, &t64, NULL), 0);
	EXPECT(t64.tv_sec == 0 && t64.tv_nsec == 0, "time left (time64)");
	setup_pending_usr1(&old);
	FD_SET(lx_pipe_fd[0], &rd);
	t32.tv_sec = 5;
	EXPECT_EQ(syscall(SYS_pselect6, lx_pipe_fd[0] + 1, &rd, NULL, NULL, &t32, &sig), -1);
	EXPECT_EQ(errno, EINTR);
	EXPECT_EQ(usr1s, 1);
	EXPECT(t32.tv_sec <= 5 && (t32.tv_sec > 0 || t32.tv_nsec > 0), "time left %d.%09d",
	       t32.tv_sec, t32.tv_nsec);
	EXPECT(usr1_still_blocked(), "the old mask is not back");
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);
	lx_close_pipe();
}

TEST(ppoll_mask_and_time_left)
{
	sigset_t old, none;
	struct pollfd p;
	struct timespec ts = { 5, 0 };
	struct ts64 t64 = { 0, 20000000 };
	int r;

	if (lx_open_pipe() < 0)
		return;
	p = (struct pollfd){ lx_pipe_fd[0], POLLIN, 0 };
	EXPECT_EQ(syscall(SYS_ppoll_time64, &p, 1, &t64, NULL, 8), 0);
	EXPECT(t64.tv_sec == 0 && t64.tv_nsec == 0, "time left (time64)");
	EXPECT_EQ(write(lx_pipe_fd[1], "x", 1), 1);
	EXPECT_EQ(ppoll(&p, 1, &ts, NULL), 1);
	EXPECT_EQ(p.revents, POLLIN);
	EXPECT(ts.tv_sec <= 5 && ts.tv_sec >= 4, "time left %ld s", (long)ts.tv_sec);
	char c;
	EXPECT_EQ(read(lx_pipe_fd[0], &c, 1), 1);
	setup_pending_usr1(&old);
	sigemptyset(&none);
	errno = 0;
	r = ppoll(&p, 1, NULL, &none);
	lx_close_pipe();
	expect_usr1_handled(r, &old);
}

TEST(woken_by_another_process)
{
	fd_set rd;
	pid_t pid;

	if (lx_open_pipe() < 0)
		return;
	pid = fork();
	if (pid == 0) {
		struct timespec d = { 0, 50000000 };
		nanosleep(&d, NULL);
		_exit(write(lx_pipe_fd[1], "x", 1) == 1 ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	FD_ZERO(&rd);
	FD_SET(lx_pipe_fd[0], &rd);
	EXPECT_EQ(select(lx_pipe_fd[0] + 1, &rd, NULL, NULL, NULL), 1);
	EXPECT(FD_ISSET(lx_pipe_fd[0], &rd), "read set wrong");
	lx_close_pipe();
}

int main(void)
{
	RUN(empty_pipe_times_out_and_clears_the_sets);
	RUN(readable_and_writable_count_per_set);
	RUN(no_writer_is_readable);
	RUN(old_select_takes_a_struct);
	RUN(errors);
	RUN(pselect_mask_lets_a_signal_in);
	RUN(pselect6_by_number_both_timespecs);
	RUN(ppoll_mask_and_time_left);
	RUN(woken_by_another_process);
	return lx_exit_code();
}
