/* user/lib/syscalls.c - the libc-style system call functions: the raw
 * call (raw.h), then __syscall_ret turns -errno into errno and -1. */
#include "unistd.h"
#include "fcntl.h"
#include "errno.h"
#include "sched.h"
#include "signal.h"
#include "time.h"
#include "sys/mman.h"
#include "sys/uio.h"
#include "sys/wait.h"
#include "raw.h"
#include "string.h"

int madvise(void *addr, size_t len, int advice) { return __syscall_ret(RAW3(SYS_madvise, addr, len, advice)); }
ssize_t read(int fd, void *buf, size_t n) { return __syscall_ret(raw_read(fd, buf, n)); }
ssize_t write(int fd, const void *buf, size_t n) { return __syscall_ret(raw_write(fd, buf, n)); }
int close(int fd) { return __syscall_ret(raw_close(fd)); }
/* fork() is fork.c's: it runs the library's and the program's fork
 * handlers around the system call. */
pid_t getpid(void) { return raw_getpid(); }        /* cannot fail */
pid_t getppid(void) { return raw_getppid(); }
pid_t gettid(void) { return raw_gettid(); }
int kill(pid_t pid, int sig) { return __syscall_ret(raw_kill(pid, sig)); }
int tgkill(pid_t tgid, pid_t tid, int sig) { return __syscall_ret(raw_tgkill(tgid, tid, sig)); }
int sched_yield(void) { return __syscall_ret(raw_sched_yield()); }

int sched_setaffinity(pid_t pid, size_t setsize, const cpu_set_t *set)
{
	return __syscall_ret(raw_sched_setaffinity(pid, setsize, set));
}

/* The kernel writes only the bytes it has (its return value); as glibc
 * does, the rest of the caller's set is cleared. */
int sched_getaffinity(pid_t pid, size_t setsize, cpu_set_t *set)
{
	long n = raw_sched_getaffinity(pid, setsize, set);

	if (n < 0)
		return __syscall_ret(n);
	memset((char *)set + n, 0, setsize - (size_t)n);
	return 0;
}

int __sched_cpucount(size_t setsize, const cpu_set_t *set)
{
	int n = 0;

	for (size_t i = 0; i < setsize / sizeof(unsigned long); i++)
		n += __builtin_popcountl(set->__bits[i]);
	return n;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return __syscall_ret(raw_execve(path, argv, envp));
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	return __syscall_ret(raw_waitpid(pid, status, options));
}

pid_t wait4(pid_t pid, int *status, int options, void *rusage)
{
	return __syscall_ret(raw_wait4(pid, status, options, rusage));
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt)
{
	return __syscall_ret(raw_writev(fd, iov, iovcnt));
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return __syscall_ret(raw_nanosleep(req, rem));
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return __syscall_ret(raw_clock_gettime(clk, ts));
}

/* ---- memory ---- */
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	if (offset & (PAGE_SIZE - 1)) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return (void *)__syscall_ret(raw_mmap2(addr, len, prot, flags, fd,
					       (unsigned long)offset / PAGE_SIZE));
}

int munmap(void *addr, size_t len) { return __syscall_ret(raw_munmap(addr, len)); }
int mprotect(void *addr, size_t len, int prot) { return __syscall_ret(raw_mprotect(addr, len, prot)); }

/* The kernel's brk returns the new break, or the old one when it cannot
 * move it (abi.md section 3); libc's reports success or ENOMEM. */
static unsigned long current_brk;

int brk(void *addr)
{
	current_brk = (unsigned long)raw_brk(addr);
	if (current_brk != (unsigned long)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(long increment)
{
	if (!current_brk)
		current_brk = (unsigned long)raw_brk(0);
	unsigned long old = current_brk;
	if (increment && brk((void *)(old + increment)) < 0)
		return (void *)-1;
	return (void *)old;
}
