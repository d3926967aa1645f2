/* user/tests/t_fs_link.c - hard links and nodes on the RAM file system
 * (abi.md section 9, compat/linux/fs/link.c): link and linkat (st_nlink, one
 * inode under two names, the data outliving one of them, rename between
 * two names of one inode, AT_SYMLINK_FOLLOW, AT_EMPTY_PATH), mknod and
 * mknodat (regular files, FIFOs that open as pipes, socket nodes), and
 * Linux's errors: EEXIST, ENOENT, ENOTDIR, EPERM (directories, devices),
 * EXDEV (across file systems), EINVAL, ENXIO, EINTR and EFAULT. Booted as
 * init. */
#define T_PROG "t_fs_link"
#include "t_fs.h"
#include "thr.h"
#include "sys/stat.h"

#define D "/tmp_link"

static struct stat64 st(const char *path)
{
	struct stat64 s;

	memset(&s, 0, sizeof(s));
	if (raw_lstat64(path, &s) < 0)
		s.st_mode = 0;
	return s;
}

TEST(a_second_name_for_one_inode)
{
	char buf[64];
	struct stat64 a, b;

	EXPECT_EQ(raw_mkdir(D, 0755), 0);
	EXPECT_EQ(put_file(D "/f", "first"), 0);
	EXPECT_EQ(raw_link(D "/f", D "/g"), 0);
	a = st(D "/f");
	b = st(D "/g");
	EXPECT(S_ISREG(a.st_mode) && a.st_ino == b.st_ino, "inodes %llu and %llu", a.st_ino,
	       b.st_ino);
	EXPECT_EQ(a.st_nlink, 2);
	EXPECT_EQ(b.st_nlink, 2);
	/* Written under one name, read under the other. */
	EXPECT_EQ(put_file(D "/g", "second"), 0);
	EXPECT_EQ(get_file(D "/f", buf, sizeof(buf)), 6);
	EXPECT(!strcmp(buf, "second"), "f holds \"%s\"", buf);
	/* A third name in another directory. */
	EXPECT_EQ(raw_mkdir(D "/sub", 0755), 0);
	EXPECT_EQ(raw_link(D "/g", D "/sub/h"), 0);
	EXPECT_EQ(st(D "/f").st_nlink, 3);
	/* Unlinking one name keeps the data under the others. */
	EXPECT_EQ(raw_unlink(D "/f"), 0);
	EXPECT_EQ(st(D "/g").st_nlink, 2);
	EXPECT_EQ(get_file(D "/sub/h", buf, sizeof(buf)), 6);
	EXPECT(!strcmp(buf, "second"), "h holds \"%s\"", buf);
	EXPECT_EQ(raw_unlink(D "/sub/h"), 0);
	EXPECT_EQ(st(D "/g").st_nlink, 1);
	/* The directory has no more links for it: 2 + its one subdirectory. */
	EXPECT_EQ(st(D).st_nlink, 3);
}

TEST(rename_between_two_names_of_one_inode_does_nothing)
{
	EXPECT_EQ(raw_link(D "/g", D "/g2"), 0);
	EXPECT_EQ(raw_rename(D "/g", D "/g2"), 0);      /* POSIX: both stay */
	EXPECT_EQ(st(D "/g").st_nlink, 2);
	EXPECT_EQ(st(D "/g2").st_nlink, 2);
	/* rename over another file takes one name from its inode. */
	EXPECT_EQ(put_file(D "/other", "x"), 0);
	EXPECT_EQ(raw_rename(D "/other", D "/g2"), 0);
	EXPECT_EQ(st(D "/g").st_nlink, 1);
	EXPECT_EQ(raw_unlink(D "/g2"), 0);
}

TEST(an_open_file_keeps_its_links_and_its_data)
{
	char buf[16];
	long fd = raw_open(D "/g", O_RDWR);

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_link(D "/g", D "/g3"), 0);
	EXPECT_EQ(raw_unlink(D "/g"), 0);
	EXPECT_EQ(raw_unlink(D "/g3"), 0);
	/* Nameless now: no name can be made for it (Linux: ENOENT). */
	EXPECT_EQ(raw_linkat((int)fd, "", AT_FDCWD, D "/back", AT_EMPTY_PATH), -ENOENT);
	EXPECT_EQ(raw_pread64((int)fd, buf, 6, 0), 6);
	EXPECT(!memcmp(buf, "second", 6), "read \"%.6s\"", buf);
	raw_close((int)fd);
}

TEST(linkat_follows_only_when_asked)
{
	struct stat64 t, l, f;
	long fd, dfd;

	EXPECT_EQ(put_file(D "/target", "t"), 0);
	EXPECT_EQ(raw_symlink("target", D "/sym"), 0);
	/* link() and linkat(0) name the symbolic link itself. */
	EXPECT_EQ(raw_link(D "/sym", D "/sym2"), 0);
	l = st(D "/sym2");
	EXPECT(S_ISLNK(l.st_mode) && l.st_ino == st(D "/sym").st_ino, "mode %#o", l.st_mode);
	EXPECT_EQ(l.st_nlink, 2);
	EXPECT_EQ(raw_linkat(AT_FDCWD, D "/sym", AT_FDCWD, D "/follow", AT_SYMLINK_FOLLOW), 0);
	t = st(D "/target");
	f = st(D "/follow");
	EXPECT(S_ISREG(f.st_mode) && f.st_ino == t.st_ino, "followed to %llu, target %llu",
	       f.st_ino, t.st_ino);
	/* Relative to directory fds, and AT_EMPTY_PATH on an open file. */
	dfd = raw_open(D "/sub", O_RDONLY | O_DIRECTORY);
	fd = raw_open(D "/target", O_RDONLY);
	EXPECT(dfd >= 0 && fd >= 0, "open: %ld %ld", dfd, fd);
	EXPECT_EQ(raw_linkat((int)fd, "", (int)dfd, "byfd", AT_EMPTY_PATH), 0);
	EXPECT_EQ(st(D "/sub/byfd").st_ino, t.st_ino);
	EXPECT_EQ(raw_linkat((int)dfd, "byfd", (int)dfd, "byfd2", 0), 0);
	EXPECT_EQ(st(D "/target").st_nlink, 4);
	/* Without AT_EMPTY_PATH an empty name is ENOENT. */
	EXPECT_EQ(raw_linkat((int)fd, "", (int)dfd, "x", 0), -ENOENT);
	raw_close((int)fd);
	raw_close((int)dfd);
}

TEST(link_errors)
{
	EXPECT_EQ(raw_link(D "/target", D "/follow"), -EEXIST);         /* exists */
	EXPECT_EQ(raw_link(D "/target", D "/sym"), -EEXIST);
	EXPECT_EQ(raw_link(D "/target", D "/."), -EEXIST);
	EXPECT_EQ(raw_link(D "/target", D "/.."), -EEXIST);
	EXPECT_EQ(raw_link(D "/target", "/"), -EEXIST);
	EXPECT_EQ(raw_link(D "/target", D "/sub/"), -EEXIST);           /* a directory */
	EXPECT_EQ(raw_link(D "/target", D "/new/"), -ENOENT);           /* '/': a directory */
	EXPECT_EQ(raw_link(D "/missing", D "/new"), -ENOENT);
	EXPECT_EQ(raw_link(D "/target", D "/nodir/new"), -ENOENT);
	EXPECT_EQ(raw_link(D "/target/", D "/new"), -ENOTDIR);
	EXPECT_EQ(raw_link(D "/target", D "/target/new"), -ENOTDIR);
	EXPECT_EQ(raw_link("", D "/new"), -ENOENT);
	EXPECT_EQ(raw_link(D "/target", ""), -ENOENT);
	/* Directories have no second names. */
	EXPECT_EQ(raw_link(D "/sub", D "/sub2"), -EPERM);
	EXPECT_EQ(raw_link("/", D "/root2"), -EPERM);
	/* Names are entries of one file system. */
	EXPECT_EQ(raw_link("/proc/kstat", D "/kstat"), -EXDEV);
	EXPECT_EQ(raw_link(D "/target", "/proc/target"), -EXDEV);
	EXPECT_EQ(raw_link("/dev/console", D "/console"), -EXDEV);
	/* ... an existing name is found first, as on Linux. */
	EXPECT_EQ(raw_link("/proc/kstat", D "/target"), -EEXIST);
	EXPECT_EQ(raw_linkat(AT_FDCWD, D "/target", AT_FDCWD, D "/new", 0x2), -EINVAL);
	EXPECT_EQ(raw_linkat(AT_FDCWD, D "/target", AT_FDCWD, D "/new", -1), -EINVAL);
	EXPECT_EQ(raw_linkat(99, "target", AT_FDCWD, D "/new", 0), -EBADF);
	EXPECT_EQ(raw_linkat(AT_FDCWD, D "/target", 99, "new", 0), -EBADF);
	EXPECT_EQ(st(D "/new").st_mode, 0);                     /* nothing made */
	EXPECT_EQ(st(D "/target").st_nlink, 4);
}

TEST(link_efault)
{
	static const void *const bad[] = { (void *)16, (void *)0xc0100000, (void *)0xfffffff0 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(raw_link(bad[i], D "/new"), -EFAULT);
		EXPECT_EQ(raw_link(D "/target", bad[i]), -EFAULT);
		EXPECT_EQ(raw_linkat(AT_FDCWD, bad[i], AT_FDCWD, D "/new", 0), -EFAULT);
		EXPECT_EQ(raw_linkat(AT_FDCWD, D "/target", AT_FDCWD, bad[i], 0), -EFAULT);
		EXPECT_EQ(raw_mknod(bad[i], S_IFIFO | 0644, 0), -EFAULT);
		EXPECT_EQ(raw_mknodat(AT_FDCWD, bad[i], S_IFREG | 0644, 0), -EFAULT);
	}
	EXPECT_EQ(st(D "/target").st_nlink, 4);
}

TEST(mknod_regular_files_and_errors)
{
	long old = RAW1(SYS_umask, 022);
	struct stat64 s;
	long dfd;

	EXPECT_EQ(raw_mknod(D "/reg", S_IFREG | 0666, 0), 0);
	s = st(D "/reg");
	EXPECT(s.st_mode == (S_IFREG | 0644) && s.st_size == 0 && s.st_nlink == 1,
	       "mode %#o size %lld", s.st_mode, s.st_size);
	EXPECT_EQ(raw_mknod(D "/zero", 0600, 0), 0);            /* type 0: a file */
	EXPECT_EQ(st(D "/zero").st_mode, S_IFREG | 0600);
	dfd = raw_open(D "/sub", O_RDONLY | O_DIRECTORY);
	EXPECT_EQ(raw_mknodat((int)dfd, "at", S_IFREG | 0640, 0), 0);
	raw_close((int)dfd);
	EXPECT_EQ(st(D "/sub/at").st_mode, S_IFREG | 0640);
	EXPECT_EQ(raw_mknod(D "/reg", S_IFREG | 0644, 0), -EEXIST);
	EXPECT_EQ(raw_mknod(D "/sub", S_IFIFO | 0644, 0), -EEXIST);
	EXPECT_EQ(raw_mknod(D "/nodir/x", S_IFREG | 0644, 0), -ENOENT);
	EXPECT_EQ(raw_mknod(D "/reg/x", S_IFREG | 0644, 0), -ENOTDIR);
	EXPECT_EQ(raw_mknod(D "/x/", S_IFREG | 0644, 0), -ENOENT);
	EXPECT_EQ(raw_mknod("", S_IFREG | 0644, 0), -ENOENT);
	EXPECT_EQ(raw_mknod("/", S_IFREG | 0644, 0), -EEXIST);
	EXPECT_EQ(raw_mknodat(99, "x", S_IFREG | 0644, 0), -EBADF);
	/* Directories are mkdir's; unknown types are EINVAL, before the
	 * name is even looked at. */
	EXPECT_EQ(raw_mknod(D "/dir", S_IFDIR | 0755, 0), -EPERM);
	EXPECT_EQ(raw_mknod(D "/bad", 0170000 | 0644, 0), -EINVAL);
	EXPECT_EQ(raw_mknod(D "/bad", 0030000 | 0644, 0), -EINVAL);
	EXPECT_EQ(raw_mknod(D "/nodir/bad", 0170000, 0), -EINVAL);
	/* Devices: no device numbers to bind (compat/linux/fs/link.c), EPERM
	 * after the name's own errors. */
	EXPECT_EQ(raw_mknod(D "/chr", S_IFCHR | 0600, (1 << 8) | 3), -EPERM);
	EXPECT_EQ(raw_mknod(D "/blk", S_IFBLK | 0600, (8 << 8) | 0), -EPERM);
	EXPECT_EQ(raw_mknod(D "/reg", S_IFCHR | 0600, 0), -EEXIST);
	EXPECT_EQ(raw_mknod(D "/nodir/chr", S_IFCHR | 0600, 0), -ENOENT);
	EXPECT_EQ(st(D "/chr").st_mode, 0);
	EXPECT_EQ(st(D "/dir").st_mode, 0);
	RAW1(SYS_umask, old);
}

TEST(socket_nodes_exist_but_do_not_open)
{
	EXPECT_EQ(raw_mknod(D "/sock", S_IFSOCK | 0755, 0), 0);
	EXPECT_EQ(st(D "/sock").st_mode & S_IFMT, S_IFSOCK);
	EXPECT_EQ(raw_open(D "/sock", O_RDONLY), -ENXIO);
	EXPECT_EQ(raw_open(D "/sock", O_RDWR), -ENXIO);
	EXPECT_EQ(raw_link(D "/sock", D "/sock2"), 0);
	EXPECT_EQ(raw_unlink(D "/sock"), 0);
	EXPECT_EQ(raw_unlink(D "/sock2"), 0);
}

/* ---- FIFOs ---- */

static int fifo_writer(long arg)
{
	long fd = raw_open(D "/fifo", O_WRONLY);

	(void)arg;
	if (fd < 0)
		return 10;
	if (raw_write((int)fd, "through the fifo", 16) != 16)
		return 11;
	raw_close((int)fd);
	return 0;
}

TEST(fifo_opens_as_a_pipe)
{
	char buf[32];
	struct stat64 s;
	long fd, pid, n = 0, r;
	int status;

	EXPECT_EQ(raw_mknod(D "/fifo", S_IFIFO | 0644, 0), 0);
	s = st(D "/fifo");
	EXPECT(S_ISFIFO(s.st_mode) && s.st_size == 0, "mode %#o", s.st_mode);
	pid = raw_fork();
	if (pid == 0)
		raw_exit_group(fifo_writer(0));
	EXPECT(pid > 0, "fork: %ld", pid);
	/* Blocks until the child opens for writing. */
	fd = raw_open(D "/fifo", O_RDONLY);
	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	while ((r = raw_read((int)fd, buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	EXPECT_EQ(r, 0);                                /* the writer closed */
	EXPECT_EQ(n, 16);
	buf[n] = '\0';
	EXPECT(!strcmp(buf, "through the fifo"), "read \"%s\"", buf);
	EXPECT_EQ(raw_lseek((int)fd, 0, SEEK_SET), -ESPIPE);
	raw_close((int)fd);
	EXPECT_EQ(raw_wait4(pid, &status, 0, NULL), pid);
	EXPECT_STATUS(status, EXITED(0));
}

TEST(fifo_nonblocking_and_rdwr_opens)
{
	char buf[8];
	long r, w, rw;

	/* A reader need not wait; a writer with no reader is ENXIO. */
	r = raw_open(D "/fifo", O_RDONLY | O_NONBLOCK);
	EXPECT(r >= 0, "open: %s", t_val(r, t_b1_));
	EXPECT_EQ(raw_read((int)r, buf, sizeof(buf)), 0);       /* no writer: EOF */
	raw_close((int)r);
	EXPECT_EQ(raw_open(D "/fifo", O_WRONLY | O_NONBLOCK), -ENXIO);
	/* O_RDWR never waits; with it open a writer finds a reader. */
	rw = raw_open(D "/fifo", O_RDWR);
	EXPECT(rw >= 0, "open: %s", t_val(rw, t_b1_));
	w = raw_open(D "/fifo", O_WRONLY | O_NONBLOCK);
	EXPECT(w >= 0, "open: %s", t_val(w, t_b1_));
	EXPECT_EQ(raw_write((int)w, "abc", 3), 3);
	EXPECT_EQ(raw_read((int)rw, buf, sizeof(buf)), 3);
	EXPECT_EQ(raw_write((int)rw, "left", 4), 4);
	raw_close((int)w);
	raw_close((int)rw);
	/* Nobody has it open: what was left is gone. */
	r = raw_open(D "/fifo", O_RDONLY | O_NONBLOCK);
	EXPECT_EQ(raw_read((int)r, buf, sizeof(buf)), 0);
	raw_close((int)r);
}

static volatile int alarms;
static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

TEST(fifo_open_waits_until_a_signal)
{
	EXPECT_EQ(thr_signal(SIGALRM, on_alarm), 0);
	alarms = 0;
	EXPECT_EQ(RAW1(SYS_alarm, 1), 0);
	EXPECT_EQ(raw_open(D "/fifo", O_RDONLY), -EINTR);
	EXPECT_EQ(alarms, 1);
	EXPECT_EQ(RAW1(SYS_alarm, 1), 0);
	EXPECT_EQ(raw_open(D "/fifo", O_WRONLY), -EINTR);
	EXPECT_EQ(alarms, 2);
	/* The interrupted opens left no count behind: a writer still finds
	 * no reader. */
	EXPECT_EQ(raw_open(D "/fifo", O_WRONLY | O_NONBLOCK), -ENXIO);
	EXPECT_EQ(raw_unlink(D "/fifo"), 0);
}

/* The libc's wrappers: -1 and errno on failure. */
TEST(libc_wrappers)
{
	struct stat s;

	errno = 0;
	EXPECT_EQ(link(D "/target", D "/lib1"), 0);
	EXPECT_EQ(linkat(AT_FDCWD, D "/target", AT_FDCWD, D "/lib2", 0), 0);
	EXPECT_EQ(stat(D "/target", &s), 0);
	EXPECT_EQ(s.st_nlink, 6);
	EXPECT_EQ(link(D "/target", D "/lib1"), -1);
	EXPECT_EQ(errno, EEXIST);
	EXPECT_EQ(mkfifo(D "/libfifo", 0600), 0);
	EXPECT_EQ(stat(D "/libfifo", &s), 0);
	EXPECT(S_ISFIFO(s.st_mode) && (s.st_mode & 0777) == 0600, "mode %#o", s.st_mode);
	EXPECT_EQ(mknod(D "/libreg", S_IFREG | 0600, 0), 0);
	EXPECT_EQ(mknodat(AT_FDCWD, D "/libchr", S_IFCHR | 0600, 0x103), -1);
	EXPECT_EQ(errno, EPERM);
	EXPECT_EQ(unlink(D "/lib1") | unlink(D "/lib2") | unlink(D "/libfifo") |
		  unlink(D "/libreg"), 0);
}

int main(void)
{
	RUN(a_second_name_for_one_inode);
	RUN(rename_between_two_names_of_one_inode_does_nothing);
	RUN(an_open_file_keeps_its_links_and_its_data);
	RUN(linkat_follows_only_when_asked);
	RUN(link_errors);
	RUN(link_efault);
	RUN(mknod_regular_files_and_errors);
	RUN(socket_nodes_exist_but_do_not_open);
	RUN(fifo_opens_as_a_pipe);
	RUN(fifo_nonblocking_and_rdwr_opens);
	RUN(fifo_open_waits_until_a_signal);
	RUN(libc_wrappers);
	return t_exit_code();
}
