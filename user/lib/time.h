/* user/lib/time.h - clocks and sleeping (struct timespec and the clock ids
 * are lib/abi.h's). */
#ifndef USER_TIME_H
#define USER_TIME_H

#include "sys/types.h"
#include "lib/abi_linux.h"

int nanosleep(const struct timespec *req, struct timespec *rem);
int clock_gettime(clockid_t clk, struct timespec *ts);

#endif
