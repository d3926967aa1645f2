/* user/lib/signal.h - signals (abi.md section 7). The numbers, SA_* and
 * the kernel's struct k_sigaction are lib/abi.h's; the values here are
 * Linux i386's. The libc struct sigaction and its functions come with the
 * full libc; until then use raw_rt_sigaction (raw.h). */
#ifndef USER_SIGNAL_H
#define USER_SIGNAL_H

#include "sys/types.h"
#include "lib/abi.h"

#ifndef SIG_DFL
#define SIG_DFL ((void *)0)
#define SIG_IGN ((void *)1)
#endif
#ifndef SIG_BLOCK
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#endif
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

/* The kernel's sigset: 64 bits, signal s is bit s - 1. */
#define SIGSET_SIZE 8
#define SIGBIT(s) (1ull << ((s) - 1))

/* The SA_RESTORER restorer (sigreturn.S): calls rt_sigreturn. */
void __restore_rt(void);

int kill(pid_t pid, int sig);
int tgkill(pid_t tgid, pid_t tid, int sig);

#endif
