/* user/linux/lx_utimes.c - utimensat as glibc calls it (futimens,
 * utimensat: glibc 2.36 tries utimensat_time64 first) and the 32-bit
 * utimensat through syscall() (compat/linux/fs/utimes.c), what `touch` uses:
 * given times, UTIME_NOW, UTIME_OMIT, NULL for now, the change time, a
 * symbolic link itself, an open file, AT_EMPTY_PATH, and every error.
 * Each expectation is Linux 6.1's, checked on Linux (tmpfs). */
#define _GNU_SOURCE
#define LX_PROG "lx_utimes"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define F "/lx_utimes_file"
#define L "/lx_utimes_link"

static int make_file(void)
{
	int fd = open(F, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		lx_fail("open %s: %s", F, strerror(errno));
	return fd;
}

static long long now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec;
}

TEST(given_times)
{
	struct timespec t[2] = { { 1000000000, 123456789 }, { 1200000000, 5 } };
	struct stat st;
	int fd = make_file();

	if (fd < 0)
		return;
	close(fd);
	EXPECT_EQ(utimensat(AT_FDCWD, F, t, 0), 0);
	EXPECT_EQ(stat(F, &st), 0);
	EXPECT_EQ(st.st_atim.tv_sec, 1000000000);
	EXPECT_EQ(st.st_atim.tv_nsec, 123456789);
	EXPECT_EQ(st.st_mtim.tv_sec, 1200000000);
	EXPECT_EQ(st.st_mtim.tv_nsec, 5);
	/* The change time is now, not what was given. */
	EXPECT(st.st_ctim.tv_sec >= now_sec() - 5, "ctime %lld", (long long)st.st_ctim.tv_sec);
}

TEST(now_and_omit)
{
	struct timespec set[2] = { { 1000, 0 }, { 2000, 0 } };
	struct timespec t[2] = { { 0, UTIME_NOW }, { 99, UTIME_OMIT } };
	struct stat st;

	EXPECT_EQ(utimensat(AT_FDCWD, F, set, 0), 0);
	EXPECT_EQ(utimensat(AT_FDCWD, F, t, 0), 0);
	EXPECT_EQ(stat(F, &st), 0);
	EXPECT(st.st_atim.tv_sec >= now_sec() - 5, "atime %lld", (long long)st.st_atim.tv_sec);
	EXPECT_EQ(st.st_mtim.tv_sec, 2000);
	/* NULL: both now. */
	EXPECT_EQ(utimensat(AT_FDCWD, F, set, 0), 0);
	EXPECT_EQ(utimensat(AT_FDCWD, F, NULL, 0), 0);
	EXPECT_EQ(stat(F, &st), 0);
	EXPECT(st.st_atim.tv_sec >= now_sec() - 5, "atime %lld", (long long)st.st_atim.tv_sec);
	EXPECT(st.st_mtim.tv_sec >= now_sec() - 5, "mtime %lld", (long long)st.st_mtim.tv_sec);
}

TEST(both_omitted_looks_at_nothing)
{
	struct timespec t[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };

	/* Linux returns 0 before it even looks the path up. */
	EXPECT_EQ(utimensat(AT_FDCWD, "/no/such/file", t, 0), 0);
	EXPECT_EQ(syscall(SYS_utimensat, -1, 16, t, 0x7777), 0);
}

TEST(open_file_and_empty_path)
{
	struct timespec t[2] = { { 3000, 0 }, { 4000, 0 } };
	struct timespec u[2] = { { 5000, 0 }, { 6000, 0 } };
	struct stat st;
	int fd = open(F, O_RDONLY);

	EXPECT(fd >= 0, "open: %s", strerror(errno));
	EXPECT_EQ(futimens(fd, t), 0);
	EXPECT_EQ(fstat(fd, &st), 0);
	EXPECT_EQ(st.st_mtim.tv_sec, 4000);
	EXPECT_EQ(utimensat(fd, "", u, AT_EMPTY_PATH), 0);
	EXPECT_EQ(fstat(fd, &st), 0);
	EXPECT_EQ(st.st_mtim.tv_sec, 6000);
	close(fd);
	errno = 0;
	EXPECT_EQ(futimens(fd, t), -1);
	EXPECT_EQ(errno, EBADF);
}

TEST(symlink_itself)
{
	struct timespec t[2] = { { 7000, 0 }, { 8000, 0 } };
	struct timespec f[2] = { { 100, 0 }, { 200, 0 } };
	struct stat st, lst;

	unlink(L);
	EXPECT_EQ(symlink(F, L), 0);
	EXPECT_EQ(utimensat(AT_FDCWD, F, f, 0), 0);
	EXPECT_EQ(utimensat(AT_FDCWD, L, t, AT_SYMLINK_NOFOLLOW), 0);
	EXPECT_EQ(lstat(L, &lst), 0);
	EXPECT_EQ(stat(L, &st), 0);
	unlink(L);
	EXPECT_EQ(lst.st_mtim.tv_sec, 8000);
	EXPECT_EQ(st.st_mtim.tv_sec, 200);      /* the target was left alone */
}

TEST(time32_call)
{
	int32_t t[4] = { 9000, 1, 9500, 2 };
	struct stat st;

	EXPECT_EQ(syscall(SYS_utimensat, AT_FDCWD, F, t, 0), 0);
	EXPECT_EQ(stat(F, &st), 0);
	EXPECT_EQ(st.st_atim.tv_sec, 9000);
	EXPECT_EQ(st.st_atim.tv_nsec, 1);
	EXPECT_EQ(st.st_mtim.tv_sec, 9500);
	EXPECT_EQ(st.st_mtim.tv_nsec, 2);
}

TEST(errors)
{
	struct timespec bad[2] = { { 0, 1000000000 }, { 0, 0 } };
	struct timespec neg[2] = { { 0, -1 }, { 0, 0 } };
	struct timespec ok[2] = { { 1, 0 }, { 1, 0 } };

	errno = 0;
	EXPECT_EQ(utimensat(AT_FDCWD, F, bad, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT_EQ(utimensat(AT_FDCWD, F, neg, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT_EQ(utimensat(AT_FDCWD, F, ok, 0x8000), -1);      /* an unknown flag */
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT_EQ(utimensat(AT_FDCWD, "/no/such/file", ok, 0), -1);
	EXPECT_EQ(errno, ENOENT);
	errno = 0;
	EXPECT_EQ(syscall(SYS_utimensat, AT_FDCWD, F, 16, 0), -1);   /* times */
	EXPECT_EQ(errno, EFAULT);
	errno = 0;
	EXPECT_EQ(syscall(SYS_utimensat, AT_FDCWD, 16, ok, 0), -1);  /* path */
	EXPECT_EQ(errno, EFAULT);
	/* A NULL path is dirfd's file: AT_FDCWD is no file, flags must be 0. */
	errno = 0;
	EXPECT_EQ(syscall(SYS_utimensat, AT_FDCWD, NULL, ok, 0), -1);
	EXPECT_EQ(errno, EFAULT);
	int fd = open(F, O_RDONLY);
	errno = 0;
	EXPECT_EQ(syscall(SYS_utimensat, fd, NULL, ok, AT_SYMLINK_NOFOLLOW), -1);
	EXPECT_EQ(errno, EINVAL);
	close(fd);
	errno = 0;
	EXPECT_EQ(syscall(SYS_utimensat, 999, NULL, ok, 0), -1);
	EXPECT_EQ(errno, EBADF);
	errno = 0;
	EXPECT_EQ(utimensat(AT_FDCWD, "", ok, 0), -1);
	EXPECT_EQ(errno, ENOENT);
	unlink(F);
}

int main(void)
{
	RUN(given_times);
	RUN(now_and_omit);
	RUN(both_omitted_looks_at_nothing);
	RUN(open_file_and_empty_path);
	RUN(symlink_itself);
	RUN(time32_call);
	RUN(errors);
	return lx_exit_code();
}
