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
static inline long raw_open(const char *path, int flags) { return RAW2(SYS_open, path, flags); }
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

#endif
