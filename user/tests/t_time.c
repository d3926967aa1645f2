/* user/tests/t_time.c - clocks and sleeping (abi.md section 3):
 * clock_gettime on CLOCK_REALTIME and CLOCK_MONOTONIC, nanosleep sleeping
 * at least as long as asked and being cut short by a signal, the -EINVAL
 * paths, sched_yield. Booted as init. */
#define T_PROG "t_time"
#include "t.h"
#include "signal.h"

#define NSEC 1000000000LL

static long long ns(const struct timespec *t)
{
	return t->tv_sec * NSEC + t->tv_nsec;
}

static long long now(clockid_t clk)
{
	struct timespec t = { -1, -1 };
	if (raw_clock_gettime(clk, &t))
		return -1;
	return ns(&t);
}

static bool valid(const struct timespec *t)
{
	return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < NSEC;
}

TEST(clock_gettime_monotonic)
{
	struct timespec a = { -1, -1 }, b;

	EXPECT_EQ(raw_clock_gettime(CLOCK_MONOTONIC, &a), 0);
	EXPECT(valid(&a), "monotonic time %ld.%09ld", a.tv_sec, a.tv_nsec);
	for (int i = 0; i < 10000; i++) {
		EXPECT_EQ(raw_clock_gettime(CLOCK_MONOTONIC, &b), 0);
		EXPECT(valid(&b) && ns(&b) >= ns(&a), "monotonic time went from %ld.%09ld to "
		       "%ld.%09ld", a.tv_sec, a.tv_nsec, b.tv_sec, b.tv_nsec);
		a = b;
	}
}

TEST(clock_gettime_realtime)
{
	struct timespec t = { -1, -1 };

	EXPECT_EQ(raw_clock_gettime(CLOCK_REALTIME, &t), 0);
	EXPECT(valid(&t), "real time %ld.%09ld", t.tv_sec, t.tv_nsec);
}

/* CLOCK_REALTIME counts from the Epoch (Linux): anything before 2000 is a
 * clock that was never set. */
TEST(realtime_is_since_the_epoch)
{
	struct timespec t = { -1, -1 };

	EXPECT_EQ(raw_clock_gettime(CLOCK_REALTIME, &t), 0);
	EXPECT(t.tv_sec >= 946684800, "real time %ld s is before 2000-01-01", t.tv_sec);
}

/* Both clocks tick at the same rate. */
TEST(realtime_advances_with_monotonic)
{
	struct timespec req = { 0, 100 * 1000 * 1000 };
	long long m0 = now(CLOCK_MONOTONIC), r0 = now(CLOCK_REALTIME);

	EXPECT_EQ(raw_nanosleep(&req, NULL), 0);
	long long m = now(CLOCK_MONOTONIC) - m0, r = now(CLOCK_REALTIME) - r0;
	EXPECT(r > 0 && (r - m < 50000000 && m - r < 50000000),
	       "over one sleep monotonic advanced %lld ns, realtime %lld ns", m, r);
}

TEST(bad_clock_is_einval)
{
	static const int clocks[] = { -1, 16, 100, 0x7fffffff };
	struct timespec t;

	for (unsigned i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		EXPECT(raw_clock_gettime(clocks[i], &t) == -EINVAL,
		       "clock_gettime(%d) returned %s, want -EINVAL", clocks[i],
		       t_val(raw_clock_gettime(clocks[i], &t), t_b1_));
}

static void sleep_at_least(long sec, long nsec)
{
	struct timespec req = { sec, nsec }, rem = { -1, -1 };
	long long t0 = now(CLOCK_MONOTONIC);

	EXPECT_EQ(raw_nanosleep(&req, &rem), 0);
	long long slept = now(CLOCK_MONOTONIC) - t0;
	EXPECT(slept >= ns(&req), "nanosleep(%ld.%09ld) returned after %lld ns", sec, nsec,
	       slept);
	EXPECT(slept < ns(&req) + 10 * NSEC, "nanosleep(%ld.%09ld) took %lld ns", sec, nsec,
	       slept);
}

TEST(nanosleep_sleeps_at_least_as_asked)
{
	sleep_at_least(0, 1);
	sleep_at_least(0, 15 * 1000 * 1000);            /* not a whole tick */
	sleep_at_least(0, 100 * 1000 * 1000);
	sleep_at_least(0, 999999999);
	sleep_at_least(1, 0);
}

TEST(nanosleep_zero)
{
	struct timespec req = { 0, 0 };

	EXPECT_EQ(raw_nanosleep(&req, NULL), 0);
}

TEST(nanosleep_invalid_is_einval)
{
	struct timespec bad[] = { { 0, -1 }, { 0, NSEC }, { 0, 0x7fffffff }, { -1, 0 },
				  { 1, -5 } };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long long t0 = now(CLOCK_MONOTONIC);
		long r = raw_nanosleep(&bad[i], NULL);
		EXPECT(r == -EINVAL, "nanosleep({%ld, %ld}) returned %s, want -EINVAL",
		       bad[i].tv_sec, bad[i].tv_nsec, t_val(r, t_b1_));
		EXPECT(now(CLOCK_MONOTONIC) - t0 < NSEC / 2, "invalid nanosleep slept");
	}
}

/* A handled signal ends the sleep with -EINTR and the time left in rem. */
static volatile int usr1;
static void usr1_handler(int sig) { usr1 = sig; }

TEST(nanosleep_interrupted_by_a_signal)
{
	struct k_sigaction act = { .handler = (void *)usr1_handler, .flags = SA_RESTORER,
				   .restorer = (void *)__restore_rt };
	struct timespec req = { 20, 0 }, rem = { -1, -1 }, wait = { 0, 100 * 1000 * 1000 };
	int st;

	usr1 = 0;
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &act, NULL, SIGSET_SIZE), 0);
	long pid = raw_fork();
	if (pid == 0) {
		raw_nanosleep(&wait, NULL);
		raw_exit_group(raw_kill(raw_getppid(), SIGUSR1) ? 1 : 0);
	}
	long long t0 = now(CLOCK_MONOTONIC);
	long r = raw_nanosleep(&req, &rem);
	long long slept = now(CLOCK_MONOTONIC) - t0;
	raw_wait4(pid, &st, 0, NULL);
	act.handler = SIG_DFL;
	raw_rt_sigaction(SIGUSR1, &act, NULL, SIGSET_SIZE);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(r, -EINTR);
	EXPECT_EQ(usr1, SIGUSR1);
	EXPECT(slept < 10 * NSEC, "the sleep lasted %lld ns", slept);
	EXPECT(valid(&rem) && ns(&rem) > 0 && ns(&rem) <= ns(&req) &&
	       ns(&rem) >= ns(&req) - slept - NSEC / 10,
	       "rem = %ld.%09ld after %lld ns of a 20 s sleep", rem.tv_sec, rem.tv_nsec, slept);
}

/* Sleepers wake in order of their deadlines, not of their calls. */
TEST(sleepers_wake_by_deadline)
{
	long long t0 = now(CLOCK_MONOTONIC);
	long slow = raw_fork();
	if (slow == 0) {
		struct timespec t = { 0, 400 * 1000 * 1000 };
		raw_exit_group(raw_nanosleep(&t, NULL) ? 1 : 0);
	}
	long fast = raw_fork();
	if (fast == 0) {
		struct timespec t = { 0, 50 * 1000 * 1000 };
		raw_exit_group(raw_nanosleep(&t, NULL) ? 1 : 0);
	}
	int st1 = -1, st2 = -1;
	long first = raw_wait4(-1, &st1, 0, NULL);
	long long t1 = now(CLOCK_MONOTONIC) - t0;
	long second = raw_wait4(-1, &st2, 0, NULL);
	long long t2 = now(CLOCK_MONOTONIC) - t0;
	EXPECT(first == fast && second == slow, "wait4 returned %ld then %ld: fast is %ld",
	       first, second, fast);
	EXPECT_STATUS(st1, EXITED(0));
	EXPECT_STATUS(st2, EXITED(0));
	EXPECT(t1 >= 50000000 && t2 >= 400000000, "woke after %lld and %lld ns", t1, t2);
}

/* Monotonic time never goes back, also for processes that move between
 * CPUs: a few children read it in a loop while yielding. */
static int monotonic_loop(long unused)
{
	long long last = 0;
	(void)unused;
	for (int i = 0; i < 20000; i++) {
		long long t = now(CLOCK_MONOTONIC);
		if (t < last)
			return 1;
		last = t;
		if (i % 16 == 0)
			raw_sched_yield();
	}
	return 0;
}

TEST(monotonic_never_goes_back_across_processes)
{
	long pids[4];
	int st;

	for (int i = 0; i < 4; i++) {
		pids[i] = raw_fork();
		if (pids[i] == 0)
			raw_exit_group(monotonic_loop(0));
	}
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(raw_wait4(pids[i], &st, 0, NULL), pids[i]);
		EXPECT(st != EXITED(1), "a child saw CLOCK_MONOTONIC go back");
		EXPECT_STATUS(st, EXITED(0));
	}
}

TEST(sched_yield_returns_0)
{
	for (int i = 0; i < 100; i++)
		EXPECT_EQ(raw_sched_yield(), 0);
}

int main(void)
{
	RUN(clock_gettime_monotonic);
	RUN(clock_gettime_realtime);
	RUN(realtime_is_since_the_epoch);
	RUN(realtime_advances_with_monotonic);
	RUN(bad_clock_is_einval);
	RUN(nanosleep_sleeps_at_least_as_asked);
	RUN(nanosleep_zero);
	RUN(nanosleep_invalid_is_einval);
	RUN(nanosleep_interrupted_by_a_signal);
	RUN(sleepers_wake_by_deadline);
	RUN(monotonic_never_goes_back_across_processes);
	RUN(sched_yield_returns_0);
	return t_exit_code();
}
