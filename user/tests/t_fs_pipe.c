/* user/tests/t_fs_pipe.c - pipes (abi.md section 9): pipe and pipe2,
 * data in order, end of file when the last writer closes, EPIPE and
 * SIGPIPE when no reader is left, O_NONBLOCK's EAGAIN, a blocked reader
 * woken by the writer's close, PIPE_BUF-sized writes from several
 * processes never interleaved, a megabyte through a pipe between two
 * processes, a pipe into an executed program and back, and the errors:
 * ESPIPE, EINVAL, EFAULT, EBADF. Booted as init. */
#define T_PROG "t_fs_pipe"
#include "t_fs.h"
#include "signal.h"

TEST(in_order_and_eof)
{
	int p[2] = { -1, -1 };
	char buf[16];
	struct stat64 st;
	long n = 0;

	EXPECT_EQ(raw_pipe(p), 0);
	EXPECT(p[0] == 3 && p[1] == 4, "fds %d %d", p[0], p[1]);
	EXPECT_EQ(raw_write(p[1], "abc", 3), 3);
	EXPECT_EQ(raw_write(p[1], "def", 3), 3);
	EXPECT_EQ(raw_ioctl(p[0], FIONREAD, (long)&n), 0);
	EXPECT_EQ(n, 6);
	EXPECT_EQ(raw_read(p[0], buf, 4), 4);
	EXPECT(!memcmp(buf, "abcd", 4), "read \"%.4s\"", buf);
	EXPECT_EQ(raw_fstat64(p[0], &st), 0);
	EXPECT(S_ISFIFO(st.st_mode), "mode %#o", st.st_mode);
	EXPECT_EQ(raw_lseek(p[0], 0, SEEK_SET), -ESPIPE);
	EXPECT_EQ(raw_pread64(p[0], buf, 1, 0), -ESPIPE);
	EXPECT_EQ(raw_write(p[0], "x", 1), -EBADF);             /* the read end */
	EXPECT_EQ(raw_read(p[1], buf, 1), -EBADF);
	EXPECT_EQ(raw_fsync(p[0]), -EINVAL);
	EXPECT_EQ(raw_close(p[1]), 0);
	EXPECT_EQ(raw_read(p[0], buf, sizeof(buf)), 2);         /* what is left ... */
	EXPECT_EQ(raw_read(p[0], buf, sizeof(buf)), 0);         /* ... then EOF */
	EXPECT_EQ(raw_close(p[0]), 0);
}

TEST(epipe_and_sigpipe)
{
	struct k_sigaction ign = { (void *)1 /* SIG_IGN */, 0, NULL, { 0, 0 } }, old;
	int p[2];
	long pid;
	int st;

	EXPECT_EQ(raw_pipe(p), 0);
	EXPECT_EQ(raw_close(p[0]), 0);
	/* default action: the writer dies of SIGPIPE */
	pid = raw_fork();
	if (pid == 0)
		for (;;)
			raw_exit_group(raw_write(p[1], "x", 1) == -EPIPE ? 50 : 51);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, KILLED(SIGPIPE));
	/* ignored: just -EPIPE */
	EXPECT_EQ(raw_rt_sigaction(SIGPIPE, &ign, &old, 8), 0);
	EXPECT_EQ(raw_write(p[1], "x", 1), -EPIPE);
	EXPECT_EQ(raw_rt_sigaction(SIGPIPE, &old, NULL, 8), 0);
	raw_close(p[1]);
}

TEST(nonblocking)
{
	static char big[70000];
	int p[2];
	long n, total = 0;
	char c;

	EXPECT_EQ(raw_pipe2(p, O_NONBLOCK | O_CLOEXEC), 0);
	EXPECT_EQ(raw_fcntl64(p[0], F_GETFL, 0), O_RDONLY | O_NONBLOCK);
	EXPECT_EQ(raw_fcntl64(p[1], F_GETFD, 0), FD_CLOEXEC);
	EXPECT_EQ(raw_read(p[0], &c, 1), -EAGAIN);
	while ((n = raw_write(p[1], big, sizeof(big))) > 0)
		total += n;
	EXPECT_EQ(n, -EAGAIN);
	EXPECT(total >= 4096 && total < (long)sizeof(big), "a full pipe holds %ld", total);
	EXPECT_EQ(raw_write(p[1], big, 1), -EAGAIN);
	EXPECT_EQ(raw_read(p[0], big, 100), 100);
	/* 200 bytes are at most PIPE_BUF: all or nothing, so not now */
	EXPECT_EQ(raw_write(p[1], big, 200), -EAGAIN);
	EXPECT_EQ(raw_write(p[1], big, 100), 100);
	raw_close(p[0]);
	raw_close(p[1]);
	EXPECT_EQ(raw_pipe2(p, O_APPEND), -EINVAL);
	EXPECT_EQ(raw_pipe(KPTR), -EFAULT);
	EXPECT_EQ(raw_pipe2(NOPTR, 0), -EFAULT);
	EXPECT_EQ(raw_open("/etc/motd", O_RDONLY), 3);          /* no fd was leaked */
	raw_close(3);
}

/* The child sleeps a little, then closes its write end: our blocked
 * read returns 0. */
TEST(close_wakes_a_blocked_reader)
{
	struct timespec ms = { 0, 20000000 };
	int p[2];
	long pid;
	char c;
	int st;

	EXPECT_EQ(raw_pipe(p), 0);
	pid = raw_fork();
	if (pid == 0) {
		raw_close(p[0]);
		raw_nanosleep(&ms, NULL);
		for (;;)
			raw_exit_group(0);
	}
	raw_close(p[1]);
	EXPECT_EQ(raw_read(p[0], &c, 1), 0);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	raw_close(p[0]);
}

/* Four writers, PIPE_BUF bytes of their own letter each time: every
 * PIPE_BUF block read is one letter only (POSIX's atomic writes). */
TEST(pipe_buf_writes_are_atomic)
{
	static char block[PIPE_BUF], got[PIPE_BUF];
	int p[2], st;
	long pids[4];
	int counts[4] = { 0 };

	EXPECT_EQ(raw_pipe(p), 0);
	for (int w = 0; w < 4; w++) {
		pids[w] = raw_fork();
		if (pids[w] == 0) {
			memset(block, 'a' + w, sizeof(block));
			for (int i = 0; i < 25; i++)
				if (raw_write(p[1], block, sizeof(block)) != (long)sizeof(block))
					raw_exit_group(1);
			raw_exit_group(0);
		}
	}
	raw_close(p[1]);
	for (;;) {
		long n = 0, r;
		while (n < (long)sizeof(got) && (r = raw_read(p[0], got + n, sizeof(got) - n)) > 0)
			n += r;
		if (n == 0)
			break;
		EXPECT_EQ(n, (long)sizeof(got));
		for (int i = 1; i < n; i++)
			EXPECT(got[i] == got[0], "block mixes '%c' and '%c'", got[0], got[i]);
		counts[got[0] - 'a']++;
	}
	for (int w = 0; w < 4; w++) {
		EXPECT_EQ(raw_wait4(pids[w], &st, 0, NULL), pids[w]);
		EXPECT_STATUS(st, EXITED(0));
		EXPECT_EQ(counts[w], 25);
	}
	raw_close(p[0]);
}

TEST(a_megabyte_between_processes)
{
	static char buf[3000];
	unsigned sum = 0, want = 0;
	long total = 0, n, pid;
	int p[2], st;

	EXPECT_EQ(raw_pipe(p), 0);
	pid = raw_fork();
	if (pid == 0) {
		raw_close(p[0]);
		for (long i = 0; i < (1 << 20);) {
			long k = (1 << 20) - i < (long)sizeof(buf) ? (1 << 20) - i : (long)sizeof(buf);
			for (long j = 0; j < k; j++)
				buf[j] = (char)((i + j) * 7);
			if (raw_write(p[1], buf, (size_t)k) != k)
				raw_exit_group(1);
			i += k;
		}
		raw_exit_group(0);
	}
	raw_close(p[1]);
	while ((n = raw_read(p[0], buf, sizeof(buf))) > 0) {
		for (long j = 0; j < n; j++)
			sum += (unsigned char)buf[j] * (unsigned)((total + j) % 13 + 1);
		total += n;
	}
	for (long i = 0; i < (1 << 20); i++)
		want += (unsigned char)(i * 7) * (unsigned)(i % 13 + 1);
	EXPECT_EQ(n, 0);
	EXPECT_EQ(total, 1 << 20);
	EXPECT_EQ(sum, want);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	raw_close(p[0]);
}

/* A program with a pipe as its stdin and another as its stdout, as the
 * shell's `|` sets them up. */
TEST(through_an_executed_program)
{
	char *const argv[] = { "t_fs_child", "upper", NULL };
	int in[2], out[2], st;
	char buf[32] = { 0 };
	long pid, n;

	EXPECT_EQ(raw_pipe(in), 0);
	EXPECT_EQ(raw_pipe(out), 0);
	pid = raw_fork();
	if (pid == 0) {
		raw_dup2(in[0], 0);
		raw_dup2(out[1], 1);
		for (int fd = 3; fd < 7; fd++)
			raw_close(fd);
		for (;;)
			raw_exit_group(100 + (int)-raw_execve(sibling("t_fs_child"), argv, NULL));
	}
	raw_close(in[0]);
	raw_close(out[1]);
	EXPECT_EQ(raw_write(in[1], "pipes work\n", 11), 11);
	raw_close(in[1]);
	n = raw_read(out[0], buf, sizeof(buf) - 1);
	EXPECT_EQ(n, 11);
	EXPECT(!strcmp(buf, "PIPES WORK\n"), "got \"%s\"", buf);
	EXPECT_EQ(raw_read(out[0], buf, sizeof(buf)), 0);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	raw_close(out[0]);
}

int main(void)
{
	RUN(in_order_and_eof);
	RUN(epipe_and_sigpipe);
	RUN(nonblocking);
	RUN(close_wakes_a_blocked_reader);
	RUN(pipe_buf_writes_are_atomic);
	RUN(a_megabyte_between_processes);
	RUN(through_an_executed_program);
	return t_exit_code();
}
