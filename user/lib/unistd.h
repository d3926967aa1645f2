/* user/lib/unistd.h - the POSIX calls of abi.md section 3, libc style:
 * on failure they return -1 and set errno (raw.h has the -errno forms). */
#ifndef USER_UNISTD_H
#define USER_UNISTD_H

#include "sys/types.h"
#include "lib/abi_linux.h"            /* SEEK_*, R_OK ... */

#define STDIN_FILENO  0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

extern char **environ;

ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
int close(int fd);
pid_t fork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
pid_t getpid(void);
pid_t getppid(void);
pid_t gettid(void);
int brk(void *addr);            /* 0, or -1 with ENOMEM */
void *sbrk(long increment);     /* the old break, or (void *)-1 with ENOMEM */
void _exit(int code) __attribute__((noreturn));

/* files (abi.md section 9) */
off_t lseek(int fd, off_t off, int whence);
ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);
int dup(int fd);
int dup2(int fd, int fd2);
int dup3(int fd, int fd2, int flags);
int pipe(int fds[2]);
int pipe2(int fds[2], int flags);
int chdir(const char *path);
int fchdir(int fd);
char *getcwd(char *buf, size_t size);
int access(const char *path, int mode);
int faccessat(int dirfd, const char *path, int mode, int flags);
int unlink(const char *path);
int unlinkat(int dirfd, const char *path, int flags);
int rmdir(const char *path);
int symlink(const char *target, const char *path);
int link(const char *old, const char *new_);
int linkat(int olddirfd, const char *old, int newdirfd, const char *new_, int flags);
ssize_t readlink(const char *path, char *buf, size_t n);
ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t n);
int truncate(const char *path, off_t len);
int ftruncate(int fd, off_t len);
int fsync(int fd);

/* process groups, sessions and the terminal (tty.c) */
int setpgid(pid_t pid, pid_t pgid);
pid_t getpgid(pid_t pid);
pid_t getpgrp(void);
pid_t setsid(void);
pid_t getsid(pid_t pid);
pid_t tcgetpgrp(int fd);
int tcsetpgrp(int fd, pid_t pgrp);
int isatty(int fd);

/* signals and timers (signal.c) */
int pause(void);
unsigned int alarm(unsigned int seconds);

#endif
