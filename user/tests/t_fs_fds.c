/* user/tests/t_fs_fds.c - descriptors as such (abi.md section 9): dup,
 * dup2, dup3, fcntl64 (F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD,
 * F_GETFL, F_SETFL), close_range, inheritance across fork and execve
 * with O_CLOEXEC, ioctl's -ENOTTY, and RLIMIT_NOFILE: Linux's 1024 by
 * default, -EMFILE there, a closed fd reusable, the limit changed by
 * setrlimit and prlimit64 (getrlimit, ugetrlimit), and the limits the
 * process's, not a thread's. Booted as init. */
#define T_PROG "t_fs_fds"
#include "t_fs.h"
#include "sys/resource.h"
#include "pthread.h"

#define MOTD "/etc/motd"

TEST(dup_family)
{
	char a[4], b[4];
	long fd = raw_open(MOTD, O_RDONLY), d;

	EXPECT_EQ(fd, 3);
	d = raw_dup(fd);
	EXPECT_EQ(d, 4);
	EXPECT_EQ(raw_read(fd, a, 3), 3);
	EXPECT_EQ(raw_read(d, b, 3), 3);                /* one shared offset */
	EXPECT(memcmp(a, b, 3) != 0, "dup'ed fds read the same bytes");
	EXPECT_EQ(raw_dup2(fd, 10), 10);
	EXPECT_EQ(raw_dup2(fd, 10), 10);                /* replaces itself */
	EXPECT_EQ(raw_dup2(10, 10), 10);
	EXPECT_EQ(raw_dup2(55, 55), -EBADF);
	EXPECT_EQ(raw_dup2(fd, -1), -EBADF);
	EXPECT_EQ(raw_dup2(fd, 5000), -EBADF);          /* past RLIMIT_NOFILE */
	EXPECT_EQ(raw_dup3(fd, 10, 0), 10);
	EXPECT_EQ(raw_dup3(fd, fd, 0), -EINVAL);
	EXPECT_EQ(raw_dup3(fd, 11, O_RDONLY | 1), -EINVAL);
	EXPECT_EQ(raw_dup3(fd, 11, O_CLOEXEC), 11);
	EXPECT_EQ(raw_fcntl64(11, F_GETFD, 0), FD_CLOEXEC);
	EXPECT_EQ(raw_fcntl64(10, F_GETFD, 0), 0);
	EXPECT_EQ(raw_dup(77), -EBADF);
	EXPECT_EQ(raw_dup2(fd, 1000), 1000);            /* the table grows */
	EXPECT_EQ(raw_close(1000), 0);
	for (int i = 4; i <= 11; i++)
		raw_close(i);
	raw_close(fd);
}

/* close_range(first, last, flags) (Linux 5.9, glibc's closefrom). */
#define CLOSE_RANGE_UNSHARE (1 << 1)
#define CLOSE_RANGE_CLOEXEC (1 << 2)

static long close_range(unsigned first, unsigned last, unsigned flags)
{
	return raw_syscall3(SYS_close_range, (long)first, (long)last, (long)flags);
}

/* A child sharing our fd table (CLONE_FILES, as a thread would) closes
 * fd 3, having unshared the table first or not: 0 if it saw fd 3 go. */
static long close_3_in_a_sharer(unsigned flags)
{
	int st = -1;
	long pid = raw_clone(CLONE_FILES | SIGCHLD, NULL, NULL, NULL, NULL);

	if (pid == 0)
		raw_exit_group(close_range(3, 3, flags) == 0 &&
			       raw_fcntl64(3, F_GETFD, 0) == -EBADF ? 0 : 1);
	if (pid < 0 || raw_wait4(pid, &st, 0, NULL) != pid)
		return -1;
	return st;
}

TEST(close_range_closes_or_marks_a_range)
{
	long fd = raw_open(MOTD, O_RDONLY);

	EXPECT_EQ(fd, 3);
	EXPECT(raw_dup2(fd, 5) == 5 && raw_dup2(fd, 6) == 6 && raw_dup2(fd, 9) == 9 &&
	       raw_dup2(fd, 200) == 200, "dup2 failed");
	EXPECT_EQ(close_range(5, 6, CLOSE_RANGE_CLOEXEC), 0);
	EXPECT_EQ(raw_fcntl64(5, F_GETFD, 0), FD_CLOEXEC);
	EXPECT_EQ(raw_fcntl64(6, F_GETFD, 0), FD_CLOEXEC);
	EXPECT_EQ(raw_fcntl64(9, F_GETFD, 0), 0);
	EXPECT_EQ(close_range(5, 9, 0), 0);
	EXPECT_EQ(raw_fcntl64(5, F_GETFD, 0), -EBADF);
	EXPECT_EQ(raw_fcntl64(6, F_GETFD, 0), -EBADF);
	EXPECT_EQ(raw_fcntl64(9, F_GETFD, 0), -EBADF);
	EXPECT_EQ(raw_fcntl64(200, F_GETFD, 0), 0);
	EXPECT_EQ(close_range(7, 6, 0), -EINVAL);
	EXPECT_EQ(close_range(0, ~0u, 1), -EINVAL);             /* no such flag */
	EXPECT_EQ(close_range(500, ~0u, 0), 0);                 /* none open there */
	EXPECT_EQ(close_range(4, ~0u, 0), 0);
	EXPECT_EQ(raw_fcntl64(200, F_GETFD, 0), -EBADF);
	EXPECT_EQ(raw_fcntl64(3, F_GETFD, 0), 0);
	/* Shared: UNSHARE closes the sharer's own copy; without, ours. */
	EXPECT_EQ(close_3_in_a_sharer(CLOSE_RANGE_UNSHARE), EXITED(0));
	EXPECT_EQ(raw_fcntl64(3, F_GETFD, 0), 0);
	EXPECT_EQ(close_3_in_a_sharer(0), EXITED(0));
	EXPECT_EQ(raw_fcntl64(3, F_GETFD, 0), -EBADF);
}

TEST(fcntl_commands)
{
	long fd = raw_open(MOTD, O_RDONLY | O_NONBLOCK), w;

	EXPECT_EQ(raw_fcntl64(fd, F_GETFL, 0), O_RDONLY | O_NONBLOCK);
	EXPECT_EQ(raw_fcntl64(fd, F_SETFL, O_APPEND | O_WRONLY | O_CREAT), 0);
	EXPECT_EQ(raw_fcntl64(fd, F_GETFL, 0), O_RDONLY | O_APPEND);   /* only those two */
	EXPECT_EQ(raw_fcntl64(fd, F_DUPFD, 20), 20);
	EXPECT_EQ(raw_fcntl64(fd, F_DUPFD, 20), 21);
	EXPECT_EQ(raw_fcntl64(fd, F_DUPFD_CLOEXEC, 0), 4);
	EXPECT_EQ(raw_fcntl64(4, F_GETFD, 0), FD_CLOEXEC);
	EXPECT_EQ(raw_fcntl64(4, F_SETFD, 0), 0);
	EXPECT_EQ(raw_fcntl64(4, F_GETFD, 0), 0);
	EXPECT_EQ(raw_fcntl64(fd, F_DUPFD, -1), -EINVAL);
	EXPECT_EQ(raw_fcntl64(fd, F_DUPFD, 1 << 20), -EINVAL);
	EXPECT_EQ(raw_fcntl64(fd, 9999, 0), -EINVAL);
	EXPECT_EQ(raw_fcntl64(77, F_GETFD, 0), -EBADF);
	EXPECT_EQ(raw_syscall3(SYS_fcntl, fd, F_GETFL, 0), O_RDONLY | O_APPEND);
	/* ioctl: nothing on a file but FIONREAD; a bad fd first */
	EXPECT_EQ(raw_ioctl(fd, 0x5401, 0), -ENOTTY);           /* TCGETS */
	EXPECT_EQ(raw_ioctl(77, 0x5401, 0), -EBADF);
	w = 0;
	EXPECT_EQ(raw_ioctl(fd, FIONREAD, (long)&w), 0);
	EXPECT(w > 100, "FIONREAD on the motd: %ld", w);
	EXPECT_EQ(raw_ioctl(fd, FIONREAD, (long)KPTR), -EFAULT);
	raw_close(4);
	raw_close(20);
	raw_close(21);
	raw_close(fd);
}

static int run_child(char *const argv[])
{
	long pid = raw_fork();
	int st = -1;

	if (pid == 0)
		for (;;)
			raw_exit_group(100 + (int)-raw_execve(sibling("t_fs_child"), argv, NULL));
	raw_wait4(pid, &st, 0, NULL);
	return st;
}

TEST(inherited_across_fork_and_exec)
{
	char *const open_args[] = { "t_fs_child", "open", "0", "1", "2", "3", "5", NULL };
	char *const closed_args[] = { "t_fs_child", "closed", "4", "6", "7", NULL };
	long a = raw_open(MOTD, O_RDONLY);
	long b = raw_open(MOTD, O_RDONLY | O_CLOEXEC);

	EXPECT(a == 3 && b == 4, "fds %ld %ld", a, b);
	EXPECT_EQ(raw_dup3(a, 5, 0), 5);
	EXPECT_EQ(raw_dup3(a, 6, O_CLOEXEC), 6);
	EXPECT_EQ(raw_fcntl64(raw_dup2(a, 7), F_SETFD, FD_CLOEXEC), 0);
	EXPECT_STATUS(run_child(open_args), EXITED(0));
	EXPECT_STATUS(run_child(closed_args), EXITED(0));
	/* the parent keeps them all */
	for (int fd = 3; fd <= 7; fd++)
		EXPECT(raw_fcntl64(fd, F_GETFD, 0) >= 0, "fd %d closed in the parent", fd);
	for (int fd = 3; fd <= 7; fd++)
		raw_close(fd);
}

/* Opens to the limit in a child: -EMFILE at exactly limit fds, a closed
 * one reused, then exits (the kernel closes them all). */
static int open_to_the_limit(long limit)
{
	long fd = 0, last = -1;

	while ((fd = raw_open(MOTD, O_RDONLY)) >= 0)
		last = fd;
	CHECK(fd == -EMFILE);
	CHECK(last == limit - 1);
	CHECK(raw_dup(0) == -EMFILE && raw_fcntl64(0, F_DUPFD, 0) == -EMFILE);
	int p[2];
	CHECK(raw_pipe(p) == -EMFILE);
	CHECK(raw_close(limit / 2) == 0 && raw_open(MOTD, O_RDONLY) == limit / 2);
	CHECK(raw_dup2(0, (int)limit) == -EBADF);
	return 0;
}

TEST(rlimit_nofile_default_1024)
{
	struct rlimit r;
	struct rlimit64 r64;

	EXPECT_EQ(raw_ugetrlimit(RLIMIT_NOFILE, &r), 0);
	EXPECT(r.rlim_cur == 1024 && r.rlim_max == 4096, "NOFILE %lu/%lu", r.rlim_cur, r.rlim_max);
	EXPECT_EQ(raw_getrlimit(RLIMIT_NOFILE, &r), 0);
	EXPECT_EQ(r.rlim_cur, 1024);
	EXPECT_EQ(raw_prlimit64(0, RLIMIT_NOFILE, NULL, &r64), 0);
	EXPECT(r64.rlim_cur == 1024 && r64.rlim_max == 4096, "prlimit64 %llu", r64.rlim_cur);
	EXPECT_EQ(raw_ugetrlimit(RLIMIT_STACK, &r), 0);
	EXPECT_EQ(r.rlim_cur, 8u << 20);
	EXPECT_EQ(raw_ugetrlimit(RLIMIT_AS, &r), 0);
	EXPECT_EQ(r.rlim_cur, RLIM_INFINITY);
	EXPECT_EQ(raw_getrlimit(RLIMIT_AS, &r), 0);
	EXPECT_EQ(r.rlim_cur, 0x7fffffff);              /* the old call's clamp */
	EXPECT_STATUS(child_status(open_to_the_limit, 1024), EXITED(0));
	/* and the kernel still answers */
	long fd = raw_open(MOTD, O_RDONLY);
	EXPECT_EQ(fd, 3);
	raw_close(fd);
}

static int lowered_limit(long arg)
{
	struct rlimit r = { 10, 20 };

	(void)arg;
	CHECK(raw_setrlimit(RLIMIT_NOFILE, &r) == 0);
	return open_to_the_limit(10);
}

static int raised_limit(long arg)
{
	struct rlimit64 n = { 3000, 3000 }, o;

	(void)arg;
	CHECK(raw_prlimit64(0, RLIMIT_NOFILE, &n, &o) == 0 && o.rlim_cur == 1024);
	return open_to_the_limit(3000);
}

TEST(rlimit_nofile_set)
{
	struct rlimit r = { 10, 5 }, big = { 1 << 20, 1 << 20 };
	struct rlimit64 n = { 1, 1 };

	EXPECT_STATUS(child_status(lowered_limit, 0), EXITED(0));
	EXPECT_STATUS(child_status(raised_limit, 0), EXITED(0));
	EXPECT_EQ(raw_setrlimit(RLIMIT_NOFILE, &r), -EINVAL);   /* cur > max */
	EXPECT_EQ(raw_setrlimit(RLIMIT_NOFILE, &big), -EPERM);  /* past nr_open */
	EXPECT_EQ(raw_setrlimit(99, &r), -EINVAL);
	EXPECT_EQ(raw_setrlimit(RLIMIT_NOFILE, KPTR), -EFAULT);
	EXPECT_EQ(raw_ugetrlimit(RLIMIT_NOFILE, KPTR), -EFAULT);
	EXPECT_EQ(raw_ugetrlimit(-1, (struct rlimit *)&r), -EINVAL);
	EXPECT_EQ(raw_prlimit64(99999, RLIMIT_NOFILE, NULL, (struct rlimit64 *)&n), -ESRCH);
	EXPECT_EQ(raw_prlimit64(0, RLIMIT_NOFILE, KPTR, NULL), -EFAULT);
	EXPECT_EQ(raw_ugetrlimit(RLIMIT_NOFILE, &r), 0);
	EXPECT_EQ(r.rlim_cur, 1024);                    /* the children's were theirs */
}

/* The limits are the process's, as Linux keeps them in the
 * signal_struct its threads share: one thread's setrlimit holds for every
 * thread, for a thread made after it, and for the program that another
 * thread's execve runs (the execve-ing thread takes the leader's place). */
static void *lower_nofile(void *arg)
{
	struct rlimit r = { 10, 20 };

	(void)arg;
	return (void *)raw_setrlimit(RLIMIT_NOFILE, &r);
}

static void *nofile_now(void *arg)
{
	struct rlimit r;

	(void)arg;
	return (void *)(raw_getrlimit(RLIMIT_NOFILE, &r) == 0 ? (long)r.rlim_cur : -1L);
}

static void *exec_nofile_10(void *arg)
{
	char *const argv[] = { "t_fs_child", "nofile", "10", NULL };

	(void)arg;
	raw_exit_group(100 + (int)-raw_execve(sibling("t_fs_child"), argv, NULL));
	return NULL;
}

static int limits_of_the_process(long exec_in_thread)
{
	pthread_t a, b;
	void *res;
	struct rlimit r;

	CHECK(pthread_create(&a, NULL, lower_nofile, NULL) == 0);
	CHECK(pthread_join(a, &res) == 0 && res == NULL);
	CHECK(raw_getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur == 10 && r.rlim_max == 20);
	CHECK(pthread_create(&b, NULL, nofile_now, NULL) == 0);
	CHECK(pthread_join(b, &res) == 0 && (long)res == 10);
	if (exec_in_thread) {
		CHECK(pthread_create(&b, NULL, exec_nofile_10, NULL) == 0);
		for (;;)
			raw_sched_yield();      /* the execve ends this thread */
	}
	return open_to_the_limit(10);
}

TEST(rlimit_is_the_process_s)
{
	EXPECT_STATUS(child_status(limits_of_the_process, 0), EXITED(0));
	EXPECT_STATUS(child_status(limits_of_the_process, 1), EXITED(0));
}

int main(void)
{
	RUN(dup_family);
	RUN(close_range_closes_or_marks_a_range);
	RUN(fcntl_commands);
	RUN(inherited_across_fork_and_exec);
	RUN(rlimit_nofile_default_1024);
	RUN(rlimit_nofile_set);
	RUN(rlimit_is_the_process_s);
	return t_exit_code();
}
