/* user/lib/sys/wait.h - waitpid, wait4 and the status encoding of
 * abi.md section 3: exited (code & 0xff) << 8, killed: the signal number,
 * stopped (0x7f), continued (0xffff). */
#ifndef USER_SYS_WAIT_H
#define USER_SYS_WAIT_H

#include "sys/types.h"
#include "lib/abi_linux.h"        /* WNOHANG, __WALL, __WCLONE */

/* WEXITSTATUS, WTERMSIG, WIFEXITED ... are lib/abi.h's. Job control
 * (compat/linux/jobctl.c): wait4 reports a stopped or continued child
 * only when asked. */
#define WUNTRACED   2
#define WCONTINUED  8

pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait4(pid_t pid, int *status, int options, void *rusage);

#endif
