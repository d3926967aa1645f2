/* user/lib/raw.h - every system call of abi.md section 3, raw.
 *
 * raw_NAME(...) returns exactly what the kernel put in %eax: the result,
 * or -errno on failure. errno is left alone. Tests use these to check
 * exact error numbers; programs normally use the libc functions
 * (unistd.h, ...), which return -1 and set errno instead.
 *
 * Pointers are passed through untouched, so a test may hand the kernel any
 * address it likes. */
#ifndef USER_RAW_H
#define USER_RAW_H

#include "syscall.h"
#include "sys/types.h"

struct iovec;

#define RAW0(nr)                 raw_syscall0(nr)
#define RAW1(nr, a)              raw_syscall1(nr, (long)(a))
#define RAW2(nr, a, b)           raw_syscall2(nr, (long)(a), (long)(b))
#define RAW3(nr, a, b, c)        raw_syscall3(nr, (long)(a), (long)(b), (long)(c))
#define RAW4(nr, a, b, c, d)     raw_syscall4(nr, (long)(a), (long)(b), (long)(c), (long)(d))
#define RAW5(nr, a, b, c, d, e)  raw_syscall5(nr, (long)(a), (long)(b), (long)(c), \
					      (long)(d), (long)(e))
#define RAW6(nr, a, b, c, d, e, f) raw_syscall6(nr, (long)(a), (long)(b), (long)(c), \
						(long)(d), (long)(e), (long)(f))

static inline long raw_exit(int code) { return RAW1(SYS_exit, code); }
static inline long raw_fork(void) { return RAW0(SYS_fork); }
static inline long raw_read(int fd, void *buf, size_t n) { return RAW3(SYS_read, fd, buf, n); }
static inline long raw_write(int fd, const void *buf, size_t n) { return RAW3(SYS_write, fd, buf, n); }
/* open with O_CREAT makes mode 0666 (less the umask); raw_open3 says. */
static inline long raw_open(const char *path, int flags) { return RAW3(SYS_open, path, flags, 0666); }
static inline long raw_open3(const char *path, int flags, unsigned mode)
{ return RAW3(SYS_open, path, flags, mode); }
static inline long raw_close(int fd) { return RAW1(SYS_close, fd); }
static inline long raw_waitpid(pid_t pid, int *status, int options)
{ return RAW3(SYS_waitpid, pid, status, options); }
static inline long raw_execve(const char *path, char *const argv[], char *const envp[])
{ return RAW3(SYS_execve, path, argv, envp); }
static inline long raw_getpid(void) { return RAW0(SYS_getpid); }
static inline long raw_kill(pid_t pid, int sig) { return RAW2(SYS_kill, pid, sig); }
static inline long raw_brk(void *addr) { return RAW1(SYS_brk, addr); }
static inline long raw_getppid(void) { return RAW0(SYS_getppid); }
static inline long raw_munmap(void *addr, size_t len) { return RAW2(SYS_munmap, addr, len); }
static inline long raw_wait4(pid_t pid, int *status, int options, void *rusage)
{ return RAW4(SYS_wait4, pid, status, options, rusage); }
static inline long raw_clone(unsigned long flags, void *newsp, pid_t *ptid,
			     struct user_desc *tls, pid_t *ctid)
{ return RAW5(SYS_clone, flags, newsp, ptid, tls, ctid); }
static inline long raw_modify_ldt(int func, void *ptr, unsigned long bytecount)
{ return RAW3(SYS_modify_ldt, func, ptr, bytecount); }
static inline long raw_mprotect(void *addr, size_t len, int prot)
{ return RAW3(SYS_mprotect, addr, len, prot); }
static inline long raw_writev(int fd, const struct iovec *iov, int iovcnt)
{ return RAW3(SYS_writev, fd, iov, iovcnt); }
static inline long raw_sched_yield(void) { return RAW0(SYS_sched_yield); }
static inline long raw_sched_setaffinity(pid_t pid, size_t len, const void *mask)
{ return RAW3(SYS_sched_setaffinity, pid, len, mask); }
static inline long raw_sched_getaffinity(pid_t pid, size_t len, void *mask)
{ return RAW3(SYS_sched_getaffinity, pid, len, mask); }
static inline long raw_nanosleep(const struct timespec *req, struct timespec *rem)
{ return RAW2(SYS_nanosleep, req, rem); }
static inline long raw_rt_sigaction(int sig, const struct k_sigaction *act,
				    struct k_sigaction *oact, size_t sigsetsize)
{ return RAW4(SYS_rt_sigaction, sig, act, oact, sigsetsize); }
static inline long raw_rt_sigprocmask(int how, const void *set, void *oset, size_t sigsetsize)
{ return RAW4(SYS_rt_sigprocmask, how, set, oset, sigsetsize); }
/* The result is an address or -errno: test it with RAW_IS_ERR. */
static inline long raw_mmap2(void *addr, size_t len, int prot, int flags, int fd,
			     unsigned long pgoff)
{ return RAW6(SYS_mmap2, addr, len, prot, flags, fd, pgoff); }
static inline long raw_gettid(void) { return RAW0(SYS_gettid); }
static inline long raw_futex(int *uaddr, int op, int val, const struct timespec *timeout)
{ return RAW4(SYS_futex, uaddr, op, val, timeout); }
static inline long raw_set_thread_area(struct user_desc *u_info)
{ return RAW1(SYS_set_thread_area, u_info); }
static inline long raw_get_thread_area(struct user_desc *u_info)
{ return RAW1(SYS_get_thread_area, u_info); }
static inline long raw_exit_group(int code) { return RAW1(SYS_exit_group, code); }
static inline long raw_clock_gettime(clockid_t clk, struct timespec *ts)
{ return RAW2(SYS_clock_gettime, clk, ts); }
static inline long raw_tgkill(pid_t tgid, pid_t tid, int sig)
{ return RAW3(SYS_tgkill, tgid, tid, sig); }

/* ---- files (abi.md section 9) ---- */
struct stat64;
struct statx;
struct rlimit;
struct rlimit64;
static inline long raw_openat(int dirfd, const char *path, int flags, unsigned mode)
{ return RAW4(SYS_openat, dirfd, path, flags, mode); }
static inline long raw_creat(const char *path, unsigned mode) { return RAW2(SYS_creat, path, mode); }
static inline long raw_lseek(int fd, long off, int whence) { return RAW3(SYS_lseek, fd, off, whence); }
static inline long raw__llseek(int fd, unsigned long hi, unsigned long lo, long long *res, int whence)
{ return RAW5(SYS__llseek, fd, hi, lo, res, whence); }
static inline long raw_pread64(int fd, void *buf, size_t n, long long off)
{ return RAW5(SYS_pread64, fd, buf, n, (unsigned long)off, (unsigned long)(off >> 32)); }
static inline long raw_pwrite64(int fd, const void *buf, size_t n, long long off)
{ return RAW5(SYS_pwrite64, fd, buf, n, (unsigned long)off, (unsigned long)(off >> 32)); }
static inline long raw_readv(int fd, const struct iovec *iov, int iovcnt)
{ return RAW3(SYS_readv, fd, iov, iovcnt); }
static inline long raw_stat64(const char *path, struct stat64 *st) { return RAW2(SYS_stat64, path, st); }
static inline long raw_lstat64(const char *path, struct stat64 *st) { return RAW2(SYS_lstat64, path, st); }
static inline long raw_fstat64(int fd, struct stat64 *st) { return RAW2(SYS_fstat64, fd, st); }
static inline long raw_fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{ return RAW4(SYS_fstatat64, dirfd, path, st, flags); }
static inline long raw_statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{ return RAW5(SYS_statx, dirfd, path, flags, mask, sx); }
static inline long raw_getdents64(int fd, void *buf, size_t n) { return RAW3(SYS_getdents64, fd, buf, n); }
static inline long raw_mkdir(const char *path, unsigned mode) { return RAW2(SYS_mkdir, path, mode); }
static inline long raw_mkdirat(int dirfd, const char *path, unsigned mode)
{ return RAW3(SYS_mkdirat, dirfd, path, mode); }
static inline long raw_rmdir(const char *path) { return RAW1(SYS_rmdir, path); }
static inline long raw_unlink(const char *path) { return RAW1(SYS_unlink, path); }
static inline long raw_unlinkat(int dirfd, const char *path, int flags)
{ return RAW3(SYS_unlinkat, dirfd, path, flags); }
static inline long raw_rename(const char *from, const char *to) { return RAW2(SYS_rename, from, to); }
static inline long raw_renameat(int ofd, const char *from, int nfd, const char *to)
{ return RAW4(SYS_renameat, ofd, from, nfd, to); }
static inline long raw_symlink(const char *target, const char *path) { return RAW2(SYS_symlink, target, path); }
static inline long raw_link(const char *old, const char *new_) { return RAW2(SYS_link, old, new_); }
static inline long raw_linkat(int ofd, const char *old, int nfd, const char *new_, int flags)
{ return RAW5(SYS_linkat, ofd, old, nfd, new_, flags); }
static inline long raw_mknod(const char *path, unsigned mode, unsigned dev)
{ return RAW3(SYS_mknod, path, mode, dev); }
static inline long raw_mknodat(int dirfd, const char *path, unsigned mode, unsigned dev)
{ return RAW4(SYS_mknodat, dirfd, path, mode, dev); }
static inline long raw_readlink(const char *path, char *buf, size_t n) { return RAW3(SYS_readlink, path, buf, n); }
static inline long raw_readlinkat(int dirfd, const char *path, char *buf, size_t n)
{ return RAW4(SYS_readlinkat, dirfd, path, buf, n); }
static inline long raw_chdir(const char *path) { return RAW1(SYS_chdir, path); }
static inline long raw_fchdir(int fd) { return RAW1(SYS_fchdir, fd); }
static inline long raw_getcwd(char *buf, size_t n) { return RAW2(SYS_getcwd, buf, n); }
static inline long raw_access(const char *path, int mode) { return RAW2(SYS_access, path, mode); }
static inline long raw_faccessat(int dirfd, const char *path, int mode)
{ return RAW3(SYS_faccessat, dirfd, path, mode); }
static inline long raw_dup(int fd) { return RAW1(SYS_dup, fd); }
static inline long raw_dup2(int fd, int fd2) { return RAW2(SYS_dup2, fd, fd2); }
static inline long raw_dup3(int fd, int fd2, int flags) { return RAW3(SYS_dup3, fd, fd2, flags); }
static inline long raw_fcntl64(int fd, int cmd, long arg) { return RAW3(SYS_fcntl64, fd, cmd, arg); }
static inline long raw_ioctl(int fd, unsigned cmd, long arg) { return RAW3(SYS_ioctl, fd, cmd, arg); }
static inline long raw_setpgid(pid_t pid, pid_t pgid) { return RAW2(SYS_setpgid, pid, pgid); }
static inline long raw_getpgid(pid_t pid) { return RAW1(SYS_getpgid, pid); }
static inline long raw_getpgrp(void) { return RAW0(SYS_getpgrp); }
static inline long raw_setsid(void) { return RAW0(SYS_setsid); }
static inline long raw_getsid(pid_t pid) { return RAW1(SYS_getsid, pid); }
static inline long raw_pipe(int fds[2]) { return RAW1(SYS_pipe, fds); }
static inline long raw_pipe2(int fds[2], int flags) { return RAW2(SYS_pipe2, fds, flags); }
static inline long raw_umask(unsigned mask) { return RAW1(SYS_umask, mask); }
static inline long raw_chmod(const char *path, unsigned mode) { return RAW2(SYS_chmod, path, mode); }
static inline long raw_fchmod(int fd, unsigned mode) { return RAW2(SYS_fchmod, fd, mode); }
static inline long raw_truncate64(const char *path, long long len)
{ return RAW3(SYS_truncate64, path, (unsigned long)len, (unsigned long)(len >> 32)); }
static inline long raw_ftruncate64(int fd, long long len)
{ return RAW3(SYS_ftruncate64, fd, (unsigned long)len, (unsigned long)(len >> 32)); }
static inline long raw_fsync(int fd) { return RAW1(SYS_fsync, fd); }
static inline long raw_sendfile64(int out, int in, long long *off, size_t n)
{ return RAW4(SYS_sendfile64, out, in, off, n); }
static inline long raw_ugetrlimit(int res, struct rlimit *r) { return RAW2(SYS_ugetrlimit, res, r); }
static inline long raw_getrlimit(int res, struct rlimit *r) { return RAW2(SYS_getrlimit, res, r); }
static inline long raw_setrlimit(int res, const struct rlimit *r) { return RAW2(SYS_setrlimit, res, r); }
static inline long raw_prlimit64(pid_t pid, int res, const struct rlimit64 *n, struct rlimit64 *o)
{ return RAW4(SYS_prlimit64, pid, res, n, o); }

#endif
