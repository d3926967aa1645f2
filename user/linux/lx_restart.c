/* user/linux/lx_restart.c - system-call restart as a glibc program sees
 * it (abi.md section 7, docs/signals.md): glibc's signal() has BSD
 * semantics (SA_RESTART), so a read it interrupts goes on; a handler
 * installed by sigaction without SA_RESTART makes the read fail with
 * EINTR; a nanosleep or select stopped and continued ends at its
 * deadline and returns 0. Checked on Linux with qemu-i386.
 *
 * A child process does the interrupting, and waits, through
 * /proc/PID/stat's state letter, until the parent is asleep in the call
 * before each step, so that the signal is sure to find it there. */
#define _GNU_SOURCE
#define LX_PROG "lx_restart"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int *handled;   /* in a MAP_SHARED page: both see it */

static void on_usr1(int sig)
{
	(void)sig;
	__atomic_add_fetch(handled, 1, __ATOMIC_SEQ_CST);
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* The state letter of pid in /proc/PID/stat ("pid (comm) S ..."). */
static char state_of(pid_t pid)
{
	char path[32], buf[256], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY)) < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Waits up to ms for pid to be asleep (S). */
static int wait_asleep(pid_t pid, long ms)
{
	long long end = lx_now_ms() + ms;

	while (state_of(pid) != 'S') {
		if (lx_now_ms() > end)
			return 0;
		nap_ms(1);
	}
	return 1;
}

/* Forks a child that interrupts this process's read of fds[0] with
 * SIGUSR1, waits for the handler to have run, then (once this process
 * is asleep again, or 500 ms on) writes one byte to fds[1]. */
static pid_t interrupter(int fds[2])
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		long long end = lx_now_ms() + 5000;

		if (!wait_asleep(parent, 5000) || kill(parent, SIGUSR1) != 0)
			_exit(2);
		while (!*handled && lx_now_ms() < end)
			nap_ms(1);
		wait_asleep(parent, 500);
		_exit(write(fds[1], "x", 1) == 1 ? 0 : 3);
	}
	return pid;
}

static int setup(int fds[2])
{
	if (!handled) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 0;
		handled = p;
	}
	*handled = 0;
	return pipe(fds) == 0;
}

TEST(glibc_signal_restarts_read)
{
	int fds[2], st;
	char c = 0;
	pid_t pid;

	EXPECT(setup(fds), "setup: %s", strerror(errno));
	EXPECT(signal(SIGUSR1, on_usr1) != SIG_ERR, "signal: %s", strerror(errno));
	pid = interrupter(fds);
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(read(fds[0], &c, 1), 1);          /* not -1 EINTR */
	EXPECT_EQ(c, 'x');
	EXPECT_EQ(*handled, 1);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	close(fds[0]);
	close(fds[1]);
}

TEST(without_sa_restart_read_fails_with_eintr)
{
	struct sigaction sa;
	int fds[2], st;
	char c = 0;
	pid_t pid;

	EXPECT(setup(fds), "setup: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;        /* sa_flags 0: no SA_RESTART */
	EXPECT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	pid = interrupter(fds);
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(read(fds[0], &c, 1), -1);
	EXPECT_EQ(errno, EINTR);
	EXPECT_EQ(*handled, 1);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	EXPECT_EQ(read(fds[0], &c, 1), 1);          /* the byte came after */
	signal(SIGUSR1, SIG_DFL);
	close(fds[0]);
	close(fds[1]);
}

TEST(nanosleep_survives_a_stop)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec req = { 0, 400000000 }, rem = { 0, 0 };
		long long t0 = lx_now_ms();
		int r = nanosleep(&req, &rem);

		_exit(r != 0 ? 1 : lx_now_ms() - t0 < 400 ? 2 : 0);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT(wait_asleep(pid, 5000), "the child never slept");
	EXPECT_EQ(kill(pid, SIGSTOP), 0);
	EXPECT_EQ(waitpid(pid, &st, WUNTRACED), pid);
	EXPECT(WIFSTOPPED(st), "status %#x", st);
	nap_ms(50);
	EXPECT_EQ(kill(pid, SIGCONT), 0);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x (1: EINTR, 2: early)", st);
}

/* select made again after the stop waits only the time it had left,
 * which it wrote back into its timeval (Linux's poll_select_finish). */
TEST(select_survives_a_stop)
{
	int fds[2], st;
	pid_t pid;

	EXPECT(pipe(fds) == 0, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		struct timeval tv = { 0, 400000 };
		long long t0 = lx_now_ms();
		fd_set rd;
		int r;

		FD_ZERO(&rd);
		FD_SET(fds[0], &rd);
		r = select(fds[0] + 1, &rd, NULL, NULL, &tv);
		_exit(r != 0 ? 1 : lx_now_ms() - t0 < 400 ? 2 : 0);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT(wait_asleep(pid, 5000), "the child never slept");
	EXPECT_EQ(kill(pid, SIGSTOP), 0);
	EXPECT_EQ(waitpid(pid, &st, WUNTRACED), pid);
	nap_ms(50);
	EXPECT_EQ(kill(pid, SIGCONT), 0);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	close(fds[0]);
	close(fds[1]);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x (1: EINTR, 2: early)", st);
}

TEST(restart_syscall_by_hand_is_eintr)
{
	/* Nothing to restart: Linux's do_no_restart_syscall. (qemu-i386
	 * answers this one itself, -ENOSYS: Linux 6.1's kernel/signal.c
	 * sys_restart_syscall is the reference here.) */
	errno = 0;
	EXPECT_EQ(syscall(SYS_restart_syscall), -1);
	EXPECT_EQ(errno, EINTR);
}

int main(void)
{
	RUN(glibc_signal_restarts_read);
	RUN(without_sa_restart_read_fails_with_eintr);
	RUN(nanosleep_survives_a_stop);
	RUN(select_survives_a_stop);
	RUN(restart_syscall_by_hand_is_eintr);
	return lx_exit_code();
}
