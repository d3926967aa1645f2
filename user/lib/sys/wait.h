/* user/lib/sys/wait.h - waitpid, wait4 and the status encoding of
 * abi.md section 3: exited (code & 0xff) << 8, killed: the signal number. */
#ifndef USER_SYS_WAIT_H
#define USER_SYS_WAIT_H

#include "sys/types.h"
#include "lib/abi.h"        /* WNOHANG, __WALL, __WCLONE */

#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WTERMSIG(s)    ((s) & 0x7f)
#define WIFEXITED(s)   (WTERMSIG(s) == 0)
#define WIFSIGNALED(s) (WTERMSIG(s) != 0 && WTERMSIG(s) != 0x7f)

pid_t waitpid(pid_t pid, int *status, int options);
pid_t wait4(pid_t pid, int *status, int options, void *rusage);

#endif
