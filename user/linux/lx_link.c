/* user/linux/lx_link.c - hard links, mknod and FIFOs as glibc calls them
 * (abi.md section 9): link, linkat (AT_SYMLINK_FOLLOW, AT_EMPTY_PATH),
 * st_nlink, unlink of one name, mknod of files and sockets, mkfifo and a
 * FIFO between two processes, with Linux's errors (EEXIST, ENOENT,
 * ENOTDIR, EPERM, EXDEV, EINVAL, ENXIO, EFAULT). One difference is
 * Spindle's on purpose: a character or block device is EPERM, where
 * Linux lets root make one (docs/linux-abi.md). Works in the current
 * directory, so that it runs on Linux too. */
#define _GNU_SOURCE
#define LX_PROG "lx_link"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define D "lx_link.d"

static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static long err_of(int r)
{
	return r == 0 ? 0 : -errno;
}

TEST(links_and_counts)
{
	struct stat a, b;
	char buf[16] = "";
	int fd;

	EXPECT_EQ(mkdir(D, 0755), 0);
	EXPECT_EQ(put(D "/f", "data"), 0);
	EXPECT_EQ(link(D "/f", D "/g"), 0);
	EXPECT_EQ(stat(D "/f", &a), 0);
	EXPECT_EQ(stat(D "/g", &b), 0);
	EXPECT(a.st_ino == b.st_ino && a.st_nlink == 2, "ino %lu/%lu nlink %lu",
	       (unsigned long)a.st_ino, (unsigned long)b.st_ino, (unsigned long)a.st_nlink);
	EXPECT_EQ(unlink(D "/f"), 0);
	EXPECT_EQ(stat(D "/g", &b), 0);
	EXPECT_EQ(b.st_nlink, 1);
	fd = open(D "/g", O_RDONLY);
	EXPECT(fd >= 0, "open: %s", strerror(errno));
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 4);
	EXPECT(!memcmp(buf, "data", 4), "read %s", buf);
	close(fd);
}

TEST(linkat_flags)
{
	struct stat s, t;
	int fd;

	EXPECT_EQ(symlink("g", D "/sym"), 0);
	EXPECT_EQ(linkat(AT_FDCWD, D "/sym", AT_FDCWD, D "/sym2", 0), 0);
	EXPECT_EQ(lstat(D "/sym2", &s), 0);
	EXPECT(S_ISLNK(s.st_mode), "mode %#o", s.st_mode);
	EXPECT_EQ(linkat(AT_FDCWD, D "/sym", AT_FDCWD, D "/g2", AT_SYMLINK_FOLLOW), 0);
	EXPECT_EQ(lstat(D "/g2", &s), 0);
	EXPECT_EQ(stat(D "/g", &t), 0);
	EXPECT(S_ISREG(s.st_mode) && s.st_ino == t.st_ino, "mode %#o", s.st_mode);
	fd = open(D "/g", O_RDONLY);
	EXPECT_EQ(linkat(fd, "", AT_FDCWD, D "/g3", AT_EMPTY_PATH), 0);
	close(fd);
	EXPECT_EQ(stat(D "/g", &t), 0);
	EXPECT_EQ(t.st_nlink, 3);
	EXPECT_EQ(err_of(linkat(AT_FDCWD, D "/g", AT_FDCWD, D "/x", 0x2)), -EINVAL);
}

TEST(link_errors)
{
	EXPECT_EQ(err_of(link(D "/g", D "/g2")), -EEXIST);
	EXPECT_EQ(err_of(link(D "/missing", D "/x")), -ENOENT);
	EXPECT_EQ(err_of(link(D "/g", D "/none/x")), -ENOENT);
	EXPECT_EQ(err_of(link(D "/g/", D "/x")), -ENOTDIR);
	EXPECT_EQ(err_of(link(D, D "/dir2")), -EPERM);
	EXPECT_EQ(err_of(link("/proc/self/exe", D "/exe")), -EXDEV);
	EXPECT_EQ(syscall(SYS_link, (void *)16, D "/x"), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS_link, D "/g", (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(mknod_kinds)
{
	struct stat s;
	int r;

	umask(022);
	EXPECT_EQ(mknod(D "/reg", S_IFREG | 0666, 0), 0);
	EXPECT_EQ(stat(D "/reg", &s), 0);
	EXPECT_EQ(s.st_mode, S_IFREG | 0644);
	EXPECT_EQ(mknod(D "/sock", S_IFSOCK | 0644, 0), 0);
	EXPECT_EQ(stat(D "/sock", &s), 0);
	EXPECT(S_ISSOCK(s.st_mode), "mode %#o", s.st_mode);
	EXPECT_EQ(open(D "/sock", O_RDONLY), -1);
	EXPECT_EQ(errno, ENXIO);
	EXPECT_EQ(err_of(mknod(D "/reg", S_IFIFO | 0644, 0)), -EEXIST);
	EXPECT_EQ(err_of(mknod(D "/d", S_IFDIR | 0755, 0)), -EPERM);
	EXPECT_EQ(err_of(mknod(D "/bad", 0170000 | 0644, 0)), -EINVAL);
	EXPECT_EQ(err_of(mknod(D "/none/x", S_IFREG | 0644, 0)), -ENOENT);
	/* Linux lets root make a device; Spindle has no device numbers. */
	r = mknod(D "/null", S_IFCHR | 0666, makedev(1, 3));
	EXPECT(r == 0 || errno == EPERM, "mknod c 1 3: %s", strerror(errno));
	if (r == 0)
		unlink(D "/null");
	EXPECT_EQ(syscall(SYS_mknod, (void *)16, S_IFREG | 0644, 0), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(fifo_between_processes)
{
	char buf[32];
	int st, fd;
	ssize_t n;
	pid_t pid;

	EXPECT_EQ(mkfifo(D "/fifo", 0644), 0);
	EXPECT_EQ(open(D "/fifo", O_WRONLY | O_NONBLOCK), -1);
	EXPECT_EQ(errno, ENXIO);
	pid = fork();
	if (pid == 0) {
		int w = open(D "/fifo", O_WRONLY);
		_exit(w >= 0 && write(w, "via fifo", 8) == 8 ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	fd = open(D "/fifo", O_RDONLY);
	EXPECT(fd >= 0, "open: %s", strerror(errno));
	n = read(fd, buf, sizeof(buf));
	EXPECT_EQ(n, 8);
	EXPECT(!memcmp(buf, "via fifo", 8), "read %.8s", buf);
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 0);
	close(fd);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
}

static void cleanup(void)
{
	static const char *const names[] = { "g", "g2", "g3", "sym", "sym2", "reg", "sock",
					     "fifo", "null" };
	char path[64];

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), D "/%s", names[i]);
		unlink(path);
	}
	rmdir(D);
}

int main(void)
{
	cleanup();
	RUN(links_and_counts);
	RUN(linkat_flags);
	RUN(link_errors);
	RUN(mknod_kinds);
	RUN(fifo_between_processes);
	cleanup();
	return lx_exit_code();
}
