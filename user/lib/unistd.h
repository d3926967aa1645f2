/* user/lib/unistd.h - the POSIX calls of abi.md section 3, libc style:
 * on failure they return -1 and set errno (raw.h has the -errno forms). */
#ifndef USER_UNISTD_H
#define USER_UNISTD_H

#include "sys/types.h"

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

#endif
