/* kernel/time.c - the clocks and the sleeps (abi.md sections 3 and 9):
 * nanosleep, clock_gettime, clock_getres, clock_nanosleep (each also as
 * the *_time64 call with a struct timespec64), gettimeofday and time.
 *
 * CLOCK_MONOTONIC is the TSC clock since boot (clock_ns); CLOCK_REALTIME
 * adds the CMOS clock's reading at boot (nothing sets the time, so the
 * two never drift apart). As on Linux, MONOTONIC_RAW and BOOTTIME (no
 * suspend here) read as MONOTONIC, and the _COARSE clocks are the same
 * clocks reported at the tick's resolution. The CPU-time clocks
 * CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID (glibc's clock()
 * reads the first) can be read, at the tick's resolution
 * (kernel/cputime.c), but not slept on: -EINVAL there, as for any clock
 * Spindle does not have (Linux sleeps on the process clock). */
#include "kernel/clock.h"
#include "kernel/cputime.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/restart.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "arch/i386/rtc.h"
#include "arch/i386/uaccess.h"

static uint64_t boot_epoch_ns;

void time_init(void)
{
	boot_epoch_ns = rtc_read_epoch() * NSEC_PER_SEC;
}

/* CLOCK_REALTIME in ns (file times: kernel/fs/inode.c). */
uint64_t clock_realtime_ns(void)
{
	return boot_epoch_ns + clock_ns();
}

uint64_t time_add_sat(uint64_t a, uint64_t b)
{
	return a > TIME_NS_MAX - b ? TIME_NS_MAX : a + b;
}

int timespec_from_user(uint32_t uts, bool time64, uint64_t *ns)
{
	int64_t sec, nsec;

	if (time64) {
		struct timespec64 ts;
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		/* Linux's get_timespec64 on a 32-bit kernel: tv_nsec is a
		 * long, so the upper half (padding) is dropped. */
		sec = ts.tv_sec;
		nsec = (int32_t)(uint32_t)ts.tv_nsec;
	} else {
		struct timespec ts;
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		sec = ts.tv_sec;
		nsec = ts.tv_nsec;
	}
	if (sec < 0 || nsec < 0 || (uint64_t)nsec >= NSEC_PER_SEC)
		return -EINVAL;
	/* 2^64 ns is 584 years: anything beyond 500 is "never". */
	if ((uint64_t)sec >= 500ull * 365 * 86400)
		*ns = TIME_NS_MAX;
	else
		*ns = (uint64_t)sec * NSEC_PER_SEC + (uint64_t)nsec;
	return 0;
}

int timespec_to_user(uint32_t uts, bool time64, uint64_t ns)
{
	if (time64) {
		struct timespec64 ts = { (long long)(ns / NSEC_PER_SEC),
					 (long long)(ns % NSEC_PER_SEC) };
		return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
	} else {
		struct timespec ts = { (long)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
		return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
	}
}

static bool clock_is_realtime(int clk)
{
	return clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_COARSE;
}

/* The clocks Spindle has (the comment at the top). */
static bool clock_valid(int clk)
{
	switch (clk) {
	case CLOCK_REALTIME: case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE: case CLOCK_MONOTONIC_COARSE: case CLOCK_BOOTTIME:
		return true;
	default:
		return false;
	}
}

int clock_now(int clk, uint64_t *ns)
{
	if (!clock_valid(clk))
		return -EINVAL;
	*ns = clock_ns() + (clock_is_realtime(clk) ? boot_epoch_ns : 0);
	return 0;
}

uint64_t clock_to_monotonic(int clk, uint64_t ns)
{
	if (!clock_is_realtime(clk) || ns == TIME_NS_MAX)
		return ns;
	return ns > boot_epoch_ns ? ns - boot_epoch_ns : 0;
}

/* Sleeps until the CLOCK_MONOTONIC time deadline or a signal: the
 * nanoseconds that were left (0: the whole sleep). Another wake-up (not
 * the timer's nor a signal's) sleeps again: only those two end a sleep. */
static uint64_t sleep_until(uint64_t deadline)
{
	for (;;) {
		uint64_t now = clock_ns();
		if (now >= deadline)
			return 0;
		if (signal_pending(current))
			return deadline - now;
		current->state = TASK_INTERRUPTIBLE;
		schedule_timeout(deadline == TIME_NS_MAX ? TIME_NS_MAX - 1 : deadline - now);
		current->state = TASK_RUNNING;
	}
}

/* A relative sleep a signal cut short: what was left goes to urem (if
 * not 0), and the sleep's deadline to the restart block, so that made
 * again after a stop it ends when it would have (Linux's
 * hrtimer_nanosleep_restart); a handler gets -EINTR (kernel/restart.h). */
static long nanosleep_restart(struct restart_block *rb);

static long nanosleep_interrupted(uint64_t deadline, uint64_t left, uint32_t urem, bool time64)
{
	struct restart_block *rb;

	if (urem && timespec_to_user(urem, time64, left) < 0)
		return -EFAULT;
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
	return left ? nanosleep_interrupted(deadline, left, urem, time64) : 0;
}

/* nanosleep and the clock_nanosleeps: a relative or absolute sleep on
 * clock clk. Interrupted by a signal, a relative one writes what was
 * left to urem and either returns -EINTR (a handler ran) or goes on
 * sleeping to the same deadline (a stop and SIGCONT); an absolute one
 * is simply made again (-ERESTARTNOHAND). As Linux. */
static long do_nanosleep(int clk, bool abs, uint32_t ureq, uint32_t urem, bool time64)
{
	uint64_t ns, deadline, left;
	int err;

	if ((err = timespec_from_user(ureq, time64, &ns)) < 0)
		return err;
	if (!clock_valid(clk))
		return -EINVAL;
	deadline = abs ? clock_to_monotonic(clk, ns) : time_add_sat(clock_ns(), ns);
	left = sleep_until(deadline);
	if (left == 0)
		return 0;
	if (abs)
		return -ERESTARTNOHAND;
	return nanosleep_interrupted(deadline, left, urem, time64);
}

SYSCALL(SYS_nanosleep, nanosleep)
{
	return do_nanosleep(CLOCK_MONOTONIC, false, arg[0], arg[1], false);
}

/* clock_nanosleep(clk, flags, req, rem): flags TIMER_ABSTIME or 0 (other
 * bits are ignored, as Linux). */
SYSCALL(SYS_clock_nanosleep, clock_nanosleep)
{
	return do_nanosleep((int)arg[0], arg[1] & TIMER_ABSTIME, arg[2], arg[3], false);
}

SYSCALL(SYS_clock_nanosleep_time64, clock_nanosleep_time64)
{
	return do_nanosleep((int)arg[0], arg[1] & TIMER_ABSTIME, arg[2], arg[3], true);
}

static bool clock_is_cputime(int clk)
{
	return clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID;
}

static long do_gettime(int clk, uint32_t uts, bool time64)
{
	uint64_t now;
	int err = 0;

	if (clock_is_cputime(clk))
		now = cputime_ns(clk == CLOCK_THREAD_CPUTIME_ID);
	else
		err = clock_now(clk, &now);

	return err < 0 ? err : timespec_to_user(uts, time64, now);
}

SYSCALL(SYS_clock_gettime, clock_gettime)
{
	return do_gettime((int)arg[0], arg[1], false);
}

SYSCALL(SYS_clock_gettime64, clock_gettime64)
{
	return do_gettime((int)arg[0], arg[1], true);
}

/* The resolution: 1 ns for the TSC clocks (Linux's hrtimer clocks say
 * the same), one tick for the _COARSE ones. res may be NULL. */
static long do_getres(int clk, uint32_t ures, bool time64)
{
	uint64_t res = (clk == CLOCK_REALTIME_COARSE || clk == CLOCK_MONOTONIC_COARSE ||
			clock_is_cputime(clk)) ? NSEC_PER_SEC / HZ : 1;

	if (!clock_valid(clk) && !clock_is_cputime(clk))
		return -EINVAL;
	return ures ? timespec_to_user(ures, time64, res) : 0;
}

SYSCALL(SYS_clock_getres, clock_getres)
{
	return do_getres((int)arg[0], arg[1], false);
}

SYSCALL(SYS_clock_getres_time64, clock_getres_time64)
{
	return do_getres((int)arg[0], arg[1], true);
}

/* gettimeofday(tv, tz): either may be NULL; the time zone is UTC's
 * (struct timezone: minutes west 0, no DST). */
SYSCALL(SYS_gettimeofday, gettimeofday)
{
	uint64_t now = clock_ns() + boot_epoch_ns;
	struct timeval tv = { (long)(now / NSEC_PER_SEC), (long)(now % NSEC_PER_SEC / 1000) };
	int tz[2] = { 0, 0 };

	if (arg[0] && copy_to_user(arg[0], &tv, sizeof(tv)))
		return -EFAULT;
	if (arg[1] && copy_to_user(arg[1], tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

/* time(tloc): the seconds since 1970, also stored at tloc if not NULL. */
SYSCALL(SYS_time, time)
{
	long secs = (long)((clock_ns() + boot_epoch_ns) / NSEC_PER_SEC);

	if (arg[0] && copy_to_user(arg[0], &secs, sizeof(secs)))
		return -EFAULT;
	return secs;
}
