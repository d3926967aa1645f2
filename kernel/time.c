/* kernel/time.c - nanosleep and clock_gettime (abi.md section 3).
 *
 * CLOCK_MONOTONIC is the TSC clock since boot (clock_ns); CLOCK_REALTIME
 * adds the CMOS clock's reading at boot. */
#include "kernel/clock.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/rtc.h"
#include "arch/i386/uaccess.h"

#define NSEC_PER_SEC 1000000000ull

static uint64_t boot_epoch_ns;

void time_init(void)
{
	boot_epoch_ns = rtc_read_epoch() * NSEC_PER_SEC;
}

uint64_t clock_realtime_ns(void)
{
	return boot_epoch_ns + clock_ns();
}

static int ts_to_ns(const struct timespec *ts, uint64_t *ns)
{
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || (uint64_t)ts->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	*ns = (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
	return 0;
}

static struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = { (long)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
	return ts;
}

SYSCALL(SYS_nanosleep, nanosleep)
{
	struct timespec req, rem;
	uint64_t ns, left;
	int err;

	if (copy_from_user(&req, arg[0], sizeof(req)))
		return -EFAULT;
	if ((err = ts_to_ns(&req, &ns)) < 0)
		return err;
	/* Sleep again after a wake-up that was not the timer's nor a
	 * signal's: only those two end a nanosleep. */
	left = ns;
	do {
		current->state = TASK_INTERRUPTIBLE;
		left = schedule_timeout(left);
		current->state = TASK_RUNNING;
	} while (left && !signal_pending(current));
	if (left == 0)
		return 0;
	/* Interrupted by a signal: say how much was left, as Linux. */
	rem = ns_to_ts(left);
	if (arg[1] && copy_to_user(arg[1], &rem, sizeof(rem)))
		return -EFAULT;
	return -EINTR;
}

SYSCALL(SYS_clock_gettime, clock_gettime)
{
	struct timespec ts;
	uint64_t now = clock_ns();

	switch (arg[0]) {
	case CLOCK_REALTIME:
		now += boot_epoch_ns;
		break;
	case CLOCK_MONOTONIC:
		break;
	default:
		return -EINVAL;
	}
	ts = ns_to_ts(now);
	return copy_to_user(arg[1], &ts, sizeof(ts)) ? -EFAULT : 0;
}
