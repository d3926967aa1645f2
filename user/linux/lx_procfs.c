/* user/linux/lx_procfs.c - /proc/<pid>/stat and /proc/<pid>/cmdline as ps
 * reads them (compat/linux/fs/proc_pid.c): stat's 52 fields with the ids,
 * state, thread count and exit signal in their places, for this process,
 * a child that sleeps and a zombie; the CPU times and a stopped child's
 * T; status's fields and maps' areas (with the stack where glibc's
 * pthread_getattr_np finds it); cmdline's NUL-separated arguments,
 * empty for a zombie; /proc/<pid>/task/<tid> and /proc/thread-self; a
 * reread from offset 0 made afresh; a pid that does not exist; no
 * writing (we are root: open succeeds, write is EINVAL). busybox's ps
 * skips a process whose stat it cannot read. Each expectation is Linux
 * 6.1's, checked on Linux. */
#define _GNU_SOURCE
#define LX_PROG "lx_procfs"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <sys/wait.h>
#include <unistd.h>

static char *argv0;

/* The file's bytes, NUL-terminated; its length, or -errno. */
static long slurp(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	long len = 0, r;

	if (fd < 0)
		return -errno;
	while (len < (long)n - 1 && (r = read(fd, buf + len, n - 1 - len)) > 0)
		len += r;
	close(fd);
	buf[len] = '\0';
	return len;
}

/* stat's fields: f[1] is "(comm)", f[k] is field k+1 of proc(5). */
static int stat_fields(int pid, char *buf, size_t n, char **f, int max)
{
	char path[64];
	int k = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (slurp(path, buf, n) <= 0)
		return -1;
	for (char *s = strtok(buf, " \n"); s && k < max; s = strtok(NULL, " \n"))
		f[k++] = s;
	return k;
}

TEST(self_stat)
{
	char buf[1024], *f[64], comm[32];
	int n = stat_fields(getpid(), buf, sizeof(buf), f, 64);

	snprintf(comm, sizeof(comm), "(%.15s)", strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0);
	EXPECT_EQ(n, 52);
	EXPECT_EQ(atoi(f[0]), getpid());
	EXPECT(strcmp(f[1], comm) == 0, "comm %s, want %s", f[1], comm);
	EXPECT(strcmp(f[2], "R") == 0, "state %s, want R (reading it)", f[2]);
	EXPECT_EQ(atoi(f[3]), getppid());
	EXPECT_EQ(atoi(f[4]), getpgrp());
	EXPECT_EQ(atoi(f[5]), getsid(0));
	EXPECT_EQ(atoi(f[19]), 1);              /* num_threads */
	EXPECT(strtoul(f[22], NULL, 10) > 0, "vsize %s", f[22]);
	EXPECT(strtoul(f[23], NULL, 10) > 0, "rss %s", f[23]);
	EXPECT_EQ(atoi(f[37]), SIGCHLD);        /* exit_signal */
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

TEST(threads_are_counted)
{
	char buf[1024], *f[64];
	pthread_t t[3];

	for (int k = 0; k < 3; k++)
		pthread_create(&t[k], NULL, sleeper, NULL);
	int n = stat_fields(getpid(), buf, sizeof(buf), f, 64);
	int threads = n == 52 ? atoi(f[19]) : -1;
	for (int k = 0; k < 3; k++) {
		pthread_cancel(t[k]);
		pthread_join(t[k], NULL);
	}
	EXPECT_EQ(n, 52);
	EXPECT_EQ(threads, 4);
}

/* A thread that names itself, says its tid and readlink of
 * /proc/thread-self, then sleeps until cancelled. */
struct named {
	volatile pid_t tid;
	char self[64];
};

static void *named_thread(void *arg)
{
	struct named *n = arg;
	ssize_t len;

	prctl(PR_SET_NAME, "lx-worker");
	len = readlink("/proc/thread-self", n->self, sizeof(n->self) - 1);
	n->self[len > 0 ? len : 0] = '\0';
	n->tid = gettid();
	pause();
	return NULL;
}

/* /proc/<pid>/task/<tid>: one directory per thread, whose stat and
 * status are the thread's own (Linux's fs/proc/base.c tid_base_stuff);
 * /proc/thread-self links to the caller's. */
TEST(threads_have_task_directories)
{
	struct named w[2] = { { 0, "" }, { 0, "" } };
	char path[96], buf[1024], want[64], *f[64];
	pthread_t t[2];
	int seen = 0, k;

	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, named_thread, &w[k]);
	for (k = 0; k < 2; k++)
		while (!w[k].tid)
			sched_yield();
	usleep(20000);                  /* both asleep in pause() */

	DIR *d = opendir("/proc/self/task");
	EXPECT(d != NULL, "opendir /proc/self/task: %s", strerror(errno));
	for (struct dirent *e; d && (e = readdir(d));) {
		int id = atoi(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		EXPECT(e->d_type == DT_DIR, "%s is not a directory", e->d_name);
		seen |= id == getpid() ? 1 : id == w[0].tid ? 2 : id == w[1].tid ? 4 : 8;
	}
	if (d)
		closedir(d);
	EXPECT_EQ(seen, 7);

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", getpid(), w[1].tid);
	EXPECT(slurp(path, buf, sizeof(buf)) > 0, "%s: %s", path, strerror(errno));
	for (k = 0; k < 64 && (f[k] = strtok(k ? NULL : buf, " \n")); k++)
		;
	EXPECT_EQ(k, 52);
	EXPECT_EQ(atoi(f[0]), w[1].tid);
	EXPECT(strcmp(f[1], "(lx-worker)") == 0, "comm %s", f[1]);
	EXPECT(strcmp(f[2], "S") == 0, "state %s, want S (in pause)", f[2]);
	EXPECT_EQ(atoi(f[3]), getppid());       /* the process's parent */
	EXPECT_EQ(atoi(f[19]), 3);              /* num_threads: the process's */

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", w[0].tid);
	EXPECT(slurp(path, buf, sizeof(buf)) > 0, "%s: %s", path, strerror(errno));
	snprintf(want, sizeof(want), "\nPid:\t%d\n", w[0].tid);
	EXPECT(strstr(buf, want) != NULL, "no '%s' in %s", want + 1, path);
	snprintf(want, sizeof(want), "\nTgid:\t%d\n", getpid());
	EXPECT(strstr(buf, want) != NULL, "no '%s' in %s", want + 1, path);
	EXPECT(strncmp(buf, "Name:\tlx-worker\n", 16) == 0, "status starts %.20s", buf);

	snprintf(want, sizeof(want), "%d/task/%d", getpid(), w[0].tid);
	EXPECT(strcmp(w[0].self, want) == 0, "/proc/thread-self -> %s, want %s", w[0].self, want);
	snprintf(path, sizeof(path), "/proc/self/task/%d/task", w[0].tid);
	EXPECT_EQ(access(path, F_OK), -1);      /* a thread has no task/ */
	EXPECT_EQ(access("/proc/self/task/99999", F_OK), -1);
	EXPECT_EQ(errno, ENOENT);
	snprintf(path, sizeof(path), "/proc/self/task/%d", getppid());
	EXPECT_EQ(access(path, F_OK), -1);      /* another process's thread */

	for (k = 0; k < 2; k++) {
		pthread_cancel(t[k]);
		pthread_join(t[k], NULL);
	}
	snprintf(path, sizeof(path), "/proc/self/task/%d", w[0].tid);
	EXPECT_EQ(access(path, F_OK), -1);      /* gone with the thread */
}

TEST(signal_masks)
{
	char buf[1024], *f[64];
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	signal(SIGUSR2, SIG_IGN);
	int n = stat_fields(getpid(), buf, sizeof(buf), f, 64);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR2, SIG_DFL);
	EXPECT_EQ(n, 52);
	EXPECT(strtoul(f[31], NULL, 10) & (1u << (SIGUSR1 - 1)), "blocked %s", f[31]);
	EXPECT(strtoul(f[32], NULL, 10) & (1u << (SIGUSR2 - 1)), "sigignore %s", f[32]);
}

TEST(child_and_zombie)
{
	char buf[1024], path[64], *f[64];
	int p[2], status;
	char c;

	if (pipe(p) < 0)
		FAIL("pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? 3 : 4);
	}
	close(p[0]);
	/* Asleep in read once it gets there (at most 5 s on a busy host). */
	int n = 0, ppid = -1;
	char state = '?';
	for (int k = 0; k < 500 && state != 'S'; k++) {
		if (k)
			usleep(10000);
		n = stat_fields(pid, buf, sizeof(buf), f, 64);
		state = n > 2 ? f[2][0] : '?';
		ppid = n > 3 ? atoi(f[3]) : -1;
	}
	/* Let it exit; it stays a zombie until waited for. */
	if (write(p[1], "x", 1) != 1)
		FAIL("write");
	close(p[1]);
	/* Until stat says so (at most 5 s; waitid's WNOWAIT would do as
	 * well, but this is stat's test). */
	int nz = 0;
	char zstate = '?';
	for (int k = 0; k < 500 && zstate != 'Z'; k++) {
		if (k)
			usleep(10000);
		nz = stat_fields(pid, buf, sizeof(buf), f, 64);
		zstate = nz > 2 ? f[2][0] : '?';
	}
	int zcode = nz == 52 ? atoi(f[51]) : -1;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	long zlen = slurp(path, buf, sizeof(buf));
	waitpid(pid, &status, 0);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	long gone = slurp(path, buf, sizeof(buf));
	EXPECT_EQ(n, 52);
	EXPECT(state == 'S', "sleeping child's state %c", state);
	EXPECT_EQ(ppid, getpid());
	EXPECT_EQ(nz, 52);
	EXPECT(zstate == 'Z', "zombie's state %c", zstate);
	EXPECT_EQ(zcode, 3 << 8);               /* exit_code: the wait status */
	EXPECT_EQ(zlen, 0);                     /* a zombie has no arguments */
	EXPECT_EQ(gone, -ENOENT);
}

/* Fields 14-17 (utime stime cutime cstime) are times(2)'s, in clock
 * ticks; a stopped child's state is T. */
TEST(cpu_times_and_stopped_state)
{
	char buf[1024], *f[64];
	struct tms before, after;
	volatile unsigned long spin = 0;
	clock_t t0 = times(&before);
	int status;

	while (times(NULL) - t0 < sysconf(_SC_CLK_TCK) / 4)    /* 250 ms */
		spin++;
	int n = stat_fields(getpid(), buf, sizeof(buf), f, 64);
	times(&after);
	EXPECT_EQ(n, 52);
	long ut = atol(f[13]), st = atol(f[14]);
	EXPECT(ut >= before.tms_utime && ut <= after.tms_utime,
	       "utime %ld, times() says %ld..%ld", ut, (long)before.tms_utime, (long)after.tms_utime);
	EXPECT(st >= before.tms_stime && st <= after.tms_stime,
	       "stime %ld, times() says %ld..%ld", st, (long)before.tms_stime, (long)after.tms_stime);
	EXPECT(ut + st > 0, "no CPU time after 250 ms of spinning");
	EXPECT_EQ(atol(f[15]), (long)after.tms_cutime);
	EXPECT_EQ(atol(f[16]), (long)after.tms_cstime);

	pid_t pid = fork();
	if (pid == 0)
		for (;;)
			pause();
	EXPECT(pid > 0, "fork");
	EXPECT_EQ(kill(pid, SIGSTOP), 0);
	EXPECT_EQ(waitpid(pid, &status, WUNTRACED), pid);
	n = stat_fields(pid, buf, sizeof(buf), f, 64);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	EXPECT_EQ(n, 52);
	EXPECT(f[2][0] == 'T', "stopped child's state %s", f[2]);
}

/* status: Linux's "Name:\tvalue" lines; its fields agree with stat's. */
static const char *status_field(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, name, len) == 0 && p[len] == ':')
			return p + len + 1 + strspn(p + len + 1, " \t");
	return NULL;
}

TEST(status)
{
	char buf[2048], path[64];
	const char *v;
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	long n = slurp("/proc/self/status", buf, sizeof(buf));
	sigprocmask(SIG_SETMASK, &old, NULL);
	EXPECT(n > 0, "read /proc/self/status: %ld", n);
	EXPECT((v = status_field(buf, "Name")) && strncmp(v, "lx_procfs", 9) == 0, "Name");
	EXPECT((v = status_field(buf, "State")) && strncmp(v, "R (running)", 11) == 0, "State");
	EXPECT((v = status_field(buf, "Pid")) && atoi(v) == getpid(), "Pid");
	EXPECT((v = status_field(buf, "Tgid")) && atoi(v) == getpid(), "Tgid");
	EXPECT((v = status_field(buf, "PPid")) && atoi(v) == getppid(), "PPid");
	EXPECT((v = status_field(buf, "Threads")) && atoi(v) == 1, "Threads");
	EXPECT((v = status_field(buf, "VmRSS")) && atol(v) > 0, "VmRSS");
	EXPECT((v = status_field(buf, "SigBlk")) &&
	       (strtoull(v, NULL, 16) & (1ull << (SIGUSR1 - 1))), "SigBlk");
	EXPECT((v = status_field(buf, "Uid")) && atoi(v) == (int)getuid(), "Uid");
	snprintf(path, sizeof(path), "/proc/%d/status", getpid());
	EXPECT(slurp(path, buf, sizeof(buf)) > 0, "read %s", path);
}

/* maps: the areas in address order, and the main thread's stack where
 * glibc's pthread_getattr_np finds it (it reads maps for that). */
TEST(maps)
{
	char buf[8192];
	unsigned long lo, hi, prev = 0, here = (unsigned long)&buf;
	int lines = 0, stack_ok = 0, sorted = 1;
	pthread_attr_t a;
	void *addr;
	size_t size;

	long n = slurp("/proc/self/maps", buf, sizeof(buf));
	EXPECT(n > 0, "read /proc/self/maps: %ld", n);
	for (char *p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char perms[5];
		if (sscanf(p, "%lx-%lx %4s", &lo, &hi, perms) != 3)
			break;
		lines++;
		if (lo < prev || hi <= lo)
			sorted = 0;
		prev = hi;
		if (lo <= here && here < hi && strncmp(perms, "rw", 2) == 0 &&
		    strstr(p, "[stack]") && strstr(p, "[stack]") < strchr(p, '\n'))
			stack_ok = 1;
	}
	EXPECT(lines >= 3, "%d lines", lines);
	EXPECT(sorted, "areas out of order");
	EXPECT(stack_ok, "no rw [stack] line holds %#lx", here);
	EXPECT_EQ(pthread_getattr_np(pthread_self(), &a), 0);
	EXPECT_EQ(pthread_attr_getstack(&a, &addr, &size), 0);
	pthread_attr_destroy(&a);
	EXPECT((unsigned long)addr <= here && here < (unsigned long)addr + size,
	       "pthread_getattr_np's stack %p+%zu misses %#lx", addr, size, here);
}

TEST(cmdline)
{
	char buf[1024], path[64];
	int p[2], status;

	if (pipe(p) < 0)
		FAIL("pipe");
	pid_t pid = fork();
	if (pid == 0) {
		close(p[1]);
		dup2(p[0], 0);
		execl(argv0, argv0, "cmdline-child", "two words", "", "x", (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	/* Once it has exec'd (until then it has our arguments), at most 5 s. */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	long len = 0;
	for (int k = 0; k < 500; k++) {
		if (k)
			usleep(10000);
		len = slurp(path, buf, sizeof(buf));
		if (len > (long)strlen(argv0) + 1)
			break;
	}
	close(p[1]);
	waitpid(pid, &status, 0);
	char want[256];
	int wl = snprintf(want, sizeof(want), "%s%ccmdline-child%ctwo words%c%cx%c",
			  argv0, 0, 0, 0, 0, 0);
	EXPECT_EQ(len, wl);
	EXPECT(memcmp(buf, want, (size_t)wl) == 0, "cmdline differs");
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
	len = slurp("/proc/self/cmdline", buf, sizeof(buf));
	EXPECT_EQ(len, (long)strlen(argv0) + 1);
	EXPECT(strcmp(buf, argv0) == 0, "own cmdline %s", buf);
}

/* A read from offset 0 makes the text again, as Linux's seq_file: one
 * open file, reread with pread or after lseek, shows the figures of now
 * (Linux's selftests/proc/proc-uptime-001.c rereads /proc/uptime so
 * until it moves). A later read of a process that has gone is -ESRCH. */
TEST(a_read_from_offset_0_is_fresh)
{
	char a[64] = "", b[64] = "";
	int fd = open("/proc/uptime", O_RDONLY);
	double u0, u1;

	EXPECT(fd >= 0, "open /proc/uptime: %s", strerror(errno));
	EXPECT(pread(fd, a, sizeof(a) - 1, 0) > 0, "pread: %s", strerror(errno));
	usleep(50000);
	EXPECT(pread(fd, b, sizeof(b) - 1, 0) > 0, "pread: %s", strerror(errno));
	u0 = strtod(a, NULL);
	u1 = strtod(b, NULL);
	EXPECT(u1 >= u0 + 0.04, "uptime %s then %s, 50 ms apart", a, b);
	memset(a, 0, sizeof(a));
	usleep(50000);
	EXPECT_EQ(lseek(fd, 0, SEEK_SET), 0);
	EXPECT(read(fd, a, sizeof(a) - 1) > 0, "read: %s", strerror(errno));
	EXPECT(strtod(a, NULL) >= u1 + 0.04, "uptime %s then %s after lseek", b, a);
	close(fd);

	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	snprintf(a, sizeof(a), "/proc/%d/stat", pid);
	fd = open(a, O_RDONLY);
	EXPECT(fd >= 0, "open %s: %s", a, strerror(errno));
	EXPECT(read(fd, b, sizeof(b)) > 0, "read the child's stat: %s", strerror(errno));
	EXPECT_EQ(waitpid(pid, NULL, 0), pid);
	errno = 0;
	EXPECT_EQ(pread(fd, b, sizeof(b), 0), -1);
	EXPECT_EQ(errno, ESRCH);
	close(fd);
}

TEST(errors)
{
	char buf[64];

	EXPECT_EQ(slurp("/proc/99999/stat", buf, sizeof(buf)), -ENOENT);
	EXPECT_EQ(slurp("/proc/self/status-nothing", buf, sizeof(buf)), -ENOENT);
	/* Root may open them for writing (Linux's permission check), but
	 * they have no write operation. */
	int fd = open("/proc/self/stat", O_WRONLY);
	EXPECT(fd >= 0, "open for writing: %s", strerror(errno));
	errno = 0;
	EXPECT_EQ(write(fd, "x", 1), -1);
	EXPECT_EQ(errno, EINVAL);
	close(fd);
}

int main(int argc, char **argv)
{
	argv0 = argv[0];
	if (argc > 1 && strcmp(argv[1], "cmdline-child") == 0) {
		char c;
		return read(0, &c, 1) == 0 ? 0 : 1;     /* until the pipe closes */
	}
	RUN(self_stat);
	RUN(threads_are_counted);
	RUN(threads_have_task_directories);
	RUN(signal_masks);
	RUN(child_and_zombie);
	RUN(cpu_times_and_stopped_state);
	RUN(status);
	RUN(maps);
	RUN(cmdline);
	RUN(a_read_from_offset_0_is_fresh);
	RUN(errors);
	return lx_exit_code();
}
