/* compat/linux/time_linux.c - the Linux layer's clocks and sleeps (abi.md
 * section 9): clock_nanosleep and the *_time64 calls, clock_getres,
 * gettimeofday and time, the CPU-time clocks, and the restart of an
 * interrupted nanosleep (compat/linux/restart.h). The core's nanosleep
 * and clock_gettime are in kernel/time.c. */
#include "compat/linux/layer.h"
#include "kernel/clock.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "compat/linux/cputime.h"
#include "compat/linux/restart.h"
#include "arch/i386/uaccess.h"

/* A relative sleep a signal cut short: what was left goes to urem (if
 * not 0), and the sleep's deadline to the restart block, so that made
 * again after a stop it ends when it would have (Linux's
 * hrtimer_nanosleep_restart); a handler gets -EINTR (compat/linux/restart.h). */
static long nanosleep_restart(struct restart_block *rb);

long linux_nanosleep_interrupted(uint64_t deadline, uint32_t urem, bool time64)
{
	struct restart_block *rb;

	rb = restart_block_set(nanosleep_restart, deadline);
	rb->arg[0] = urem;
	rb->arg[1] = time64;
	return -ERESTART_RESTARTBLOCK;
}

static long nanosleep_restart(struct restart_block *rb)
{
	uint64_t deadline = rb->deadline, left;
	uint32_t urem = rb->arg[0];
	bool time64 = rb->arg[1];

	left = sleep_until(deadline);
	if (left == 0)
		return 0;
	if (urem && timespec_to_user(urem, time64, left) < 0)
		return -EFAULT;
	return linux_nanosleep_interrupted(deadline, urem, time64);
}

/* clock_nanosleep(clk, flags, req, rem): flags TIMER_ABSTIME or 0 (other
 * bits are ignored, as Linux). */
LINUX_SYSCALL(SYS_clock_nanosleep, clock_nanosleep)
{
	return do_nanosleep((int)arg[0], arg[1] & TIMER_ABSTIME, arg[2], arg[3], false);
}

LINUX_SYSCALL(SYS_clock_nanosleep_time64, clock_nanosleep_time64)
{
	return do_nanosleep((int)arg[0], arg[1] & TIMER_ABSTIME, arg[2], arg[3], true);
}

static bool clock_is_cputime(int clk)
{
	return clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID;
}

bool linux_cputime_clock(int clk, uint64_t *ns)
{
	if (!clock_is_cputime(clk))
		return false;
	*ns = cputime_ns(clk == CLOCK_THREAD_CPUTIME_ID);
	return true;
}

LINUX_SYSCALL(SYS_clock_gettime64, clock_gettime64)
{
	return do_clock_gettime((int)arg[0], arg[1], true);
}

/* The resolution: 1 ns for the TSC clocks (Linux's hrtimer clocks say
 * the same), one tick for the _COARSE ones. res may be NULL. */
static long do_getres(int clk, uint32_t ures, bool time64)
{
	uint64_t res = (clk == CLOCK_REALTIME_COARSE || clk == CLOCK_MONOTONIC_COARSE ||
			clock_is_cputime(clk)) ? NSEC_PER_SEC / HZ : 1;

	uint64_t now;

	if (clock_now(clk, &now) < 0 && !clock_is_cputime(clk))
		return -EINVAL;
	return ures ? timespec_to_user(ures, time64, res) : 0;
}

LINUX_SYSCALL(SYS_clock_getres, clock_getres)
{
	return do_getres((int)arg[0], arg[1], false);
}

LINUX_SYSCALL(SYS_clock_getres_time64, clock_getres_time64)
{
	return do_getres((int)arg[0], arg[1], true);
}

uint64_t realtime_ns(void)
{
	uint64_t ns;

	clock_now(CLOCK_REALTIME, &ns);         /* a valid clock: 0 */
	return ns;
}

/* gettimeofday(tv, tz): either may be NULL; the time zone is UTC's
 * (struct timezone: minutes west 0, no DST). */
LINUX_SYSCALL(SYS_gettimeofday, gettimeofday)
{
	uint64_t now = realtime_ns();
	struct timeval tv = { (long)(now / NSEC_PER_SEC), (long)(now % NSEC_PER_SEC / 1000) };
	int tz[2] = { 0, 0 };

	if (arg[0] && copy_to_user(arg[0], &tv, sizeof(tv)))
		return -EFAULT;
	if (arg[1] && copy_to_user(arg[1], tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

/* time(tloc): the seconds since 1970, also stored at tloc if not NULL. */
LINUX_SYSCALL(SYS_time, time)
{
	long secs = (long)(realtime_ns() / NSEC_PER_SEC);

	if (arg[0] && copy_to_user(arg[0], &secs, sizeof(secs)))
		return -EFAULT;
	return secs;
}
