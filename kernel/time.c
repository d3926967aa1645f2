/* kernel/time.c - the clocks and the sleeps of abi.md section 3:
 * nanosleep and clock_gettime. The Linux layer adds (section 9,
 * compat/linux/time_linux.c) clock_getres, clock_nanosleep, the
 * *_time64 calls with a struct timespec64, gettimeofday and time.
 *
 * CLOCK_MONOTONIC is the TSC clock since boot (clock_ns); CLOCK_REALTIME
 * adds the CMOS clock's reading at boot (nothing sets the time, so the
 * two never drift apart). As on Linux, MONOTONIC_RAW and BOOTTIME (no
 * suspend here) read as MONOTONIC, and the _COARSE clocks are the same
 * clocks reported at the tick's resolution. The CPU-time clocks
 * CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID (glibc's clock()
 * reads the first) can be read, at the tick's resolution, where the Linux
 * layer keeps CPU time (compat/linux/cputime.c), but not slept on: -EINVAL there, as for any clock
 * Spindle does not have (Linux sleeps on the process clock). */
#include "kernel/clock.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/time.h"
#include "arch/i386/rtc.h"
#include "arch/i386/uaccess.h"

static uint64_t boot_epoch_ns;

void time_init(void)
{
	boot_epoch_ns = rtc_read_epoch() * NSEC_PER_SEC;
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
uint64_t sleep_until(uint64_t deadline)
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

/* nanosleep and the clock_nanosleeps: a relative or absolute sleep on
 * clock clk. Interrupted by a signal, a relative one writes what was
 * left to urem and either returns -EINTR (a handler ran) or goes on
 * sleeping to the same deadline (a stop and SIGCONT); an absolute one
 * is simply made again (-ERESTARTNOHAND). As Linux. */
long do_nanosleep(int clk, bool abs, uint32_t ureq, uint32_t urem, bool time64)
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
		return EINTR_RESTARTNOHAND;
	if (urem && timespec_to_user(urem, time64, left) < 0)
		return -EFAULT;
	/* The Linux layer makes the call again after a stop, to the same
	 * deadline; the seed kernel says -EINTR. */
	return linux_nanosleep_interrupted(deadline, urem, time64);
}

SYSCALL(SYS_nanosleep, nanosleep)
{
	return do_nanosleep(CLOCK_MONOTONIC, false, arg[0], arg[1], false);
}

/* clock_gettime(clk, ts): CLOCK_REALTIME, CLOCK_MONOTONIC and the
 * others of clock_valid; the Linux layer adds the CPU-time clocks. */
long do_clock_gettime(int clk, uint32_t uts, bool time64)
{
	uint64_t now;

	if (clock_now(clk, &now) < 0 && !linux_cputime_clock(clk, &now))
		return -EINVAL;
	return timespec_to_user(uts, time64, now);
}

SYSCALL(SYS_clock_gettime, clock_gettime)
{
	return do_clock_gettime((int)arg[0], arg[1], false);
}
