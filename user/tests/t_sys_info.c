/* user/tests/t_sys_info.c - abi.md section 9's identity, randomness and
 * time calls, raw, with every error path: uname 122, getuid32..getegid32
 * 199-202, setuid32/setgid32 213/214, prctl 172, getrandom 355, sysinfo
 * 116, time 13, gettimeofday 78, clock_getres 266/406, clock_gettime64
 * 403, clock_nanosleep 267/407 (TIMER_ABSTIME). Numbers are written out,
 * as in t_abi_sysnr. */
#define T_PROG "t_sys_info"
#include "t.h"
#include "thr.h"

#define BAD_PTRS { 0x10, 0xc0000000, 0xfffffff0 }

TEST(uname_122)
{
	static const unsigned long bad[] = BAD_PTRS;
	struct utsname u;

	memset(&u, 'x', sizeof(u));
	EXPECT_EQ(RAW1(122, &u), 0);
	EXPECT(strcmp(u.sysname, "Spindle") == 0, "sysname %s", u.sysname);
	EXPECT(strcmp(u.machine, "i686") == 0, "machine %s", u.machine);
	EXPECT(memchr(u.domainname, 0, sizeof(u.domainname)), "domainname not terminated");
	EXPECT_EQ(sizeof(u), 390);
	for (unsigned i = 0; i < 3; i++)
		EXPECT_EQ(RAW1(122, bad[i]), -EFAULT);
}

TEST(ids_199_to_202_213_214)
{
	for (long nr = 199; nr <= 202; nr++)
		EXPECT_EQ(RAW0(nr), 0);
	EXPECT_EQ(RAW1(213, 0), 0);
	EXPECT_EQ(RAW1(214, 0), 0);
	EXPECT_EQ(RAW1(213, 1), -EPERM);
	EXPECT_EQ(RAW1(214, 65534), -EPERM);
	EXPECT_EQ(RAW1(213, -1), -EPERM);
}

TEST(prctl_172_names)
{
	char name[16];

	EXPECT_EQ(RAW2(172, 15, "sixteen-chars-xx"), 0);          /* PR_SET_NAME */
	EXPECT_EQ(RAW2(172, 16, name), 0);                         /* PR_GET_NAME */
	EXPECT(strcmp(name, "sixteen-chars-x") == 0, "name %s", name);
	EXPECT_EQ(RAW2(172, 15, ""), 0);
	EXPECT_EQ(RAW2(172, 16, name), 0);
	EXPECT_EQ(name[0], 0);
	EXPECT_EQ(RAW2(172, 15, 0x10), -EFAULT);
	EXPECT_EQ(RAW2(172, 16, 0xc0000000), -EFAULT);
	EXPECT_EQ(RAW2(172, 0, 0), -EINVAL);
	EXPECT_EQ(RAW2(172, 12345, 0), -EINVAL);
	EXPECT_EQ(RAW2(172, 15, T_PROG), 0);
}

TEST(getrandom_355)
{
	static unsigned char a[4096], b[4096];
	static const unsigned long bad[] = BAD_PTRS;
	int same = 0;

	EXPECT_EQ(RAW3(355, a, sizeof(a), 0), (long)sizeof(a));
	EXPECT_EQ(RAW3(355, b, sizeof(b), 1 | 2), (long)sizeof(b));
	for (unsigned i = 0; i < sizeof(a); i++)
		same += a[i] == b[i];
	EXPECT(same < 64, "%d of 4096 bytes equal in two requests", same);
	EXPECT_EQ(RAW3(355, a, 0, 0), 0);
	EXPECT_EQ(RAW3(355, a, 1, 4), 1);                  /* GRND_INSECURE */
	EXPECT_EQ(RAW3(355, a, 1, 4 | 2), -EINVAL);
	EXPECT_EQ(RAW3(355, a, 1, 8), -EINVAL);
	EXPECT_EQ(RAW3(355, a, 1, -1), -EINVAL);
	for (unsigned i = 0; i < 3; i++)
		EXPECT_EQ(RAW3(355, bad[i], 16, 0), -EFAULT);
	/* A buffer that ends in an unmapped page: the bytes that fit. */
	char *m = thr_map(8192);
	EXPECT(m, "mmap");
	EXPECT_EQ(raw_munmap(m + 4096, 4096), 0);
	EXPECT_EQ(RAW3(355, m, 8192, 0), 4096);
}

TEST(sysinfo_116)
{
	struct sysinfo si;

	EXPECT_EQ(sizeof(si), 64);
	EXPECT_EQ(RAW1(116, &si), 0);
	EXPECT(si.totalram >= (16u << 20) && si.freeram > 0 && si.freeram <= si.totalram,
	       "totalram %lu freeram %lu", si.totalram, si.freeram);
	EXPECT_EQ(si.mem_unit, 1);
	EXPECT(si.procs >= 1, "procs %u", si.procs);
	EXPECT_EQ(si.totalswap, 0);
	EXPECT_EQ(RAW1(116, 0x10), -EFAULT);
	EXPECT_EQ(RAW1(116, 0xc0000000), -EFAULT);
}

TEST(time_13_gettimeofday_78)
{
	struct timespec ts;
	struct timeval tv;
	long t, tloc = 0;

	EXPECT_EQ(raw_clock_gettime(CLOCK_REALTIME, &ts), 0);
	t = RAW1(13, &tloc);
	EXPECT_EQ(t, tloc);
	EXPECT(t >= ts.tv_sec && t - ts.tv_sec <= 2, "time %ld vs %ld", t, ts.tv_sec);
	EXPECT(RAW1(13, 0) >= t, "time(NULL) went back");
	EXPECT_EQ(RAW1(13, 0x10), -EFAULT);
	EXPECT_EQ(RAW2(78, &tv, 0), 0);
	EXPECT(tv.tv_sec >= ts.tv_sec && tv.tv_usec >= 0 && tv.tv_usec < 1000000,
	       "gettimeofday %ld.%06ld", tv.tv_sec, tv.tv_usec);
	int tz[2] = { 7, 7 };
	EXPECT_EQ(RAW2(78, 0, tz), 0);
	EXPECT(tz[0] == 0 && tz[1] == 0, "timezone %d %d", tz[0], tz[1]);
	EXPECT_EQ(RAW2(78, 0, 0), 0);
	EXPECT_EQ(RAW2(78, 0x10, 0), -EFAULT);
	EXPECT_EQ(RAW2(78, &tv, 0xc0000000), -EFAULT);
}

TEST(clock_getres_266_406_gettime64_403)
{
	struct timespec r;
	struct timespec64 r64, t64;

	EXPECT_EQ(RAW2(266, CLOCK_MONOTONIC, &r), 0);
	EXPECT(r.tv_sec == 0 && r.tv_nsec == 1, "res %ld", r.tv_nsec);
	EXPECT_EQ(RAW2(266, CLOCK_MONOTONIC_COARSE, &r), 0);
	EXPECT_EQ(r.tv_nsec, 10000000);
	EXPECT_EQ(RAW2(266, CLOCK_REALTIME, 0), 0);
	/* The CPU-time clocks count ticks (compat/linux/cputime.c). */
	EXPECT_EQ(RAW2(266, CLOCK_PROCESS_CPUTIME_ID, &r), 0);
	EXPECT_EQ(r.tv_nsec, 10000000);
	EXPECT_EQ(RAW2(266, -1, &r), -EINVAL);
	EXPECT_EQ(RAW2(266, CLOCK_MONOTONIC, 0x10), -EFAULT);
	EXPECT_EQ(RAW2(406, CLOCK_BOOTTIME, &r64), 0);
	EXPECT(r64.tv_sec == 0 && r64.tv_nsec == 1, "res64 %lld", r64.tv_nsec);
	EXPECT_EQ(RAW2(406, 99, &r64), -EINVAL);
	EXPECT_EQ(RAW2(406, CLOCK_MONOTONIC, 0xc0000000), -EFAULT);
	EXPECT_EQ(raw_clock_gettime(CLOCK_REALTIME, &r), 0);
	EXPECT_EQ(RAW2(403, CLOCK_REALTIME, &t64), 0);
	EXPECT(t64.tv_sec >= r.tv_sec && t64.tv_sec - r.tv_sec <= 2 && t64.tv_nsec >= 0 &&
	       t64.tv_nsec < 1000000000, "clock_gettime64 %lld.%09lld", t64.tv_sec, t64.tv_nsec);
	EXPECT_EQ(RAW2(403, CLOCK_THREAD_CPUTIME_ID, &t64), 0);
	EXPECT(t64.tv_sec >= 0 && t64.tv_nsec >= 0 && t64.tv_nsec % 10000000 == 0,
	       "thread CPU time %lld.%09lld", t64.tv_sec, t64.tv_nsec);
	EXPECT_EQ(RAW2(403, 8, &t64), -EINVAL);         /* CLOCK_REALTIME_ALARM: not here */
	EXPECT_EQ(RAW2(403, CLOCK_MONOTONIC, 0x10), -EFAULT);
}

TEST(clock_nanosleep_267_407)
{
	struct timespec rel = { 0, 20000000 }, bad = { 0, 1000000000 }, neg = { -1, 0 };
	struct timespec64 rel64 = { 0, 20000000 }, abs64;
	long long t0 = thr_now_ns(), t1;

	EXPECT_EQ(RAW4(267, CLOCK_MONOTONIC, 0, &rel, 0), 0);
	t1 = thr_now_ns();
	EXPECT(t1 - t0 >= 20000000, "slept %lld ns", t1 - t0);
	/* TIMER_ABSTIME: until CLOCK_MONOTONIC reads t1 + 20 ms. */
	abs64.tv_sec = (t1 + 20000000) / 1000000000;
	abs64.tv_nsec = (t1 + 20000000) % 1000000000;
	EXPECT_EQ(RAW4(407, CLOCK_MONOTONIC, 1, &abs64, 0), 0);
	EXPECT(thr_now_ns() >= t1 + 20000000, "woke before the absolute deadline");
	/* A time already past: at once. */
	EXPECT_EQ(RAW4(407, CLOCK_MONOTONIC, 1, &abs64, 0), 0);
	EXPECT_EQ(RAW4(407, CLOCK_MONOTONIC, 0, &rel64, 0), 0);
	/* tv_nsec's upper half is padding on i386. */
	rel64.tv_nsec = 0x7fffffff00000001ll;
	EXPECT_EQ(RAW4(407, CLOCK_REALTIME, 0, &rel64, 0), 0);
	EXPECT_EQ(RAW4(267, CLOCK_MONOTONIC, 0, &bad, 0), -EINVAL);
	EXPECT_EQ(RAW4(267, CLOCK_MONOTONIC, 0, &neg, 0), -EINVAL);
	EXPECT_EQ(RAW4(267, 42, 0, &rel, 0), -EINVAL);
	EXPECT_EQ(RAW4(267, CLOCK_MONOTONIC, 0, 0x10, 0), -EFAULT);
	EXPECT_EQ(RAW4(407, CLOCK_MONOTONIC, 0, 0xc0000000, 0), -EFAULT);
}

static volatile int got_alarm;

static void on_usr1(int sig)
{
	got_alarm = sig;
}

static int interrupt_sleeper(long parent)
{
	thr_sleep_ms(50);
	return raw_kill((int)parent, SIGUSR1) == 0 ? 0 : 1;
}

/* A relative sleep cut short by a signal says what was left, in rem. */
TEST(clock_nanosleep_interrupted)
{
	struct timespec rel = { 5, 0 }, rem = { -1, -1 };
	long pid;
	int st;

	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	pid = raw_fork();
	if (pid == 0)
		raw_exit_group(interrupt_sleeper(1));
	EXPECT(pid > 0, "fork");
	EXPECT_EQ(RAW4(267, CLOCK_MONOTONIC, 0, &rel, &rem), -EINTR);
	EXPECT_EQ(got_alarm, SIGUSR1);
	EXPECT(rem.tv_sec >= 3 && rem.tv_sec <= 5 && rem.tv_nsec >= 0, "rem %ld.%09ld",
	       rem.tv_sec, rem.tv_nsec);
	EXPECT_EQ(raw_wait4(pid, &st, 0, 0), pid);
	EXPECT_STATUS(st, EXITED(0));
}

int main(void)
{
	RUN(uname_122);
	RUN(ids_199_to_202_213_214);
	RUN(prctl_172_names);
	RUN(getrandom_355);
	RUN(sysinfo_116);
	RUN(time_13_gettimeofday_78);
	RUN(clock_getres_266_406_gettime64_403);
	RUN(clock_nanosleep_267_407);
	RUN(clock_nanosleep_interrupted);
	return t_exit_code();
}
