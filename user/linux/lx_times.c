/* user/linux/lx_times.c - CPU time as glibc reads it (abi.md section 9):
 * times(), getrusage() (RUSAGE_SELF, RUSAGE_THREAD, RUSAGE_CHILDREN),
 * wait4()'s struct rusage, clock() and the CPU-time clocks; a busy child
 * reaches tms_cutime when it is reaped; the -EFAULT and -EINVAL paths.
 * Bounds are loose: a tick is 10 ms and a busy host delays the guest. */
#define _GNU_SOURCE
#define LX_PROG "lx_times"
#include "lx.h"
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

/* At least ms of CPU time in user mode (process CPU clock, so that a
 * busy host that runs us late does not shorten it). */
static void spin_cpu(long ms)
{
	struct timespec t;
	long long end;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	end = t.tv_sec * 1000000000ll + t.tv_nsec + ms * 1000000ll;
	do {
		for (int i = 0; i < 100000; i++)
			sink++;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while (t.tv_sec * 1000000000ll + t.tv_nsec < end);
}

static long tv_ms(struct timeval tv)
{
	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

TEST(clock_ticks_per_second)
{
	EXPECT_EQ(sysconf(_SC_CLK_TCK), 100);
}

TEST(times_counts_user_time)
{
	struct tms a, b;
	clock_t t0 = times(&a), t1;

	EXPECT(t0 != (clock_t)-1, "times: %s", strerror(errno));
	spin_cpu(200);
	t1 = times(&b);
	EXPECT(b.tms_utime - a.tms_utime >= 15, "tms_utime %ld -> %ld after 200 ms of CPU",
	       (long)a.tms_utime, (long)b.tms_utime);
	EXPECT(t1 > t0, "times() went from %ld to %ld", (long)t0, (long)t1);
	EXPECT(times(NULL) >= t1, "times(NULL) went back");
}

TEST(clock_and_cpu_clocks)
{
	struct timespec res, p, t;
	clock_t c0 = clock(), c1;

	EXPECT(c0 != (clock_t)-1, "clock() failed");
	spin_cpu(100);
	c1 = clock();
	EXPECT(c1 - c0 >= 80000, "clock() %ld -> %ld after 100 ms of CPU", (long)c0, (long)c1);
	EXPECT_EQ(clock_getres(CLOCK_PROCESS_CPUTIME_ID, &res), 0);
	EXPECT(res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 10000000, "resolution %ld",
	       res.tv_nsec);
	EXPECT_EQ(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &p), 0);
	EXPECT_EQ(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t), 0);
	EXPECT(p.tv_sec > 0 || p.tv_nsec >= 100000000, "process CPU time %ld.%09ld",
	       (long)p.tv_sec, p.tv_nsec);
}

TEST(getrusage_who)
{
	struct rusage self, thread, ch;

	spin_cpu(50);
	EXPECT_EQ(getrusage(RUSAGE_SELF, &self), 0);
	EXPECT_EQ(getrusage(RUSAGE_THREAD, &thread), 0);
	EXPECT_EQ(getrusage(RUSAGE_CHILDREN, &ch), 0);
	EXPECT(tv_ms(self.ru_utime) >= 40, "ru_utime %ld ms", tv_ms(self.ru_utime));
	EXPECT(tv_ms(thread.ru_utime) <= tv_ms(self.ru_utime) + 10, "thread %ld ms, self %ld ms",
	       tv_ms(thread.ru_utime), tv_ms(self.ru_utime));
	EXPECT(self.ru_utime.tv_usec >= 0 && self.ru_utime.tv_usec < 1000000, "tv_usec %ld",
	       (long)self.ru_utime.tv_usec);
	errno = 0;
	EXPECT_EQ(getrusage(2, &self), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(getrusage(-2, &self), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_getrusage, RUSAGE_SELF, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS_getrusage, RUSAGE_CHILDREN, (void *)0xc0000000), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS_times, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(reaped_child_in_cutime_and_wait4_rusage)
{
	struct tms a, b;
	struct rusage ru;
	int st;
	pid_t pid;

	times(&a);
	pid = fork();
	if (pid == 0) {
		spin_cpu(200);
		_exit(0);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(wait4(pid, &st, 0, &ru), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	times(&b);
	EXPECT(tv_ms(ru.ru_utime) >= 150, "the child's ru_utime %ld ms", tv_ms(ru.ru_utime));
	EXPECT(b.tms_cutime - a.tms_cutime >= 15, "tms_cutime %ld -> %ld",
	       (long)a.tms_cutime, (long)b.tms_cutime);
	EXPECT(b.tms_utime - a.tms_utime < 15, "the child's time went to our own utime");
}

/* A bad rusage pointer is -EFAULT. Linux has reaped the child by then
 * (it is gone: -ECHILD after); Spindle leaves it a zombie for the next
 * wait4, as it does for a bad status pointer (docs/linux-abi.md). */
TEST(wait4_bad_rusage)
{
	int st;
	long r;
	pid_t pid = fork();

	if (pid == 0)
		_exit(3);
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(syscall(SYS_wait4, pid, &st, 0, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
	r = wait4(pid, &st, 0, NULL);
	EXPECT(r == pid || (r == -1 && errno == ECHILD), "wait4 again: %ld (%s)", r,
	       strerror(errno));
}

static void *spinner(void *arg)
{
	(void)arg;
	spin_cpu(150);
	return NULL;
}

TEST(a_joined_threads_time_stays)
{
	struct rusage before, after;
	pthread_t th;

	EXPECT_EQ(getrusage(RUSAGE_SELF, &before), 0);
	EXPECT_EQ(pthread_create(&th, NULL, spinner, NULL), 0);
	EXPECT_EQ(pthread_join(th, NULL), 0);
	EXPECT_EQ(getrusage(RUSAGE_SELF, &after), 0);
	EXPECT(tv_ms(after.ru_utime) - tv_ms(before.ru_utime) >= 120,
	       "ru_utime %ld -> %ld ms over a 150 ms thread", tv_ms(before.ru_utime),
	       tv_ms(after.ru_utime));
}

int main(void)
{
	RUN(clock_ticks_per_second);
	RUN(times_counts_user_time);
	RUN(clock_and_cpu_clocks);
	RUN(getrusage_who);
	RUN(reaped_child_in_cutime_and_wait4_rusage);
	RUN(wait4_bad_rusage);
	RUN(a_joined_threads_time_stays);
	return lx_exit_code();
}
