/* user/lib/sys/time.h - interval timers (setitimer, getitimer: only
 * ITIMER_REAL, which sends SIGALRM) and struct timeval, Linux i386's. */
#ifndef USER_SYS_TIME_H
#define USER_SYS_TIME_H

#include "sys/types.h"
#include "lib/abi_linux.h"            /* struct timeval, Linux i386's */

typedef long suseconds_t;

#define ITIMER_REAL    0
#define ITIMER_VIRTUAL 1        /* EINVAL: no CPU-time accounting */
#define ITIMER_PROF    2        /* EINVAL */

struct itimerval {
	struct timeval it_interval;     /* re-armed with this; 0: once */
	struct timeval it_value;        /* time left; 0: disarmed */
};

int setitimer(int which, const struct itimerval *value, struct itimerval *old);
int getitimer(int which, struct itimerval *value);

#endif
