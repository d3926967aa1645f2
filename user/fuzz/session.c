/* user/fuzz/session.c - the pid-1 part of a fuzz run (fuzz.h).
 *
 * pid 1 does not fuzz and is not the supervisor: a worker can neither
 * signal it (calls.c) nor be its child, so nothing a worker does should
 * reach it. Two things still do, by design of the kernel: orphans are
 * reparented to pid 1, and their exit signals come with them. Until the
 * kernel resets a reparented task's exit signal to SIGCHLD and protects
 * pid 1 from signals it has no handler for (issue 11, bug 1), pid 1
 * catches every signal it can (fz_guard_init) and the workers never
 * choose SIGKILL as an exit signal (fz_config.sigkill_exit).
 *
 * The session reaps orphans as they come and kills those that linger
 * (a child blocked on a futex nobody will wake: seen in two sweeps a
 * FZ_SWEEP_MS apart). When the supervisor is done it kills every task
 * but itself (kill(-1, SIGKILL)), waits until /proc/kstat's task count
 * is back, and compares the books with those taken before. */
#include "user/fuzz/fuzz.h"
#include "signal.h"
#include "stdio.h"
#include "string.h"

#define FZ_SWEEP_MS 1000
#define FZ_MAX_PID 32768

static void guard(int sig)
{
	(void)sig;
}

void fz_guard_init(void)
{
	struct k_sigaction ka = { (void *)guard, SA_RESTORER, (void *)__restore_rt, { 0, 0 } };

	for (int s = 1; s <= NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			raw_rt_sigaction(s, &ka, NULL, SIGSET_SIZE);
}

static uint8_t seen_before[FZ_MAX_PID / 8], seen_now[FZ_MAX_PID / 8];
static char tasks_buf[32768];
static struct fz_books k0, k1;

static bool bit(const uint8_t *m, int pid)
{
	return pid > 0 && pid < FZ_MAX_PID && (m[pid / 8] & (1u << (pid % 8)));
}

/* Kills the orphans (parent pid 1, not the supervisor) that were already
 * there at the previous sweep. */
static void sweep(int super)
{
	struct fz_proc_task pt;
	const char *s = tasks_buf;
	int self = (int)raw_getpid();

	memset(seen_now, 0, sizeof(seen_now));
	if (fz_read_file("/proc/tasks", tasks_buf, sizeof(tasks_buf)) < 0)
		return;
	while ((s = fz_proc_task(s, &pt))) {
		if (pt.ppid != self || pt.tgid == super || pt.tgid == self ||
		    pt.tgid <= 0 || pt.tgid >= FZ_MAX_PID)
			continue;
		if (bit(seen_before, pt.tgid))
			raw_kill(pt.tgid, SIGKILL);
		seen_now[pt.tgid / 8] |= (uint8_t)(1u << (pt.tgid % 8));
	}
	memcpy(seen_before, seen_now, sizeof(seen_now));
}

/* Everything but pid 1 killed and reaped: until the task count is k0's. */
long fz_kill_rest(const struct fz_books *before, char *why, size_t n)
{
	long long end = fz_now_ms() + 30000;
	struct fz_books k;

	for (;;) {
		raw_kill(-1, SIGKILL);
		while (raw_wait4(-1, NULL, WNOHANG | __WALL, NULL) > 0)
			;
		if (fz_kstat(&k) == 0 && k.tasks <= before->tasks)
			return 0;
		if (fz_now_ms() > end)
			break;
		fz_sleep_ms(20);
	}
	snprintf(why, n, "%lu tasks 30 s after kill(-1, SIGKILL), %lu before", k.tasks,
		 before->tasks);
	printf("fuzz: tasks left:\n");
	if (fz_read_file("/proc/tasks", tasks_buf, sizeof(tasks_buf)) > 0)
		printf("%s", tasks_buf);
	return -1;
}

/* Touches the stack this session may use, so that no page fault adds a
 * frame between the two readings of the books. */
__attribute__((noinline)) void fz_touch_stack(void)
{
	volatile char pad[24 * 1024];

	for (size_t i = 0; i < sizeof(pad); i += 512)
		pad[i] = 0;
}

int fz_session(const struct fz_config *cfg, char *why, size_t n)
{
	long super, r;
	int st = 0;
	long long next_sweep;

	*why = 0;
	fz_touch_stack();
	memset(seen_before, 0, sizeof(seen_before));
	memset(seen_now, 0, sizeof(seen_now));	/* sweep writes it after k0 */
	memset(tasks_buf, 0, sizeof(tasks_buf));
	memset(&k1, 0, sizeof(k1));     /* no page first touched after k0 */
	printf("fuzz: session: seed %#x, %lu calls, %d workers\n", cfg->seed, cfg->calls,
	       cfg->workers);
	fz_fs_snapshot();               /* before the books: it touches pages */
	if ((r = fz_books_take(&k0)) != 0) {
		snprintf(why, n, "cannot read the books before: %ld", r);
		return 1;
	}
	super = raw_fork();
	if (super == 0)
		raw_exit_group(fz_supervise(cfg));
	if (super < 0) {
		snprintf(why, n, "cannot fork the supervisor: %ld", super);
		return 1;
	}
	next_sweep = fz_now_ms() + FZ_SWEEP_MS;
	for (;;) {
		long pid = raw_wait4(-1, &st, WNOHANG | __WALL, NULL);
		if (pid == super)
			break;
		if (pid > 0)
			continue;
		if (fz_now_ms() >= next_sweep) {
			sweep((int)super);
			next_sweep = fz_now_ms() + FZ_SWEEP_MS;
		}
		fz_sleep_ms(5);
	}
	if (fz_kill_rest(&k0, why, n) != 0)
		return 1;
	if (st != 0) {
		snprintf(why, n, "the supervisor ended with status %#x (see above)", st);
		return 1;
	}
	/* The files the workers made are theirs, not leaks: put the tree
	 * back first (fstree.c), then the books must be exact. */
	if (fz_fs_restore(why, n) != 0)
		return 1;
	if (fz_books_settle(&k0, &k1, 20000, why, n) != 0)
		return 1;
	printf("fuzz: books exact: %lu free frames, %lu tasks, %d object caches\n",
	       k1.frames_free, k1.tasks, k1.ncaches);
	return 0;
}
