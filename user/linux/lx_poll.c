/* user/linux/lx_poll.c - poll(2) as glibc calls it (abi.md section 9,
 * compat/linux/fs/poll.c): pipes readable, writable, hung up and in error; fds
 * not open (POLLNVAL) and negative (skipped); timeouts of 0, some and
 * none; a wake-up by another thread and by another process; a signal
 * (EINTR), a bad pointer (EFAULT), too many fds (EINVAL); regular files,
 * /dev/null, a FIFO (where mkfifo exists) and the console. busybox's shell reads its `read` builtin's
 * input through poll. Each expectation is Linux 6.1's, checked with
 * qemu-i386 on Linux. */
#define _GNU_SOURCE
#define LX_PROG "lx_poll"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

TEST(empty_pipe_not_readable)
{
	struct pollfd p[2];

	if (lx_open_pipe() < 0)
		return;
	p[0] = (struct pollfd){ lx_pipe_fd[0], POLLIN, 0x7777 };
	p[1] = (struct pollfd){ lx_pipe_fd[1], POLLOUT, 0x7777 };
	int r = poll(p, 2, 0);
	lx_close_pipe();
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p[0].revents, 0);
	EXPECT_EQ(p[1].revents, POLLOUT);
}

TEST(data_makes_it_readable)
{
	struct pollfd p = { 0, POLLIN | POLLOUT, 0 };

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[0];
	int w = (int)write(lx_pipe_fd[1], "x", 1);
	int r = poll(&p, 1, 0);
	lx_close_pipe();
	EXPECT_EQ(w, 1);
	EXPECT_EQ(r, 1);
	/* The read end is not writable: POLLOUT is not reported. */
	EXPECT_EQ(p.revents, POLLIN);
}

TEST(full_pipe_not_writable)
{
	static char buf[65536];
	struct pollfd p = { 0, POLLOUT, 0 };
	long n, total = 0;

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[1];
	fcntl(lx_pipe_fd[1], F_SETFL, O_NONBLOCK);
	while ((n = write(lx_pipe_fd[1], buf, 512)) > 0)
		total += n;
	int full = poll(&p, 1, 0);
	short full_ev = p.revents;
	/* Room for a PIPE_BUF write again: writable. */
	for (int k = 0; k < 4096 / 512; k++)
		if (read(lx_pipe_fd[0], buf, 512) != 512)
			total = -1;
	int room = poll(&p, 1, 0);
	lx_close_pipe();
	EXPECT(total > 0, "filling the pipe");
	EXPECT_EQ(full, 0);
	EXPECT_EQ(full_ev, 0);
	EXPECT_EQ(room, 1);
	EXPECT_EQ(p.revents, POLLOUT);
}

TEST(no_writer_is_hangup)
{
	struct pollfd p = { 0, POLLIN, 0 };

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[0];
	close(lx_pipe_fd[1]);
	int r = poll(&p, 1, -1);
	close(lx_pipe_fd[0]);
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p.revents, POLLHUP);      /* reported though not asked for */
}

TEST(no_reader_is_error)
{
	struct pollfd p = { 0, 0, 0 };

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[1];
	close(lx_pipe_fd[0]);
	int r = poll(&p, 1, -1);
	close(lx_pipe_fd[1]);
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p.revents, POLLERR);      /* POLLOUT was not asked for */
}

TEST(bad_and_negative_fds)
{
	struct pollfd p[3] = { { 999, POLLIN, 0 }, { -1, POLLIN, 0x7777 }, { -5, POLLIN, 0 } };

	int r = poll(p, 3, -1);             /* never waits: fd 999 is ready */
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p[0].revents, POLLNVAL);
	EXPECT_EQ(p[1].revents, 0);
	EXPECT_EQ(p[2].revents, 0);
	r = poll(p + 1, 2, 0);
	EXPECT_EQ(r, 0);
}

TEST(same_fd_twice)
{
	struct pollfd p[2];

	if (lx_open_pipe() < 0)
		return;
	p[0] = (struct pollfd){ lx_pipe_fd[0], POLLIN, 0 };
	p[1] = (struct pollfd){ lx_pipe_fd[0], POLLIN, 0 };
	int w = (int)write(lx_pipe_fd[1], "x", 1);
	int r = poll(p, 2, 0);
	lx_close_pipe();
	EXPECT_EQ(w, 1);
	EXPECT_EQ(r, 2);
	EXPECT_EQ(p[0].revents, POLLIN);
	EXPECT_EQ(p[1].revents, POLLIN);
}

TEST(timeout)
{
	struct pollfd p = { 0, POLLIN, 0 };

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[0];
	long long t0 = lx_now_ms();
	int r = poll(&p, 1, 150);
	long long dt = lx_now_ms() - t0;
	lx_close_pipe();
	EXPECT_EQ(r, 0);
	EXPECT_EQ(p.revents, 0);
	EXPECT(dt >= 150, "returned after %lld ms, want >= 150", dt);
	t0 = lx_now_ms();
	r = poll(NULL, 0, 100);             /* no fds: a sleep */
	dt = lx_now_ms() - t0;
	EXPECT_EQ(r, 0);
	EXPECT(dt >= 100, "poll(NULL, 0, 100) returned after %lld ms", dt);
}

static void *late_writer(void *arg)
{
	(void)arg;
	usleep(100000);
	if (write(lx_pipe_fd[1], "y", 1) != 1)
		return (void *)1;
	return NULL;
}

TEST(woken_by_a_thread)
{
	struct pollfd p[2];
	int other[2];
	pthread_t t;

	if (lx_open_pipe() < 0)
		return;
	if (pipe(other) < 0)
		FAIL("pipe: %s", strerror(errno));
	p[0] = (struct pollfd){ other[0], POLLIN, 0 };
	p[1] = (struct pollfd){ lx_pipe_fd[0], POLLIN, 0 };
	pthread_create(&t, NULL, late_writer, NULL);
	int r = poll(p, 2, -1);
	void *ret;
	pthread_join(t, &ret);
	lx_close_pipe();
	close(other[0]);
	close(other[1]);
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p[0].revents, 0);
	EXPECT_EQ(p[1].revents, POLLIN);
	EXPECT(ret == NULL, "the writer's write failed");
}

TEST(woken_by_a_child)
{
	struct pollfd p = { 0, POLLIN, 0 };
	int status;

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[0];
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		_exit(write(lx_pipe_fd[1], "z", 1) == 1 ? 0 : 1);
	}
	int r = poll(&p, 1, 10000);
	waitpid(pid, &status, 0);
	lx_close_pipe();
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p.revents, POLLIN);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig) { (void)sig; alarms++; }

TEST(signal_is_eintr)
{
	struct sigaction sa = { 0 };
	struct itimerval it = { { 0, 0 }, { 0, 100000 } };
	struct pollfd p = { 0, POLLIN, 0 };

	if (lx_open_pipe() < 0)
		return;
	p.fd = lx_pipe_fd[0];
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;           /* poll is never restarted (Linux) */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	errno = 0;
	int r = poll(&p, 1, -1);
	int e = errno;
	lx_close_pipe();
	signal(SIGALRM, SIG_DFL);
	EXPECT_EQ(r, -1);
	EXPECT_EQ(e, EINTR);
	EXPECT_EQ(alarms, 1);
}

TEST(errors)
{
	struct rlimit rl, low;
	static struct pollfd many[65];

	/* Through syscall(): glibc's poll is declared never to get one. */
	errno = 0;
	EXPECT_EQ(syscall(SYS_poll, 16, 1, 0), -1);
	EXPECT_EQ(errno, EFAULT);
	/* A read-only pollfd array: the revents cannot be written back. */
	errno = 0;
	EXPECT_EQ(syscall(SYS_poll, lx_now_ms, 1, 0), -1);
	EXPECT_EQ(errno, EFAULT);
	/* More fds than RLIMIT_NOFILE allows. */
	for (unsigned k = 0; k < 65; k++)
		many[k].fd = -1;
	EXPECT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	low = (struct rlimit){ 64, rl.rlim_max };
	EXPECT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
	errno = 0;
	int over = poll(many, 65, 0), e = errno;
	int at = poll(many, 64, 0);
	setrlimit(RLIMIT_NOFILE, &rl);
	EXPECT_EQ(over, -1);
	EXPECT_EQ(e, EINVAL);
	EXPECT_EQ(at, 0);
}

TEST(files_are_always_ready)
{
	struct pollfd p[2] = { { 0, POLLIN | POLLOUT, 0 }, { 0, POLLIN | POLLOUT, 0 } };

	p[0].fd = open("/lx_poll_file", O_RDWR | O_CREAT | O_TRUNC, 0644);
	p[1].fd = open("/dev/null", O_RDWR);
	int r = poll(p, 2, -1);
	close(p[0].fd);
	close(p[1].fd);
	unlink("/lx_poll_file");
	EXPECT(p[0].fd >= 0 && p[1].fd >= 0, "open failed");
	EXPECT_EQ(r, 2);
	EXPECT_EQ(p[0].revents, POLLIN | POLLOUT);
	EXPECT_EQ(p[1].revents, POLLIN | POLLOUT);
}

TEST(fifo)
{
	const char *path = "/lx_poll_fifo";
	struct pollfd p = { 0, POLLIN, 0 };
	char c;

	unlink(path);
	if (mkfifo(path, 0600) < 0) {
		if (errno == ENOSYS) {
			printf("lx_poll: no mkfifo (ENOSYS): FIFO case not checked\n");
			return;
		}
		FAIL("mkfifo: %s", strerror(errno));
	}
	int rd = open(path, O_RDONLY | O_NONBLOCK);     /* no writer: no wait */
	int wr = open(path, O_WRONLY);
	p.fd = rd;
	int empty = poll(&p, 1, 0);
	short empty_ev = p.revents;
	int w = (int)write(wr, "x", 1);
	int data = poll(&p, 1, 0);
	short data_ev = p.revents;
	struct pollfd q = { wr, POLLOUT, 0 };
	int out = poll(&q, 1, 0);
	close(wr);
	int hup = poll(&p, 1, 0);
	short hup_ev = p.revents;
	int r = (int)read(rd, &c, 1);
	int gone = poll(&p, 1, 0);
	short gone_ev = p.revents;
	close(rd);
	unlink(path);
	EXPECT(rd >= 0 && wr >= 0, "open: %s", strerror(errno));
	EXPECT_EQ(empty, 0);
	EXPECT_EQ(empty_ev, 0);
	EXPECT_EQ(w, 1);
	EXPECT_EQ(data, 1);
	EXPECT_EQ(data_ev, POLLIN);
	EXPECT_EQ(out, 1);
	EXPECT_EQ(q.revents, POLLOUT);
	EXPECT_EQ(hup, 1);
	EXPECT_EQ(hup_ev, POLLIN | POLLHUP);    /* the byte is still there */
	EXPECT_EQ(r, 1);
	EXPECT_EQ(gone, 1);
	EXPECT_EQ(gone_ev, POLLHUP);
}

TEST(console)
{
	struct pollfd p[2] = { { 0, POLLIN, 0 }, { 1, POLLOUT, 0 } };

	/* As init, fds 0 and 1 are the console, and nobody types. */
	if (!isatty(0) || !isatty(1)) {
		printf("lx_poll: stdin or stdout is not a terminal: console case not checked\n");
		return;
	}
	int r = poll(p, 2, 50);
	EXPECT_EQ(r, 1);
	EXPECT_EQ(p[0].revents, 0);
	EXPECT_EQ(p[1].revents, POLLOUT);
}

int main(void)
{
	RUN(empty_pipe_not_readable);
	RUN(data_makes_it_readable);
	RUN(full_pipe_not_writable);
	RUN(no_writer_is_hangup);
	RUN(no_reader_is_error);
	RUN(bad_and_negative_fds);
	RUN(same_fd_twice);
	RUN(timeout);
	RUN(woken_by_a_thread);
	RUN(woken_by_a_child);
	RUN(signal_is_eintr);
	RUN(errors);
	RUN(files_are_always_ready);
	RUN(fifo);
	RUN(console);
	return lx_exit_code();
}
