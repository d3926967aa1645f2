/* user/tests/t_times.c - CPU-time accounting (abi.md section 9,
 * compat/linux/cputime.c): times 43, getrusage 77 and wait4's rusage. Each
 * timer tick is charged to the task it interrupted, user or system by
 * the mode it came from; sleeping costs nothing; a process's time is the
 * sum of its threads' (gone ones included); a child's time, with its own
 * reaped children's, reaches its parent's cutime/cstime when the parent
 * reaps it, and not before; execve in a thread keeps the process's
 * books. Error paths: -EFAULT for every bad pointer (a bad rusage leaves
 * the child a zombie for the next wait4), -EINVAL for an unknown who.
 * The tick is 10 ms and clock_t's unit too (USER_HZ 100). Each CPU
 * charges its own ticks while times() counts cpu0's, and QEMU on a busy
 * host drops some of either: the cases that compare the two run pinned
 * to cpu0, the others spin until their own thread has been charged
 * (spin_charged) and compare only charged time with charged time. make
 * check boots it under -icount (tests/user_tests.py, USER_TEST_ICOUNT), where
 * the tick follows the instruction count, not the host's clock. A
 * seed thread reaped by wait4 is charged to its reaper's children, as
 * in 2.5.31. Booted as init. */
#define T_PROG "t_times"
#include "t.h"
#include "thr.h"
#include "sys/resource.h"
#include "sys/times.h"

#define STACK 16384

static long sys_times(struct tms *t) { return RAW1(SYS_times, t); }
static long sys_getrusage(int who, void *ru) { return RAW2(SYS_getrusage, who, ru); }

static long ticks(const struct timeval *tv)
{
	return tv->tv_sec * 100 + tv->tv_usec / 10000;
}

static volatile unsigned long sink;

/* Spins in user mode until n ticks have passed (one times() per 100,000
 * rounds: the kernel's share is tiny, even in QEMU, where a system call
 * costs far more host time than its instructions). Counted in ticks, not
 * in TSC time: a host too busy to run the guest on time makes QEMU drop
 * ticks, and then the two disagree. */
static void spin_user(long n)
{
	long end = sys_times(NULL) + n;

	while (sys_times(NULL) < end)
		for (int i = 0; i < 100000; i++)
			sink++;
}

/* times() counts cpu0's ticks; each CPU charges its own, and under QEMU
 * on a busy host they drift apart: the cases that compare the two run
 * on cpu0. */
static void pin_cpu0(bool on)
{
	unsigned long mask = on ? 1 : ~0ul;

	raw_sched_setaffinity(0, sizeof(mask), &mask);
}

static long thread_utime(void)
{
	struct rusage ru;

	sys_getrusage(RUSAGE_THREAD, &ru);
	return ticks(&ru.ru_utime);
}

/* Spins until n ticks have been charged to this thread's user time (20
 * s at most): what a CPU's own tick counts, whatever cpu0's says. */
static void spin_charged(long n)
{
	long want = thread_utime() + n, give_up = sys_times(NULL) + 2000;

	while (thread_utime() < want && sys_times(NULL) < give_up)
		for (int i = 0; i < 100000; i++)
			sink++;
}

/* Spends n ticks mostly in the kernel: getrandom's generator runs there. */
static void spin_kernel(long n)
{
	static char buf[65536];
	long end = sys_times(NULL) + n;

	while (sys_times(NULL) < end)
		RAW3(SYS_getrandom, buf, sizeof(buf), 0);
}

TEST(user_spin_is_user_time)
{
	struct tms a, b;
	long t0 = sys_times(&a), t1;

	spin_user(40);
	t1 = sys_times(&b);
	EXPECT(t1 - t0 >= 40 && t1 - t0 <= 45, "times() went from %ld to %ld", t0, t1);
	EXPECT(b.tms_utime - a.tms_utime >= 30, "utime %ld -> %ld after 40 ticks in user mode",
	       a.tms_utime, b.tms_utime);
	EXPECT(b.tms_stime - a.tms_stime <= 5, "stime %ld -> %ld after 40 ticks in user mode",
	       a.tms_stime, b.tms_stime);
	EXPECT((b.tms_utime - a.tms_utime) + (b.tms_stime - a.tms_stime) <= t1 - t0 + 1,
	       "charged more ticks than passed");
}

TEST(kernel_work_is_system_time)
{
	struct tms a, b;

	sys_times(&a);
	spin_kernel(40);
	sys_times(&b);
	EXPECT(b.tms_stime - a.tms_stime >= 20, "stime %ld -> %ld after 40 ticks of getrandom",
	       a.tms_stime, b.tms_stime);
	EXPECT(b.tms_stime - a.tms_stime > b.tms_utime - a.tms_utime,
	       "stime +%ld, utime +%ld", b.tms_stime - a.tms_stime, b.tms_utime - a.tms_utime);
}

TEST(sleeping_costs_nothing)
{
	struct tms a, b;
	long t0 = sys_times(&a), t1;

	thr_sleep_ms(300);
	t1 = sys_times(&b);
	EXPECT(t1 - t0 >= 10, "times() went from %ld to %ld in a 300 ms sleep", t0, t1);
	EXPECT((b.tms_utime - a.tms_utime) + (b.tms_stime - a.tms_stime) <= 3,
	       "charged %ld + %ld ticks for a sleep", b.tms_utime - a.tms_utime,
	       b.tms_stime - a.tms_stime);
}

TEST(getrusage_self_and_thread_agree_with_times)
{
	struct tms t;
	struct rusage self, thread, ch;

	spin_user(10);
	EXPECT_EQ(sys_getrusage(RUSAGE_SELF, &self), 0);
	EXPECT_EQ(sys_getrusage(RUSAGE_THREAD, &thread), 0);
	EXPECT_EQ(sys_getrusage(RUSAGE_CHILDREN, &ch), 0);
	sys_times(&t);
	EXPECT(ticks(&self.ru_utime) >= 5, "ru_utime %ld.%06ld", self.ru_utime.tv_sec,
	       self.ru_utime.tv_usec);
	EXPECT(self.ru_utime.tv_usec >= 0 && self.ru_utime.tv_usec < 1000000, "tv_usec %ld",
	       self.ru_utime.tv_usec);
	/* One thread: the process's time is the thread's (a tick may come
	 * between the calls). */
	EXPECT(ticks(&thread.ru_utime) - ticks(&self.ru_utime) <= 1 &&
	       ticks(&thread.ru_utime) >= ticks(&self.ru_utime), "self %ld, thread %ld",
	       ticks(&self.ru_utime), ticks(&thread.ru_utime));
	EXPECT(t.tms_utime - ticks(&self.ru_utime) <= 1 && t.tms_utime >= ticks(&self.ru_utime),
	       "times %ld, getrusage %ld", t.tms_utime, ticks(&self.ru_utime));
	EXPECT_EQ(ticks(&ch.ru_utime), t.tms_cutime);
	EXPECT_EQ(ticks(&ch.ru_stime), t.tms_cstime);
	EXPECT(self.ru_maxrss == 0 && self.ru_minflt == 0 && self.ru_nivcsw == 0,
	       "fields Spindle does not count are not 0");
}

/* The child spins; its grandchild too, reaped by the child: both reach
 * our cutime when we reap the child, not before. The child exits with
 * the user ticks it saw charged to itself and its children, which
 * wait4's rusage must cover. */
static int spin_child(long unused)
{
	struct tms t;
	long pid = raw_fork();

	(void)unused;
	if (pid == 0)
		for (;;) {
			spin_charged(10);
			raw_exit_group(0);
		}
	if (pid < 0 || raw_wait4(pid, NULL, 0, NULL) != pid)
		return 255;
	spin_charged(10);
	sys_times(&t);
	return t.tms_utime + t.tms_cutime > 254 ? 254 : (int)(t.tms_utime + t.tms_cutime);
}

TEST(children_count_once_reaped)
{
	struct tms a, b, c;
	struct rusage ru;
	int st;
	long pid;

	sys_times(&a);
	pid = raw_fork();
	if (pid == 0)
		raw_exit_group(spin_child(0));
	EXPECT(pid > 0, "fork: %ld", pid);
	/* Zombie, not reaped: nothing yet. */
	while (thr_task_state((int)pid) != 'Z')
		thr_sleep_ms(20);
	sys_times(&b);
	EXPECT_EQ(b.tms_cutime, a.tms_cutime);
	EXPECT(b.tms_utime - a.tms_utime <= 5, "the child's time went to ours: %ld -> %ld",
	       a.tms_utime, b.tms_utime);
	EXPECT_EQ(raw_wait4(pid, &st, 0, &ru), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) < 255, "wait status %#x", st);
	sys_times(&c);
	/* 10 ticks charged to the child, 10 to the grandchild. */
	EXPECT(WEXITSTATUS(st) >= 20, "the child saw %d ticks", WEXITSTATUS(st));
	EXPECT(ticks(&ru.ru_utime) >= WEXITSTATUS(st), "wait4's ru_utime %ld ticks, the child "
	       "saw %d", ticks(&ru.ru_utime), WEXITSTATUS(st));
	EXPECT_EQ(c.tms_cutime - b.tms_cutime, ticks(&ru.ru_utime));
	EXPECT_EQ(c.tms_cstime - b.tms_cstime, ticks(&ru.ru_stime));
}

static int noop(long arg)
{
	(void)arg;
	return 7;
}

TEST(wait4_bad_rusage_is_efault_and_keeps_the_zombie)
{
	static void *const bad[] = { (void *)16, (void *)0xc0000000, (void *)0xfffffff0 };
	int st;

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long pid = raw_fork();
		if (pid == 0)
			raw_exit_group(noop(0));
		EXPECT(pid > 0, "fork: %ld", pid);
		EXPECT_EQ(raw_wait4(pid, &st, 0, bad[i]), -EFAULT);
		EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
		EXPECT_STATUS(st, EXITED(7));
	}
}

TEST(bad_pointers_are_efault)
{
	static void *const bad[] = { (void *)16, (void *)0xc0000000, (void *)0xfffffff8 };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(sys_times(bad[i]), -EFAULT);
		EXPECT_EQ(sys_getrusage(RUSAGE_SELF, bad[i]), -EFAULT);
		EXPECT_EQ(sys_getrusage(RUSAGE_THREAD, bad[i]), -EFAULT);
		EXPECT_EQ(sys_getrusage(RUSAGE_CHILDREN, bad[i]), -EFAULT);
	}
	/* times(NULL) is allowed: just the clock. */
	EXPECT(sys_times(NULL) > 0, "times(NULL) = %ld", sys_times(NULL));
}

TEST(unknown_who_is_einval)
{
	static const int who[] = { -2, 2, 3, 100, -100, 0x7fffffff };
	struct rusage ru;

	for (unsigned i = 0; i < sizeof(who) / sizeof(who[0]); i++)
		EXPECT_EQ(sys_getrusage(who[i], &ru), -EINVAL);
	/* -EINVAL before the pointer is looked at, as on Linux. */
	EXPECT_EQ(sys_getrusage(2, (void *)16), -EINVAL);
}

/* ---- threads ---- */

static char stack[STACK] __attribute__((aligned(16)));
static volatile int thread_done;
static volatile long thread_ticks;     /* its own user time at its end */

static int spinning_thread(void *arg, const struct thr_regs *r)
{
	struct rusage ru;

	(void)arg;
	(void)r;
	spin_charged(15);
	sys_getrusage(RUSAGE_THREAD, &ru);
	thread_ticks = ticks(&ru.ru_utime);
	thread_done = 1;
	return 0;
}

TEST(threads_time_is_the_processes_even_once_gone)
{
	struct rusage self0, self1, thr0, thr1;

	EXPECT_EQ(sys_getrusage(RUSAGE_SELF, &self0), 0);
	EXPECT_EQ(sys_getrusage(RUSAGE_THREAD, &thr0), 0);
	thread_done = 0;
	long tid = thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED, stack + STACK, NULL, NULL,
			     spinning_thread, NULL);
	EXPECT(tid > 0, "clone: %ld", tid);
	/* Asleep meanwhile, so that our own time stays still; then until
	 * the thread has left (detached: it reaps itself). */
	for (int i = 0; i < 1000 && (!thread_done || thr_task_state((int)tid) != 0); i++)
		thr_sleep_ms(10);
	EXPECT(thread_done && thr_task_state((int)tid) == 0, "the thread never finished");
	EXPECT_EQ(sys_getrusage(RUSAGE_SELF, &self1), 0);
	EXPECT_EQ(sys_getrusage(RUSAGE_THREAD, &thr1), 0);
	EXPECT(thread_ticks >= 15, "the thread saw %ld ticks of its own", thread_ticks);
	EXPECT(ticks(&self1.ru_utime) - ticks(&self0.ru_utime) >= thread_ticks,
	       "the process's utime %ld -> %ld with a thread of %ld ticks gone",
	       ticks(&self0.ru_utime), ticks(&self1.ru_utime), thread_ticks);
	EXPECT(ticks(&thr1.ru_utime) - ticks(&thr0.ru_utime) <= 3,
	       "our own utime %ld -> %ld while we slept", ticks(&thr0.ru_utime),
	       ticks(&thr1.ru_utime));
}

/* A seed thread with an exit signal (abi.md section 4) is reaped like a
 * child: its time goes to the reaper's children's, as in 2.5.31's wait4,
 * and no longer counts as the process's own once it is a zombie. */
static volatile long signalled_ticks;

static int signalled_thread(void *arg, const struct thr_regs *r)
{
	struct rusage ru;

	(void)arg;
	(void)r;
	spin_charged(10);
	sys_getrusage(RUSAGE_THREAD, &ru);
	signalled_ticks = ticks(&ru.ru_utime);
	return 0;
}

TEST(a_seed_thread_reaped_like_a_child)
{
	struct tms a, b;
	struct rusage ru;
	int st;
	long tid;

	sys_times(&a);
	tid = thr_clone(THR_THREAD_FLAGS | SIGCHLD, stack + STACK, NULL, NULL,
			signalled_thread, NULL);
	EXPECT(tid > 0, "clone: %ld", tid);
	EXPECT_EQ(raw_wait4((int)tid, &st, __WALL, &ru), tid);
	sys_times(&b);
	EXPECT(signalled_ticks >= 10, "the thread saw %ld ticks", signalled_ticks);
	EXPECT(ticks(&ru.ru_utime) >= signalled_ticks, "ru_utime %ld, the thread saw %ld",
	       ticks(&ru.ru_utime), signalled_ticks);
	EXPECT_EQ(b.tms_cutime - a.tms_cutime, ticks(&ru.ru_utime));
}

/* ---- execve in a thread (de_thread): the books go with the process ---- */

static char *const no_env[] = { NULL };

static int exec_thread(void *arg, const struct thr_regs *r)
{
	char *argv[] = { "t_times", "after-exec", arg, NULL };

	(void)r;
	raw_execve(T_DIR "t_times", argv, no_env);
	return 99;
}

/* The child process: the leader spins (its time), a thread execs. */
static int exec_in_thread(long unused)
{
	static char min[16];
	struct tms t;

	(void)unused;
	spin_charged(10);
	sys_times(&t);
	snprintf(min, sizeof(min), "%ld", t.tms_utime);
	if (thr_clone(THR_THREAD_FLAGS, stack + STACK, NULL, NULL, exec_thread, min) < 0)
		return 98;
	for (;;)
		thr_sleep_ms(1000);     /* the execve ends us */
}

TEST(execve_in_a_thread_keeps_the_books)
{
	EXPECT_STATUS(child_status(exec_in_thread, 0), EXITED(0));
}

/* The new program: its process's utime is at least what the old leader
 * had spent (given as argv[2]). */
static int after_exec(const char *min)
{
	struct tms t;
	long want = strtol(min, NULL, 10);

	sys_times(&t);
	if (want < 10)
		return 2;               /* the old leader was never charged */
	return t.tms_utime >= want ? 0 : 1;
}

/* The libc's wrappers: -1 and errno on failure. */
TEST(libc_wrappers)
{
	struct tms t;
	struct rusage ru;

	EXPECT(times(&t) > 0, "times: %d", errno);
	EXPECT_EQ(getrusage(RUSAGE_SELF, &ru), 0);
	errno = 0;
	EXPECT_EQ(times((struct tms *)16), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(getrusage(5, &ru), -1);
	EXPECT_EQ(errno, EINVAL);
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "after-exec") == 0)
		return after_exec(argv[2]);
	pin_cpu0(true);
	RUN(user_spin_is_user_time);
	RUN(kernel_work_is_system_time);
	RUN(sleeping_costs_nothing);
	RUN(getrusage_self_and_thread_agree_with_times);
	pin_cpu0(false);
	RUN(children_count_once_reaped);
	RUN(wait4_bad_rusage_is_efault_and_keeps_the_zombie);
	RUN(bad_pointers_are_efault);
	RUN(unknown_who_is_einval);
	RUN(threads_time_is_the_processes_even_once_gone);
	RUN(a_seed_thread_reaped_like_a_child);
	RUN(execve_in_a_thread_keeps_the_books);
	RUN(libc_wrappers);
	return t_exit_code();
}
