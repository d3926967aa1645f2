/* user/lib/sys/wait.h - waitpid, wait4 and the status encoding of
 * abi.md section 3: exited (code & 0xff) << 8, killed: the signal number,
 * stopped (0x7f), continued (0xffff). */
#ifndef USER_SYS_WAIT_H
#define USER_SYS_WAIT_H

#include "sys/types.h"
#include "lib/abi.h"        /* WNOHANG, __WALL, __WCLONE */

#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WTERMSIG(s)    ((s) & 0x7f)
#define WIFEXITED(s)   (WTERMSIG(s) == 0)
#define WIFSIGNALED(s) (WTERMSIG(s) != 0 && WTERMSIG(s) != 0x7f)
/* Job control (kernel/jobctl.c): a stopped child is 0x7f with the stop
 * signal above it, a continued one 0xffff; wait4 reports them only when
 * asked. */
#define WIFSTOPPED(s)   (((s) & 0xff) == 0x7f)
#define WSTOPSIG(s)     WEXITSTATUS(s)
#define WIFCONTINUED(s) ((s) == 0xffff)
#define WUNTRACED   2
#define WCONTINUED  8

pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait4(pid_t pid, int *status, int options, void *rusage);

#endif
