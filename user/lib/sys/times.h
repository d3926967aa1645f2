/* user/lib/sys/times.h - times(2): the process's CPU time and its reaped
 * children's, in clock ticks of 1/100 s (Linux i386's USER_HZ, which
 * sysconf(_SC_CLK_TCK) would say). struct tms is lib/abi.h's. */
#ifndef USER_SYS_TIMES_H
#define USER_SYS_TIMES_H

#include "sys/types.h"
#include "lib/abi_linux.h"

#define CLK_TCK 100

/* The ticks since boot, or (clock_t)-1 with errno set. */
clock_t times(struct tms *buf);

#endif
