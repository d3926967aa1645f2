/* user/tests/t_fs_files.c - regular files on the RAM file system (abi.md
 * section 9): create, write, read back, offsets (lseek, _llseek, pread64,
 * pwrite64), O_APPEND, O_TRUNC, O_EXCL, truncate and holes, unlink of an
 * open file, the access mode enforced, fopen's modes, sendfile64, stat
 * and statx, and the errors: ENOENT, EEXIST, ENOTDIR, EISDIR, EBADF,
 * EFAULT, EINVAL, ENAMETOOLONG, EFBIG, and ENOSPC when memory is full.
 * Booted as init. */
#define T_PROG "t_fs_files"
#include "t_fs.h"
#include "sys/stat.h"
#include "sys/uio.h"

#define D "/tmp_files"

TEST(create_write_read_back)
{
	char buf[64];
	long fd;

	EXPECT_EQ(raw_mkdir(D, 0755), 0);
	fd = raw_open3(D "/a", O_RDWR | O_CREAT | O_EXCL, 0644);
	EXPECT(fd >= 3, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_write(fd, "hello, world", 12), 12);
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_CUR), 12);
	EXPECT_EQ(raw_lseek(fd, 7, SEEK_SET), 7);
	EXPECT_EQ(raw_read(fd, buf, sizeof(buf)), 5);
	EXPECT(!memcmp(buf, "world", 5), "read back \"%.5s\"", buf);
	EXPECT_EQ(raw_read(fd, buf, sizeof(buf)), 0);           /* end of file */
	EXPECT_EQ(raw_close(fd), 0);
	EXPECT_EQ(get_file(D "/a", buf, sizeof(buf)), 12);
	EXPECT(!strcmp(buf, "hello, world"), "file holds \"%s\"", buf);
	/* O_EXCL on an existing name; O_CREAT alone opens it */
	EXPECT_EQ(raw_open3(D "/a", O_RDWR | O_CREAT | O_EXCL, 0644), -EEXIST);
	fd = raw_open3(D "/a", O_RDONLY | O_CREAT, 0644);
	EXPECT(fd >= 0, "reopen: %s", t_val(fd, t_b1_));
	raw_close(fd);
}

TEST(access_mode_is_enforced)
{
	char c;
	long r = raw_open(D "/a", O_RDONLY), w = raw_open(D "/a", O_WRONLY);

	EXPECT(r >= 0 && w >= 0, "open: %ld %ld", r, w);
	EXPECT_EQ(raw_write(r, "x", 1), -EBADF);
	EXPECT_EQ(raw_read(w, &c, 1), -EBADF);
	EXPECT_EQ(raw_ftruncate64(r, 0), -EINVAL);              /* Linux's errno */
	raw_close(r);
	raw_close(w);
}

TEST(append_and_trunc)
{
	char buf[64];
	long fd = raw_open(D "/a", O_WRONLY | O_APPEND);

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_SET), 0);
	EXPECT_EQ(raw_write(fd, "!", 1), 1);                    /* at the end anyway */
	raw_close(fd);
	EXPECT_EQ(get_file(D "/a", buf, sizeof(buf)), 13);
	EXPECT(!strcmp(buf, "hello, world!"), "file holds \"%s\"", buf);
	fd = raw_open(D "/a", O_WRONLY | O_TRUNC);
	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	raw_close(fd);
	EXPECT_EQ(get_file(D "/a", buf, sizeof(buf)), 0);
}

TEST(holes_truncate_and_positions)
{
	static char buf[9000];
	long long pos = -1;
	long fd = raw_open3(D "/holes", O_RDWR | O_CREAT, 0600);
	struct stat64 st;

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_lseek(fd, 8000, SEEK_SET), 8000);         /* past the end */
	EXPECT_EQ(raw_write(fd, "end", 3), 3);
	EXPECT_EQ(raw_fstat64(fd, &st), 0);
	EXPECT_EQ(st.st_size, 8003);
	EXPECT_EQ(st.st_blocks, 8);                     /* only the second page */
	EXPECT_EQ(raw_pread64(fd, buf, sizeof(buf), 0), 8003);
	for (int i = 0; i < 8000; i++)
		EXPECT(buf[i] == 0, "byte %d of the hole is %#x", i, buf[i]);
	EXPECT(!memcmp(buf + 8000, "end", 3), "the end reads \"%.3s\"", buf + 8000);
	EXPECT_EQ(raw_pwrite64(fd, "AB", 2, 4096), 2);
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_CUR), 8003);            /* pwrite leaves it */
	EXPECT_EQ(raw_ftruncate64(fd, 4097), 0);
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_END), 4097);
	EXPECT_EQ(raw_ftruncate64(fd, 5000), 0);                /* grows as zeros */
	EXPECT_EQ(raw_pread64(fd, buf, 10, 4096), 10);
	EXPECT(buf[0] == 'A' && buf[1] == 0, "after truncation: %#x %#x", buf[0], buf[1]);
	EXPECT_EQ(raw__llseek(fd, 1, 0, &pos, SEEK_SET), 0);    /* 4 GiB */
	EXPECT_EQ(pos, 1LL << 32);
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_CUR), -EOVERFLOW);
	EXPECT_EQ(raw_write(fd, "x", 1), -EFBIG);
	EXPECT_EQ(raw_lseek(fd, -1, SEEK_SET), -EINVAL);
	EXPECT_EQ(raw_lseek(fd, 0, 7), -EINVAL);
	EXPECT_EQ(raw_pread64(fd, buf, 1, -1), -EINVAL);
	EXPECT_EQ(raw_truncate64(D "/holes", -1), -EINVAL);
	EXPECT_EQ(raw_truncate64(D "/holes", 0), 0);
	EXPECT_EQ(raw_fstat64(fd, &st), 0);
	EXPECT_EQ(st.st_size, 0);
	EXPECT_EQ(st.st_blocks, 0);
	raw_close(fd);
	EXPECT_EQ(raw_truncate64(D, 0), -EISDIR);
	EXPECT_EQ(raw_unlink(D "/holes"), 0);
}

TEST(an_open_file_outlives_its_name)
{
	char buf[16] = { 0 };
	struct stat64 st;
	long fd;

	EXPECT_EQ(put_file(D "/ghost", "boo"), 0);
	fd = raw_open(D "/ghost", O_RDWR);
	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_unlink(D "/ghost"), 0);
	EXPECT_EQ(raw_open(D "/ghost", O_RDONLY), -ENOENT);
	EXPECT_EQ(raw_fstat64(fd, &st), 0);
	EXPECT_EQ(st.st_nlink, 0);
	EXPECT_EQ(raw_pread64(fd, buf, sizeof(buf), 0), 3);
	EXPECT(!strcmp(buf, "boo"), "read \"%s\"", buf);
	EXPECT_EQ(raw_write(fd, "!", 1), 1);
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(stat_and_statx)
{
	struct stat64 st, lst;
	struct statx sx;
	struct timespec now;
	long fd;

	raw_clock_gettime(CLOCK_REALTIME, &now);
	EXPECT_EQ(put_file(D "/s", "12345"), 0);
	EXPECT_EQ(raw_stat64(D "/s", &st), 0);
	EXPECT_EQ(st.st_mode, S_IFREG | 0644);          /* 0644 less umask 022 */
	EXPECT_EQ(st.st_size, 5);
	EXPECT_EQ(st.st_nlink, 1);
	EXPECT_EQ(st.st_blksize, 4096);
	EXPECT_EQ(st.st_blocks, 8);
	EXPECT(st.st_ino != 0 && st.__st_ino == (unsigned)st.st_ino, "ino %llu", st.st_ino);
	EXPECT((long)st.st_mtime_sec >= now.tv_sec - 1 && (long)st.st_mtime_sec <= now.tv_sec + 5,
	       "mtime %lu, now %ld", (unsigned long)st.st_mtime_sec, now.tv_sec);
	EXPECT_EQ(raw_lstat64(D "/s", &lst), 0);
	EXPECT_EQ(lst.st_ino, st.st_ino);
	fd = raw_open(D "/s", O_RDONLY);
	EXPECT_EQ(raw_fstat64(fd, &lst), 0);
	EXPECT_EQ(lst.st_ino, st.st_ino);
	EXPECT_EQ(raw_fstatat64(fd, "", &lst, AT_EMPTY_PATH), 0);
	EXPECT_EQ(lst.st_ino, st.st_ino);
	raw_close(fd);
	EXPECT_EQ(raw_fstatat64(AT_FDCWD, D "/s", &lst, 0x8000), -EINVAL);
	EXPECT_EQ(raw_statx(AT_FDCWD, D "/s", 0, STATX_BASIC_STATS, &sx), 0);
	EXPECT_EQ(sx.stx_mask & STATX_BASIC_STATS, STATX_BASIC_STATS);
	EXPECT_EQ(sx.stx_ino, st.st_ino);
	EXPECT_EQ(sx.stx_size, 5);
	EXPECT_EQ(sx.stx_mode, S_IFREG | 0644);
	EXPECT_EQ(sx.stx_mtime.tv_sec, (long long)st.st_mtime_sec);
	EXPECT_EQ(raw_statx(AT_FDCWD, D "/s", 0x6000, 0, &sx), -EINVAL);
	EXPECT_EQ(raw_statx(AT_FDCWD, D "/s", 0, 0x80000000u, &sx), -EINVAL);
	EXPECT_EQ(raw_stat64("/", &st), 0);
	EXPECT(S_ISDIR(st.st_mode) && st.st_nlink >= 3, "/: mode %#o nlink %u", st.st_mode,
	       st.st_nlink);
	EXPECT_EQ(raw_stat64("/dev/console", &st), 0);
	EXPECT(S_ISCHR(st.st_mode) && st.st_rdev == (5 << 8 | 1), "console: %#o %#llx",
	       st.st_mode, st.st_rdev);
	EXPECT_EQ(raw_unlink(D "/s"), 0);
}

TEST(errors_of_names)
{
	static char longname[300], longpath[5000];
	struct stat64 st;

	memset(longname, 'n', 256);
	memcpy(longpath, "/", 1);
	memset(longpath + 1, 'p', sizeof(longpath) - 2);
	EXPECT_EQ(raw_open("/no/such", O_RDONLY), -ENOENT);
	EXPECT_EQ(raw_open3("/no/such", O_WRONLY | O_CREAT, 0644), -ENOENT);
	EXPECT_EQ(raw_open("/etc/motd/x", O_RDONLY), -ENOTDIR);
	EXPECT_EQ(raw_open3("/etc/motd/x", O_WRONLY | O_CREAT, 0644), -ENOTDIR);
	EXPECT_EQ(raw_open(D, O_WRONLY), -EISDIR);
	EXPECT_EQ(raw_open3(D, O_RDONLY | O_CREAT, 0644), -EISDIR);
	EXPECT_EQ(raw_open("/etc/motd", O_RDONLY | O_DIRECTORY), -ENOTDIR);
	EXPECT_EQ(raw_open(longname, O_RDONLY), -ENAMETOOLONG);
	EXPECT_EQ(raw_open3(longname, O_WRONLY | O_CREAT, 0644), -ENAMETOOLONG);
	EXPECT_EQ(raw_open(longpath, O_RDONLY), -ENAMETOOLONG);
	EXPECT_EQ(raw_open("", O_RDONLY), -ENOENT);
	EXPECT_EQ(raw_stat64("", &st), -ENOENT);
	EXPECT_EQ(raw_openat(77, "x", O_RDONLY, 0), -EBADF);
	EXPECT_EQ(raw_openat(0, "x", O_RDONLY, 0), -ENOTDIR);   /* the console */
	EXPECT_EQ(raw_openat(77, "/etc/motd", O_RDONLY, 0) >= 0, 1);    /* absolute */
}

TEST(efault_on_every_pointer)
{
	long long pos;
	struct stat64 st;
	struct statx sx;
	long fd = raw_open("/etc/motd", O_RDONLY);

	EXPECT_EQ(raw_open(KPTR, O_RDONLY), -EFAULT);
	EXPECT_EQ(raw_open(NOPTR, O_RDONLY), -EFAULT);
	EXPECT_EQ(raw_openat(AT_FDCWD, KPTR, O_RDONLY, 0), -EFAULT);
	EXPECT_EQ(raw_creat(KPTR, 0644), -EFAULT);
	EXPECT_EQ(raw_read(fd, KPTR, 10), -EFAULT);
	EXPECT_EQ(raw_read(fd, NOPTR, 10), -EFAULT);
	EXPECT_EQ(raw_pread64(fd, KPTR, 10, 0), -EFAULT);
	EXPECT_EQ(raw_write(1, KPTR, 10), -EFAULT);
	EXPECT_EQ(raw_stat64(KPTR, &st), -EFAULT);
	EXPECT_EQ(raw_stat64("/etc/motd", KPTR), -EFAULT);
	EXPECT_EQ(raw_stat64("/etc/motd", NOPTR), -EFAULT);
	EXPECT_EQ(raw_lstat64("/etc/motd", KPTR), -EFAULT);
	EXPECT_EQ(raw_fstat64(fd, KPTR), -EFAULT);
	EXPECT_EQ(raw_fstatat64(AT_FDCWD, KPTR, &st, 0), -EFAULT);
	EXPECT_EQ(raw_statx(AT_FDCWD, "/etc/motd", 0, STATX_BASIC_STATS, KPTR), -EFAULT);
	EXPECT_EQ(raw_statx(AT_FDCWD, KPTR, 0, STATX_BASIC_STATS, &sx), -EFAULT);
	EXPECT_EQ(raw__llseek(fd, 0, 0, KPTR, SEEK_SET), -EFAULT);
	EXPECT_EQ(raw__llseek(fd, 0, 0, &pos, SEEK_SET), 0);
	EXPECT_EQ(raw_truncate64(KPTR, 0), -EFAULT);
	EXPECT_EQ(raw_sendfile64(1, fd, KPTR, 10), -EFAULT);
	EXPECT_EQ(raw_getdents64(fd, KPTR, 100), -ENOTDIR);     /* a file: checked first */
	raw_close(fd);
}

TEST(efault_on_every_name)
{
	char buf[8];

	EXPECT_EQ(raw_mkdir(KPTR, 0755), -EFAULT);
	EXPECT_EQ(raw_mkdirat(AT_FDCWD, NOPTR, 0755), -EFAULT);
	EXPECT_EQ(raw_rmdir(KPTR), -EFAULT);
	EXPECT_EQ(raw_unlink(KPTR), -EFAULT);
	EXPECT_EQ(raw_unlinkat(AT_FDCWD, KPTR, 0), -EFAULT);
	EXPECT_EQ(raw_symlink(KPTR, D "/l"), -EFAULT);
	EXPECT_EQ(raw_symlink("/etc/motd", KPTR), -EFAULT);
	EXPECT_EQ(raw_readlink(KPTR, buf, sizeof(buf)), -EFAULT);
	EXPECT_EQ(raw_readlinkat(AT_FDCWD, KPTR, buf, sizeof(buf)), -EFAULT);
	EXPECT_EQ(raw_chmod(KPTR, 0644), -EFAULT);
	EXPECT_EQ(raw_faccessat(AT_FDCWD, KPTR, F_OK), -EFAULT);
	EXPECT_EQ(raw_renameat(AT_FDCWD, KPTR, AT_FDCWD, D "/x"), -EFAULT);
	EXPECT_EQ(raw_getcwd(NOPTR, 64), -EFAULT);
	EXPECT_EQ(raw_execve(KPTR, NULL, NULL), -EFAULT);
}

/* The *at forms with a directory fd, and the calls not used above. */
TEST(at_calls_and_the_rest)
{
	struct iovec iov[2];
	char a[4] = { 0 }, b[8] = { 0 }, link[16] = { 0 };
	struct stat64 st;
	long dfd = raw_open(D, O_RDONLY | O_DIRECTORY), fd;

	EXPECT(dfd >= 0, "open " D ": %s", t_val(dfd, t_b1_));
	EXPECT_EQ(raw_mkdirat(dfd, "at", 0700), 0);
	fd = raw_openat(dfd, "at/f", O_RDWR | O_CREAT | O_EXCL, 0600);
	EXPECT(fd >= 0, "openat: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_write(fd, "abcdefghij", 10), 10);
	EXPECT_EQ(raw_fsync(fd), 0);
	EXPECT_EQ(raw_syscall1(SYS_fdatasync, fd), 0);
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_SET), 0);
	iov[0].iov_base = a;
	iov[0].iov_len = 3;
	iov[1].iov_base = b;
	iov[1].iov_len = 7;
	EXPECT_EQ(raw_readv(fd, iov, 2), 10);
	EXPECT(!strcmp(a, "abc") && !strcmp(b, "defghij"), "readv: \"%s\" \"%s\"", a, b);
	EXPECT_EQ(raw_fchmod(fd, 0640), 0);
	EXPECT_EQ(raw_fstat64(fd, &st), 0);
	EXPECT_EQ(st.st_mode, S_IFREG | 0640);
	EXPECT_EQ(RAW3(SYS_fchmodat, dfd, "at/f", 0600), 0);
	EXPECT_EQ(raw_syscall2(SYS_ftruncate, fd, 4), 0);
	EXPECT_EQ(raw_fstat64(fd, &st), 0);
	EXPECT_EQ(st.st_size, 4);
	raw_close(fd);
	EXPECT_EQ(RAW3(SYS_symlinkat, "f", dfd, "at/l"), 0);
	EXPECT_EQ(raw_readlinkat(dfd, "at/l", link, sizeof(link)), 1);
	EXPECT_EQ(raw_fstatat64(dfd, "at/l", &st, 0), 0);
	EXPECT_EQ(st.st_size, 4);                       /* followed to f */
	EXPECT_EQ(raw_fstatat64(dfd, "at/l", &st, AT_SYMLINK_NOFOLLOW), 0);
	EXPECT(S_ISLNK(st.st_mode), "lstat'ed %#o", st.st_mode);
	EXPECT_EQ(raw_renameat(dfd, "at/f", dfd, "at/g"), 0);
	EXPECT_EQ(raw_faccessat(dfd, "at/g", R_OK), 0);
	EXPECT_EQ(raw_unlinkat(dfd, "at", AT_REMOVEDIR), -ENOTEMPTY);
	EXPECT_EQ(raw_unlinkat(dfd, "at/g", 0), 0);
	EXPECT_EQ(raw_unlinkat(dfd, "at/l", 0), 0);
	EXPECT_EQ(raw_unlinkat(dfd, "at", AT_REMOVEDIR), 0);
	fd = raw_creat(D "/c", 0755);
	EXPECT(fd >= 0, "creat: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_read(fd, a, 1), -EBADF);          /* creat is O_WRONLY */
	raw_close(fd);
	EXPECT_EQ(RAW2(SYS_truncate, D "/c", 100), 0);
	EXPECT_EQ(raw_stat64(D "/c", &st), 0);
	EXPECT(st.st_size == 100 && st.st_mode == (S_IFREG | 0755), "creat'ed: %lld %#o",
	       st.st_size, st.st_mode);
	EXPECT_EQ(raw_unlink(D "/c"), 0);
	raw_close(dfd);
}

TEST(sendfile_copies)
{
	char buf[64];
	long long off = 3;
	long in, out;

	EXPECT_EQ(put_file(D "/src", "0123456789"), 0);
	in = raw_open(D "/src", O_RDONLY);
	out = raw_open3(D "/dst", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	EXPECT(in >= 0 && out >= 0, "open: %ld %ld", in, out);
	EXPECT_EQ(raw_sendfile64(out, in, &off, 4), 4);
	EXPECT_EQ(off, 7);
	EXPECT_EQ(raw_lseek(in, 0, SEEK_CUR), 0);               /* with an offset: untouched */
	EXPECT_EQ(raw_sendfile64(out, in, NULL, 100), 10);
	EXPECT_EQ(raw_sendfile64(in, out, NULL, 1), -EBADF);
	raw_close(in);
	raw_close(out);
	EXPECT_EQ(get_file(D "/dst", buf, sizeof(buf)), 14);
	EXPECT(!strcmp(buf, "34560123456789"), "copied \"%s\"", buf);
}

TEST(fopen_modes)
{
	char line[32];
	FILE *f = fopen(D "/f", "w");

	EXPECT(f != NULL, "fopen w: %s", strerror(errno));
	fprintf(f, "one %d\n", 1);
	EXPECT_EQ(fclose(f), 0);
	f = fopen(D "/f", "a");
	EXPECT(f != NULL, "fopen a: %s", strerror(errno));
	fputs("two\n", f);
	fclose(f);
	f = fopen(D "/f", "r+");
	EXPECT(f != NULL, "fopen r+: %s", strerror(errno));
	EXPECT(fgets(line, sizeof(line), f) && !strcmp(line, "one 1\n"), "read \"%s\"", line);
	fputs("TWO", f);                        /* over "two", after the read */
	fclose(f);
	f = fopen(D "/f", "r");
	EXPECT(fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f), "short file");
	EXPECT(!strcmp(line, "TWO\n"), "second line \"%s\"", line);
	fclose(f);
	EXPECT(fopen(D "/nodir/f", "w") == NULL && errno == ENOENT, "fopen: %d", errno);
	EXPECT(fopen(D "/f", "q") == NULL && errno == EINVAL, "fopen q: %d", errno);
}

/* Fills the RAM file system in a child until -ENOSPC, then removes the
 * file: every frame comes back, and the kernel and init go on. */
static int fill_up(long arg)
{
	static char chunk[65536];
	long fd = raw_open3(D "/big", O_WRONLY | O_CREAT | O_TRUNC, 0644), r;
	long long total = 0;

	(void)arg;
	if (fd < 0)
		return 10;
	memset(chunk, 'x', sizeof(chunk));
	while ((r = raw_write(fd, chunk, sizeof(chunk))) > 0)
		total += r;
	if (r != -ENOSPC || total < (1 << 20))
		return 11;
	if (raw_write(fd, chunk, sizeof(chunk)) != -ENOSPC)
		return 12;
	if (put_file(D "/small", "x") != -ENOSPC && put_file(D "/small", "x") != 0)
		return 13;
	raw_close(fd);
	return 0;
}

/* The books as before: every object back, and the frames outside the
 * caches (thr_books_same). Free frames alone would differ by a page when
 * a file's name came back in another slab than before. */
#define EXPECT_BOOKS_BACK(k0)                                                   \
	do {                                                                    \
		static struct thr_kstat k1_;                                    \
		static char why_[160];                                          \
		fs_books(&k1_);                                                 \
		EXPECT(thr_books_same(&(k0), &k1_, why_, sizeof(why_)), "%s", why_); \
	} while (0)

TEST(enospc_when_memory_is_full)
{
	static struct thr_kstat k0;

	fs_books(&k0);
	EXPECT(k0.frames_free > 0, "no frames_free in /proc/kstat");
	EXPECT_STATUS(child_status(fill_up, 0), EXITED(0));
	raw_unlink(D "/small");
	EXPECT_EQ(raw_unlink(D "/big"), 0);
	EXPECT_BOOKS_BACK(k0);
	EXPECT_EQ(put_file(D "/after", "still works"), 0);
	EXPECT_EQ(raw_unlink(D "/after"), 0);
}

/* A file that grew far and was truncated back, or whose write faulted
 * past its end, holds no more frames than before: its pages past the end
 * and the slots for them (pages[], 4 bytes a page of the file) are given
 * back (ramfs_trim). Before, the slot array kept its largest size. */
TEST(truncation_gives_back_every_frame)
{
	long fd = raw_open3(D "/shrink", O_RDWR | O_CREAT, 0600);
	static struct thr_kstat k0;
	char buf[8] = { 0 };

	EXPECT(fd >= 0, "open: %s", t_val(fd, t_b1_));
	EXPECT_EQ(raw_write(fd, "kept", 4), 4);
	fs_books(&k0);
	/* Page 16,384: 32,768 slots, 128 KiB of them. */
	EXPECT_EQ(raw_pwrite64(fd, "far", 3, 64LL << 20), 3);
	EXPECT_EQ(raw_ftruncate64(fd, 4), 0);
	EXPECT_BOOKS_BACK(k0);
	/* The page for offset 32 MiB is taken, then the copy faults. */
	EXPECT_EQ(raw_pwrite64(fd, (void *)16, 3, 32LL << 20), -EFAULT);
	EXPECT_BOOKS_BACK(k0);
	EXPECT_EQ(raw_lseek(fd, 0, SEEK_END), 4);
	EXPECT_EQ(raw_pread64(fd, buf, sizeof(buf), 0), 4);
	EXPECT(!strcmp(buf, "kept"), "the file holds \"%s\"", buf);
	EXPECT_EQ(raw_close(fd), 0);
	EXPECT_EQ(raw_unlink(D "/shrink"), 0);
}

TEST(cleanup)
{
	EXPECT_EQ(raw_unlink(D "/a"), 0);
	EXPECT_EQ(raw_unlink(D "/src"), 0);
	EXPECT_EQ(raw_unlink(D "/dst"), 0);
	EXPECT_EQ(raw_unlink(D "/f"), 0);
	EXPECT_EQ(raw_rmdir(D), 0);
}

int main(void)
{
	RUN(create_write_read_back);
	RUN(access_mode_is_enforced);
	RUN(append_and_trunc);
	RUN(holes_truncate_and_positions);
	RUN(an_open_file_outlives_its_name);
	RUN(stat_and_statx);
	RUN(errors_of_names);
	RUN(efault_on_every_pointer);
	RUN(efault_on_every_name);
	RUN(at_calls_and_the_rest);
	RUN(sendfile_copies);
	RUN(fopen_modes);
	RUN(enospc_when_memory_is_full);
	RUN(truncation_gives_back_every_frame);
	RUN(cleanup);
	return t_exit_code();
}
