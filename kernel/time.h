/* kernel/time.h - the clocks of the system calls, and user timespecs
 * (kernel/time.c). Every time here is in nanoseconds: CLOCK_MONOTONIC's
 * are clock_ns() (since boot), CLOCK_REALTIME's since 1970. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include "lib/types.h"

#define NSEC_PER_SEC 1000000000ull
#define TIME_NS_MAX UINT64_MAX      /* "never": beyond any reachable time */

/* A user's struct timespec (time64: struct timespec64, whose tv_nsec's
 * upper half is padding), checked as Linux's timespec64_valid: tv_sec >= 0
 * and 0 <= tv_nsec < 10^9, else -EINVAL; -EFAULT. Times too far to
 * count in 64-bit nanoseconds become TIME_NS_MAX. */
int timespec_from_user(uint32_t uts, bool time64, uint64_t *ns);
/* Writes ns as a struct timespec or timespec64: 0 or -EFAULT. */
int timespec_to_user(uint32_t uts, bool time64, uint64_t ns);
/* The time of clock clk now: 0, or -EINVAL for a clock Spindle lacks. */
int clock_now(int clk, uint64_t *ns);
/* An absolute time of clock clk, as a CLOCK_MONOTONIC time. */
uint64_t clock_to_monotonic(int clk, uint64_t ns);
/* Sleeps until the CLOCK_MONOTONIC time deadline or a signal: the ns
 * that were left (0: the whole sleep). */
uint64_t sleep_until(uint64_t deadline);
/* nanosleep, absolute (TIMER_ABSTIME) or not, on clock clk; and
 * clock_gettime (kernel/time.c). */
long do_nanosleep(int clk, bool abs, uint32_t ureq, uint32_t urem, bool time64);
long do_clock_gettime(int clk, uint32_t uts, bool time64);
/* a + b, or TIME_NS_MAX when that would overflow. */
uint64_t time_add_sat(uint64_t a, uint64_t b);

#endif
