/* user/lib/files.c - the libc side of the file calls (abi.md section 9):
 * the raw call (raw.h), then __syscall_ret turns -errno into errno, -1. */
#include "unistd.h"
#include "fcntl.h"
#include "errno.h"
#include "stdio.h"
#include "sys/stat.h"
#include "sys/resource.h"
#include "sys/times.h"
#include "raw.h"

int open(const char *path, int flags, ...)
{
	unsigned mode = 0;

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, unsigned);
		va_end(ap);
	}
	return __syscall_ret(raw_open3(path, flags, mode));
}

int openat(int dirfd, const char *path, int flags, ...)
{
	unsigned mode = 0;

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, unsigned);
		va_end(ap);
	}
	return __syscall_ret(raw_openat(dirfd, path, flags, mode));
}

int creat(const char *path, mode_t mode) { return __syscall_ret(raw_creat(path, mode)); }

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);         /* absent for F_GETFD/F_GETFL: unused */
	va_end(ap);
	return __syscall_ret(raw_fcntl64(fd, cmd, arg));
}

/* off_t is 32 bits: _llseek, with -EOVERFLOW past 2 GiB (Linux's lseek). */
off_t lseek(int fd, off_t off, int whence)
{
	long long res;
	long r = raw__llseek(fd, off < 0 ? ~0ul : 0, (unsigned long)off, &res, whence);

	if (r < 0)
		return __syscall_ret(r);
	if (res > 0x7fffffff) {
		errno = EOVERFLOW;
		return -1;
	}
	return (off_t)res;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off) { return __syscall_ret(raw_pread64(fd, buf, n, off)); }
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return __syscall_ret(raw_pwrite64(fd, buf, n, off));
}
int dup(int fd) { return __syscall_ret(raw_dup(fd)); }
int dup2(int fd, int fd2) { return __syscall_ret(raw_dup2(fd, fd2)); }
int dup3(int fd, int fd2, int flags) { return __syscall_ret(raw_dup3(fd, fd2, flags)); }
int pipe(int fds[2]) { return __syscall_ret(raw_pipe(fds)); }
int pipe2(int fds[2], int flags) { return __syscall_ret(raw_pipe2(fds, flags)); }
int chdir(const char *path) { return __syscall_ret(raw_chdir(path)); }
int fchdir(int fd) { return __syscall_ret(raw_fchdir(fd)); }

char *getcwd(char *buf, size_t size)
{
	long r = raw_getcwd(buf, size);

	return r < 0 ? (errno = (int)-r, (char *)NULL) : buf;
}

int access(const char *path, int mode) { return __syscall_ret(raw_access(path, mode)); }

int faccessat(int dirfd, const char *path, int mode, int flags)
{
	if (flags) {                    /* faccessat2's flags: not here */
		errno = EINVAL;
		return -1;
	}
	return __syscall_ret(raw_faccessat(dirfd, path, mode));
}

int unlink(const char *path) { return __syscall_ret(raw_unlink(path)); }
int unlinkat(int dirfd, const char *path, int flags) { return __syscall_ret(raw_unlinkat(dirfd, path, flags)); }
int rmdir(const char *path) { return __syscall_ret(raw_rmdir(path)); }
int symlink(const char *target, const char *path) { return __syscall_ret(raw_symlink(target, path)); }
int link(const char *old, const char *new_) { return __syscall_ret(raw_link(old, new_)); }
int linkat(int ofd, const char *old, int nfd, const char *new_, int flags)
{
	return __syscall_ret(raw_linkat(ofd, old, nfd, new_, flags));
}
int mknod(const char *path, mode_t mode, unsigned long dev)
{
	return __syscall_ret(raw_mknod(path, mode, (unsigned)dev));
}
int mknodat(int dirfd, const char *path, mode_t mode, unsigned long dev)
{
	return __syscall_ret(raw_mknodat(dirfd, path, mode, (unsigned)dev));
}
int mkfifo(const char *path, mode_t mode) { return mknod(path, S_IFIFO | (mode & 07777), 0); }
ssize_t readlink(const char *path, char *buf, size_t n) { return __syscall_ret(raw_readlink(path, buf, n)); }
ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t n)
{
	return __syscall_ret(raw_readlinkat(dirfd, path, buf, n));
}
int truncate(const char *path, off_t len) { return __syscall_ret(raw_truncate64(path, len)); }
int ftruncate(int fd, off_t len) { return __syscall_ret(raw_ftruncate64(fd, len)); }
int fsync(int fd) { return __syscall_ret(raw_fsync(fd)); }
int rename(const char *from, const char *to) { return __syscall_ret(raw_rename(from, to)); }

/* C's remove: a file, or else an empty directory (as glibc). */
int remove(const char *path)
{
	long r = raw_unlink(path);

	if (r == -EISDIR)
		r = raw_rmdir(path);
	return __syscall_ret(r);
}

/* ---- stat ---- */

static int from_stat64(long r, const struct stat64 *k, struct stat *st)
{
	if (r < 0)
		return __syscall_ret(r);
	st->st_dev = k->st_dev;
	st->st_ino = k->st_ino;
	st->st_mode = k->st_mode;
	st->st_nlink = k->st_nlink;
	st->st_uid = (uid_t)k->st_uid;
	st->st_gid = (gid_t)k->st_gid;
	st->st_rdev = k->st_rdev;
	st->st_size = k->st_size;
	st->st_blksize = (blksize_t)k->st_blksize;
	st->st_blocks = (blkcnt_t)k->st_blocks;
	st->st_atime = (time_t)k->st_atime_sec;
	st->st_mtime = (time_t)k->st_mtime_sec;
	st->st_ctime = (time_t)k->st_ctime_sec;
	st->st_atime_nsec = (long)k->st_atime_nsec;
	st->st_mtime_nsec = (long)k->st_mtime_nsec;
	st->st_ctime_nsec = (long)k->st_ctime_nsec;
	return 0;
}

int stat(const char *path, struct stat *st)
{
	struct stat64 k;
	return from_stat64(raw_stat64(path, &k), &k, st);
}

int lstat(const char *path, struct stat *st)
{
	struct stat64 k;
	return from_stat64(raw_lstat64(path, &k), &k, st);
}

int fstat(int fd, struct stat *st)
{
	struct stat64 k;
	return from_stat64(raw_fstat64(fd, &k), &k, st);
}

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	struct stat64 k;
	return from_stat64(raw_fstatat64(dirfd, path, &k, flags), &k, st);
}

int mkdir(const char *path, mode_t mode) { return __syscall_ret(raw_mkdir(path, mode)); }
int mkdirat(int dirfd, const char *path, mode_t mode) { return __syscall_ret(raw_mkdirat(dirfd, path, mode)); }
int chmod(const char *path, mode_t mode) { return __syscall_ret(raw_chmod(path, mode)); }
int fchmod(int fd, mode_t mode) { return __syscall_ret(raw_fchmod(fd, mode)); }
mode_t umask(mode_t mask) { return (mode_t)raw_umask(mask); }

/* ---- limits ---- */

int getrlimit(int res, struct rlimit *r) { return __syscall_ret(raw_ugetrlimit(res, r)); }
int setrlimit(int res, const struct rlimit *r) { return __syscall_ret(raw_setrlimit(res, r)); }

/* The CPU-time calls (compat/linux/cputime.c): here with getrlimit, their
 * neighbours in <sys/resource.h>. */
int getrusage(int who, struct rusage *ru) { return __syscall_ret(RAW2(SYS_getrusage, who, ru)); }
clock_t times(struct tms *buf) { return __syscall_ret(RAW1(SYS_times, buf)); }
