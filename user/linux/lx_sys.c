/* user/linux/lx_sys.c - the identity, randomness and time calls of abi.md
 * section 9 as glibc calls them: uname (sysname "Linux" under the linux
 * personality), getrandom, the 32-bit ids (getresuid too), prctl's
 * names, sysinfo, getcpu, the scheduling policy's readers, sync and
 * syncfs, and the clocks: clock_gettime (glibc 2.36 calls
 * clock_gettime64 first), clock_getres, clock_nanosleep with
 * TIMER_ABSTIME, gettimeofday, time. Also the personality itself, in
 * /proc/tasks, and a Spindle program started from here running under its
 * own (seed) rules. */
#define _GNU_SOURCE
#define LX_PROG "lx_sys"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

TEST(uname_says_linux)
{
	struct utsname u;

	EXPECT_EQ(uname(&u), 0);
	EXPECT(strcmp(u.sysname, "Linux") == 0, "sysname %s", u.sysname);
	EXPECT(strncmp(u.release, "6.1", 3) == 0, "release %s", u.release);
	EXPECT(strstr(u.version, "Spindle") != NULL, "version %s", u.version);
	EXPECT(strcmp(u.machine, "i686") == 0, "machine %s", u.machine);
	errno = 0;
	EXPECT_EQ(syscall(SYS_uname, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(getrandom)
{
	unsigned char a[64], b[64], big[5000];

	EXPECT_EQ(getrandom(a, sizeof(a), 0), 64);
	EXPECT_EQ(getrandom(b, sizeof(b), GRND_NONBLOCK), 64);
	EXPECT(memcmp(a, b, sizeof(a)) != 0, "two requests gave the same bytes");
	EXPECT_EQ(getrandom(big, sizeof(big), GRND_RANDOM), (long)sizeof(big));
	int zeros = 0;
	for (unsigned i = 0; i < sizeof(big); i++)
		zeros += big[i] == 0;
	EXPECT(zeros < 100, "%d zero bytes in 5000", zeros);
	EXPECT_EQ(getrandom(a, 0, 0), 0);
	EXPECT_EQ(getrandom(a, 4, 0x40), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(getrandom(a, 4, GRND_RANDOM | GRND_INSECURE), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_getrandom, (void *)16, 4, 0), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(ids_are_root)
{
	EXPECT_EQ(getuid(), 0);
	EXPECT_EQ(geteuid(), 0);
	EXPECT_EQ(getgid(), 0);
	EXPECT_EQ(getegid(), 0);
	EXPECT_EQ(setuid(0), 0);
	EXPECT_EQ(setgid(0), 0);
	EXPECT_EQ(setuid(1000), -1);
	EXPECT_EQ(errno, EPERM);
	EXPECT_EQ(setgid(1000), -1);
	EXPECT_EQ(errno, EPERM);
	uid_t r = 7, e = 7, sv = 7;
	gid_t gr = 7, ge = 7, gs = 7;
	EXPECT_EQ(getresuid(&r, &e, &sv), 0);
	EXPECT(r == 0 && e == 0 && sv == 0, "getresuid: %u %u %u", r, e, sv);
	EXPECT_EQ(getresgid(&gr, &ge, &gs), 0);
	EXPECT(gr == 0 && ge == 0 && gs == 0, "getresgid: %u %u %u", gr, ge, gs);
	EXPECT_EQ(syscall(SYS_getresuid32, &r, &e, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
}

/* One scheduling class, Linux's SCHED_OTHER, with its priority 0; the
 * priority ranges are Linux's; a policy cannot be changed (-ENOSYS). */
TEST(the_scheduling_policy_is_sched_other)
{
	struct sched_param p = { .sched_priority = 5 };

	EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);
	EXPECT_EQ(sched_getscheduler(getpid()), SCHED_OTHER);
	EXPECT_EQ(sched_getparam(0, &p), 0);
	EXPECT_EQ(p.sched_priority, 0);
	EXPECT_EQ(sched_getscheduler(-1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(sched_getscheduler(99999), -1);
	EXPECT_EQ(errno, ESRCH);
	EXPECT_EQ(sched_getparam(0, NULL), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(sched_getparam(0, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(sched_get_priority_max(SCHED_FIFO), 99);
	EXPECT_EQ(sched_get_priority_min(SCHED_RR), 1);
	EXPECT_EQ(sched_get_priority_max(SCHED_OTHER), 0);
	EXPECT_EQ(sched_get_priority_min(SCHED_BATCH), 0);
	EXPECT_EQ(sched_get_priority_max(42), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(sched_setscheduler(0, SCHED_OTHER, &p), -1);
	EXPECT_EQ(errno, ENOSYS);
}

/* sync and syncfs: a RAM file system has nothing to write back. */
TEST(sync_and_syncfs)
{
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	sync();
	EXPECT_EQ(syncfs(fd), 0);
	close(fd);
	EXPECT_EQ(syncfs(fd), -1);
	EXPECT_EQ(errno, EBADF);
}

TEST(prctl_name)
{
	char name[16];

	EXPECT_EQ(prctl(PR_SET_NAME, "a-very-long-name-indeed"), 0);
	EXPECT_EQ(prctl(PR_GET_NAME, name), 0);
	EXPECT(strcmp(name, "a-very-long-nam") == 0, "name %s", name);
	EXPECT_EQ(prctl(PR_SET_NAME, (char *)16), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(prctl(PR_GET_NAME, (char *)16), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(prctl(9999, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	prctl(PR_SET_NAME, "lx_sys");
}

TEST(sysinfo)
{
	struct sysinfo si;

	EXPECT_EQ(sysinfo(&si), 0);
	EXPECT(si.totalram >= 16u << 20 && si.freeram <= si.totalram && si.freeram > 0,
	       "total %lu free %lu", si.totalram, si.freeram);
	EXPECT_EQ(si.mem_unit, 1);
	EXPECT(si.procs >= 1, "procs %u", si.procs);
	EXPECT_EQ(sysinfo((void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
}

/* getcpu(2), which glibc's sched_getcpu calls: on every CPU the caller
 * may use, pinned there, the answer is that CPU, on node 0. */
TEST(getcpu_says_where_the_caller_runs)
{
	cpu_set_t all, one;
	unsigned cpu = ~0u, node = ~0u;
	int tried = 0;

	EXPECT_EQ(sched_getaffinity(0, sizeof(all), &all), 0);
	for (int k = 0; k < CPU_SETSIZE; k++) {
		if (!CPU_ISSET(k, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(k, &one);
		EXPECT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
		EXPECT_EQ(sched_getcpu(), k);
		EXPECT_EQ(syscall(SYS_getcpu, &cpu, &node, NULL), 0);
		EXPECT_EQ(cpu, (unsigned)k);
		EXPECT_EQ(node, 0);
		tried++;
	}
	EXPECT(tried >= 1, "no CPU in the affinity mask");
	EXPECT_EQ(sched_setaffinity(0, sizeof(all), &all), 0);
	EXPECT_EQ(syscall(SYS_getcpu, NULL, NULL, NULL), 0);      /* both optional */
	EXPECT_EQ(syscall(SYS_getcpu, (void *)16, NULL, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS_getcpu, &cpu, (void *)16, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
}

static long long ns_of(struct timespec t)
{
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

TEST(clocks)
{
	struct timespec a, b, res;
	struct timeval tv;
	time_t t1, t2;

	EXPECT_EQ(clock_gettime(CLOCK_MONOTONIC, &a), 0);
	EXPECT_EQ(clock_gettime(CLOCK_MONOTONIC, &b), 0);
	EXPECT(ns_of(b) >= ns_of(a), "CLOCK_MONOTONIC went back");
	EXPECT_EQ(clock_gettime(CLOCK_BOOTTIME, &b), 0);
	EXPECT_EQ(clock_getres(CLOCK_MONOTONIC, &res), 0);
	EXPECT(res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 10000000, "res %ld", res.tv_nsec);
	EXPECT_EQ(clock_getres(CLOCK_REALTIME, NULL), 0);
	EXPECT_EQ(clock_getres(99, &res), -1);
	EXPECT_EQ(errno, EINVAL);
	/* time, gettimeofday and CLOCK_REALTIME tell the same time. */
	EXPECT_EQ(clock_gettime(CLOCK_REALTIME, &a), 0);
	EXPECT_EQ(gettimeofday(&tv, NULL), 0);
	t1 = time(&t2);
	EXPECT(t1 == t2, "time() %ld, *tloc %ld", (long)t1, (long)t2);
	EXPECT(tv.tv_sec >= a.tv_sec && tv.tv_sec - a.tv_sec <= 2, "gettimeofday %ld vs %ld",
	       (long)tv.tv_sec, (long)a.tv_sec);
	EXPECT(t1 >= tv.tv_sec && t1 - tv.tv_sec <= 2, "time %ld vs %ld", (long)t1, (long)tv.tv_sec);
	EXPECT(a.tv_sec > 1600000000, "CLOCK_REALTIME %ld is before 2020", (long)a.tv_sec);
	errno = 0;
	EXPECT_EQ(syscall(SYS_gettimeofday, (void *)16, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(SYS_time, (void *)16), -1);
	EXPECT_EQ(errno, EFAULT);
}

TEST(clock_nanosleep)
{
	struct timespec start, end, rel = { 0, 20000000 }, dl;

	clock_gettime(CLOCK_MONOTONIC, &start);
	EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &end);
	EXPECT(ns_of(end) - ns_of(start) >= 20000000, "slept %lld ns", ns_of(end) - ns_of(start));
	dl = end;
	dl.tv_nsec += 20000000;
	if (dl.tv_nsec >= 1000000000) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000;
	}
	EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &dl, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &end);
	EXPECT(ns_of(end) >= ns_of(dl), "woke %lld ns before the deadline", ns_of(dl) - ns_of(end));
	clock_gettime(CLOCK_REALTIME, &dl);
	EXPECT_EQ(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &dl, NULL), 0);
	rel.tv_nsec = 1000000000;
	EXPECT_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, NULL), EINVAL);
	EXPECT_EQ(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &start, NULL), EINVAL);
	/* (glibc reads the timespec itself first: a raw call.) */
	errno = 0;
	EXPECT_EQ(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, (void *)16, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(syscall(407 /* clock_nanosleep_time64 */, CLOCK_MONOTONIC, 0, (void *)16, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
}

/* Our line of /proc/tasks ends in our personality. (glibc's open() is
 * openat, which the file system may not have: raw open, 5.) */
static int my_personality(char *out, size_t n)
{
	static char buf[32768];
	int fd = (int)syscall(5, "/proc/tasks", O_RDONLY), len = 0, r;
	char me[16];

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	close(fd);
	buf[len] = 0;
	snprintf(me, sizeof(me), "\n%d ", (int)getpid());
	char *line = strstr(buf, me);
	if (!line)
		return -1;
	char *end = strchr(line + 1, '\n');
	if (end)
		*end = 0;
	char *last = strrchr(line, ' ');
	snprintf(out, n, "%s", last ? last + 1 : "");
	return 0;
}

/* RLIMIT_AS bounds the address space (Linux's may_expand_vm): beyond it
 * mmap is ENOMEM and brk stays; under it they work. In a child, which
 * takes the lowered limit with it. */
TEST(rlimit_as_is_enforced)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl = { 64u << 20, 64u << 20 };
		void *big, *small;
		void *brk0 = sbrk(0);

		if (setrlimit(RLIMIT_AS, &rl) != 0)
			_exit(1);
		big = mmap(NULL, 128u << 20, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (big != MAP_FAILED || errno != ENOMEM)
			_exit(2);
		small = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (small == MAP_FAILED)
			_exit(3);
		/* Replacing a mapping in place does not grow the space. */
		if (mmap(small, 1u << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) != small)
			_exit(4);
		if (syscall(SYS_brk, (char *)brk0 + (128u << 20)) != (long)brk0)
			_exit(5);
		if (sbrk(4096) == (void *)-1)
			_exit(6);
		_exit(0);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x (see the exit codes above)", st);
}

/* Touches kb KiB of stack, a page at a time, from here down. */
static int probe_stack(int kb)
{
	volatile char page[4096];

	page[0] = 1;
	page[4095] = 1;
	return kb > 4 ? probe_stack(kb - 4) + page[0] : page[0];
}

/* RLIMIT_STACK bounds the stack of the next program: execve'd with 256
 * KiB, 128 KiB of stack works and 1 MiB is SIGSEGV (on Linux, the
 * stack's growth stops at the limit). */
TEST(rlimit_stack_is_enforced)
{
	static const struct { const char *kb; int sig; } cases[] = { { "128", 0 }, { "1024", SIGSEGV } };

	for (unsigned i = 0; i < 2; i++) {
		int st;
		pid_t pid = fork();

		if (pid == 0) {
			struct rlimit rl = { 256u << 10, RLIM_INFINITY };
			setrlimit(RLIMIT_STACK, &rl);
			execl("/proc/self/exe", "lx_sys", "--stack-probe", cases[i].kb, (char *)NULL);
			_exit(99);
		}
		EXPECT(pid > 0, "fork: %s", strerror(errno));
		EXPECT_EQ(waitpid(pid, &st, 0), pid);
		if (cases[i].sig)
			EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == cases[i].sig,
			       "%s KiB: status %#x", cases[i].kb, st);
		else
			EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s KiB: status %#x",
			       cases[i].kb, st);
	}
}

/* The limits are the process's (Linux's signal->rlim): one thread sets
 * one, and after that thread's execve, which ends the others and makes
 * it the leader (de_thread), the new program reads the same value. */
static void *set_core_limit_then_exec(void *arg)
{
	struct rlimit rl = { 12345, RLIM_INFINITY };

	(void)arg;
	if (setrlimit(RLIMIT_CORE, &rl) != 0)
		_exit(97);
	execl("/proc/self/exe", "lx_sys", "--core-limit", "12345", (char *)NULL);
	_exit(98);
}

TEST(rlimits_are_the_process_s_across_a_thread_s_exec)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t th;

		if (pthread_create(&th, NULL, set_core_limit_then_exec, NULL) != 0)
			_exit(96);
		for (;;)
			pause();        /* the thread's execve ends this thread */
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "status %#x (1: the limit was lost, 96-98: pthread_create, setrlimit, execl)", st);
}

TEST(personality_is_linux)
{
	char pers[16];

	EXPECT_EQ(my_personality(pers, sizeof(pers)), 0);
	EXPECT(strcmp(pers, "linux") == 0, "PERS column %s", pers);
}

/* A Spindle program (seed personality) run from here: t_personality
 * checks its own side and exits 0. */
TEST(spindle_program_runs_under_seed)
{
	char *argv[] = { "t_personality", "--child", NULL };
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execve("/tests/t_personality", argv, NULL);
		_exit(127);
	}
	EXPECT(pid > 0, "fork");
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "t_personality --child: status %#x", st);
}

int main(int argc, char **argv)
{
	/* t_personality runs us with --child: report our side by status. */
	if (argc == 2 && strcmp(argv[1], "--child") == 0) {
		struct utsname u;
		char pers[16];
		return uname(&u) == 0 && strcmp(u.sysname, "Linux") == 0 &&
		       my_personality(pers, sizeof(pers)) == 0 && strcmp(pers, "linux") == 0 ? 0 : 1;
	}
	if (argc == 3 && strcmp(argv[1], "--stack-probe") == 0)
		return probe_stack(atoi(argv[2])) > 0 ? 0 : 1;
	if (argc == 3 && strcmp(argv[1], "--core-limit") == 0) {
		struct rlimit rl;
		return getrlimit(RLIMIT_CORE, &rl) == 0 &&
		       rl.rlim_cur == strtoul(argv[2], NULL, 10) ? 0 : 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	RUN(uname_says_linux);
	RUN(getrandom);
	RUN(ids_are_root);
	RUN(the_scheduling_policy_is_sched_other);
	RUN(sync_and_syncfs);
	RUN(prctl_name);
	RUN(sysinfo);
	RUN(getcpu_says_where_the_caller_runs);
	RUN(clocks);
	RUN(clock_nanosleep);
	RUN(rlimit_as_is_enforced);
	RUN(rlimit_stack_is_enforced);
	RUN(rlimits_are_the_process_s_across_a_thread_s_exec);
	RUN(personality_is_linux);
	RUN(spindle_program_runs_under_seed);
	return lx_exit_code();
}
