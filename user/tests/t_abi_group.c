/* user/tests/t_abi_group.c - how a thread group ends (abi.md sections 3
 * and 7), with threads that are busy in every way a thread can be: one
 * spinning in user mode, one asleep in FUTEX_WAIT with no timeout, one in
 * nanosleep, and the leader asleep in FUTEX_WAIT too:
 *   - "252 exit_group(code) ends every thread of the group", called by a
 *     thread or by the leader: the wait status is exited(code);
 *   - "1 exit(code) ends the calling task only": the leader's exit leaves
 *     the process running (not reaped, WNOHANG says 0) until its last
 *     thread ends; a blocking wait4 is woken then, and, as on Linux
 *     (wait_task_zombie), the status is the leader's exit code;
 *   - "SIGKILL, SIGTERM, SIGINT, SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGTRAP
 *     end the thread group" by default: each sent by tgkill to the
 *     spinning thread (not the leader), and by kill to the process; the
 *     status is the signal number;
 *   - a fault in a thread other than the leader ends the group too.
 * Afterwards no task of the group is alive: its other threads (exit
 * signal 0, not detached) are zombies which, their creator gone, pid 1
 * reaps (abi.md section 4), each with the process's status. Every wait for
 * the child process has a deadline: a watchdog thread interrupts it
 * (SIGUSR2), so a lost wake-up fails the case instead of hanging it.
 * Booted as init; each process under test is a forked child reporting
 * through a MAP_SHARED page. */
#define T_PROG "t_abi_group"
#include "t.h"
#include "thr.h"

#define STACK 16384
static char stk[5][STACK] __attribute__((aligned(16)));
#define TOP(i) ((void *)(stk[i] + STACK))

enum { SPIN, FUTEX, SLEEP, NTHR };
enum action { NOTHING, THREAD_EXIT_GROUP, LEADER_EXIT_GROUP, LEADER_EXIT, THREAD_FAULT };

struct shared {
	volatile int tid[NTHR];
	volatile int ready;             /* threads started */
	volatile int go;                /* the threads' cue */
	volatile int fault;             /* THREAD_FAULT: 0 ud2, 1 divide, 2 null */
	volatile int spins;
	volatile int release;           /* LEADER_EXIT: the spinner may end */
	int futex_word, leader_word;
};
static struct shared *sh;

/* ---- the process under test ---- */

static void fault_now(int how)
{
	unsigned q, r, d = 0;

	if (how == 0)
		__asm__ volatile("ud2");
	if (how == 1)
		__asm__ volatile("divl %2" : "=a"(q), "=d"(r) : "r"(d), "a"(1), "d"(0));
	(void)*(volatile int *)opaque(0);
}

static int spin_fn(void *arg, const struct thr_regs *r)
{
	long act = (long)arg;

	(void)r;
	sh->tid[SPIN] = (int)raw_gettid();
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	for (;;) {                      /* user mode only, until the cue */
		sh->spins++;
		if (sh->go) {
			if (act == THREAD_EXIT_GROUP)
				raw_exit_group(7);
			if (act == THREAD_FAULT)
				fault_now(sh->fault);
			if (act == LEADER_EXIT && sh->release)
				return 9;               /* SYS_exit(9): the last one */
		}
	}
}

static int futex_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	sh->tid[FUTEX] = (int)raw_gettid();
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!sh->go || arg)
		raw_futex(&sh->futex_word, FUTEX_WAIT, 0, NULL);
	return 0;
}

static int sleep_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	sh->tid[SLEEP] = (int)raw_gettid();
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 600; i++)
		thr_sleep_ms(1000);
	return 0;
}

/* The process: its threads, then what act says. For LEADER_EXIT the
 * sleeping threads are told to end (a FUTEX_WAKE; the sleeper is not
 * started) and the spinner ends last. */
static int group_process(long act)
{
	thr_fn fns[NTHR] = { spin_fn, futex_fn, sleep_fn };
	int n = act == LEADER_EXIT ? 2 : NTHR;

	for (int i = 0; i < n; i++)
		if (thr_clone(THR_THREAD_FLAGS, TOP(i), NULL, NULL, fns[i],
			      (void *)(i == SPIN ? act : 0)) <= 0)
			return 90;
	if (!thr_wait_word(&sh->ready, n, 20000))
		return 91;
	for (int i = 1; i < n; i++)
		if (!thr_wait_sleeping(sh->tid[i], 20000))
			return 92;
	if (act == LEADER_EXIT_GROUP)
		raw_exit_group(7);
	sh->go = 1;
	if (act == LEADER_EXIT) {
		raw_futex(&sh->futex_word, FUTEX_WAKE, 1, NULL);
		raw_exit(5);
	}
	for (;;)
		raw_futex(&sh->leader_word, FUTEX_WAIT, 0, NULL);
}

/* ---- the parent's side ---- */

static volatile int wd_done;
static volatile long wd_main;
static void on_usr2(int sig) { (void)sig; }

static int watchdog_fn(void *arg, const struct thr_regs *r)
{
	(void)r;
	for (long i = 0; i < (long)arg / 10 && !wd_done; i++)
		thr_sleep_ms(10);
	if (!wd_done)
		raw_tgkill((int)raw_getpid(), (int)wd_main, SIGUSR2);
	return 0;
}

/* wait4(pid, st, 0) with a deadline: -EINTR if it was not woken in ms. */
static long wait_deadline(long pid, int *st, long ms)
{
	thr_signal(SIGUSR2, on_usr2);
	wd_done = 0;
	wd_main = raw_gettid();
	long wd = thr_clone(THR_THREAD_FLAGS, TOP(4), NULL, NULL, watchdog_fn, (void *)ms);
	long r = raw_wait4((int)pid, st, 0, NULL);
	wd_done = 1;
	if (wd > 0)
		raw_wait4((int)wd, NULL, __WCLONE, NULL);
	return r;
}

/* How many tasks of group tgid /proc/tasks lists; *alive: how many of
 * them are not zombies. */
static int group_tasks_alive(long tgid, int *alive)
{
	const char *s = thr_procbuf;
	int n = 0;

	*alive = 0;
	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return -1;
	while (*s) {
		thr_num(&s);
		if ((long)thr_num(&s) == tgid) {
			n++;
			thr_num(&s);            /* PPID */
			while (*s == ' ')
				s++;
			*alive += *s != 'Z';
		}
		while (*s && *s != '\n')
			s++;
		if (*s)
			s++;
	}
	return n;
}

/* After the process was reaped: its other threads may be left only as
 * zombies (abi.md section 4: a thread without DETACHED becomes one, its
 * creator - the leader - is gone, so pid 1 has them). Reaps them and
 * returns how many tasks of the group were still alive, or 100 + the
 * number of threads whose status is not the process's, or -1. */
static int reap_group_rest(long tgid, int status)
{
	int alive, bad = 0, st;
	long n = group_tasks_alive(tgid, &alive);

	if (n < 0)
		return -1;
	if (alive)
		return alive;
	for (long i = 0; i < n; i++) {
		long r = raw_wait4(-1, &st, WNOHANG | __WALL, NULL);
		if (r <= 0)
			break;
		bad += st != status;
	}
	if (group_tasks_alive(tgid, &alive) != 0)
		return 200;
	return bad ? 100 + bad : 0;
}

static int group_tasks(long tgid)
{
	int alive;
	return group_tasks_alive(tgid, &alive);
}

/* Forks the process; once its threads are ready, sig (if not 0) goes by
 * tgkill to the spinner, or by kill to the process if to_process. The
 * wait status, or -errno; *left = reap_group_rest's answer. */
static long run_group(long act, int sig, bool to_process, int *left)
{
	int st = -1;

	memset((void *)sh, 0, sizeof(*sh));
	*left = -1;
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(group_process(act));
	if (pid < 0)
		return pid;
	if (sig) {
		if (!thr_wait_word(&sh->ready, NTHR, 20000) ||
		    !thr_wait_sleeping((int)pid, 20000)) {
			raw_kill((int)pid, SIGKILL);
			raw_wait4(pid, NULL, 0, NULL);
			return -EAGAIN;
		}
		long k = to_process ? raw_kill((int)pid, sig)
				    : raw_tgkill((int)pid, sh->tid[SPIN], sig);
		if (k < 0) {
			raw_kill((int)pid, SIGKILL);
			raw_wait4(pid, NULL, 0, NULL);
			return k;
		}
	}
	long r = wait_deadline(pid, &st, 20000);
	if (r != pid) {
		raw_kill((int)pid, SIGKILL);
		raw_wait4(pid, NULL, WNOHANG, NULL);
		return r < 0 ? r : -EINVAL;
	}
	*left = reap_group_rest(pid, st);
	return st;
}

TEST(exit_group_from_a_thread_ends_every_thread)
{
	int left;

	EXPECT_STATUS(run_group(THREAD_EXIT_GROUP, 0, false, &left), EXITED(7));
	EXPECT_EQ(left, 0);
}

TEST(exit_group_from_the_leader_ends_every_thread)
{
	int left;

	EXPECT_STATUS(run_group(LEADER_EXIT_GROUP, 0, false, &left), EXITED(7));
	EXPECT_EQ(left, 0);
}

TEST(exit_of_the_leader_ends_only_the_leader)
{
	int st = -1;
	long long end;

	memset((void *)sh, 0, sizeof(*sh));
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(group_process(LEADER_EXIT));
	EXPECT(pid > 0, "fork: %ld", pid);
	/* The leader exits right after the cue; the spinner spins on. */
	bool went = thr_wait_word(&sh->go, 1, 20000);
	for (end = thr_now_ns() + 20000000000ll; thr_task_state((int)pid) != 'Z' &&
	     thr_now_ns() < end; )
		raw_sched_yield();
	char leader = thr_task_state((int)pid);
	int s0 = sh->spins;
	thr_sleep_ms(50);
	int s1 = sh->spins;
	long r0 = raw_wait4(pid, &st, WNOHANG, NULL);
	sh->release = 1;
	long r = r0 == pid ? pid : wait_deadline(pid, &st, 20000);
	if (r != pid) {
		raw_kill((int)pid, SIGKILL);
		raw_wait4(pid, NULL, 0, NULL);
	}
	EXPECT(went, "the process never got going");
	EXPECT(leader == 'Z', "the leader is in state %c after its exit, want Z", leader ? leader : '-');
	EXPECT(s1 != s0, "the other thread stopped running when the leader called exit");
	EXPECT(r0 == 0, "wait4(WNOHANG) = %s while a thread of the process runs", t_val(r0, t_b1_));
	EXPECT(r == pid, "a blocking wait4 returned %s: not woken when the last thread ended "
	       "after the leader", t_val(r, t_b1_));
	EXPECT_STATUS(st, EXITED(5));           /* the leader's code, as Linux reports it */
	int alive, n = group_tasks_alive(pid, &alive);
	EXPECT(alive == 0, "%d tasks of the group alive after it was reaped", alive);
	for (int i = 0; i < n; i++)             /* zombie threads, now pid 1's */
		raw_wait4(-1, NULL, WNOHANG | __WALL, NULL);
	EXPECT_EQ(group_tasks(pid), 0);
}

/* ---- signals whose default ends the group ---- */

static const int fatal[] = { SIGKILL, SIGTERM, SIGINT, SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGTRAP };

TEST(fatal_default_signal_to_one_thread_ends_the_group)
{
	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		int left;
		long st = run_group(NOTHING, fatal[i], false, &left);
		EXPECT(st == KILLED(fatal[i]), "tgkill(spinning thread, %d): status %s, want %s",
		       fatal[i], t_status_str(st, t_b1_), t_status_str(KILLED(fatal[i]), t_b2_));
		EXPECT(left == 0, "signal %d: %d tasks of the group left", fatal[i], left);
	}
}

TEST(fatal_default_signal_to_the_process_ends_the_group)
{
	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		int left;
		long st = run_group(NOTHING, fatal[i], true, &left);
		EXPECT(st == KILLED(fatal[i]), "kill(process, %d): status %s, want %s",
		       fatal[i], t_status_str(st, t_b1_), t_status_str(KILLED(fatal[i]), t_b2_));
		EXPECT(left == 0, "signal %d: %d tasks of the group left", fatal[i], left);
	}
}

TEST(fault_in_a_thread_ends_the_group)
{
	static const int sig[] = { SIGILL, SIGFPE, SIGSEGV };

	for (int how = 0; how < 3; how++) {
		int left, st;
		memset((void *)sh, 0, sizeof(*sh));
		sh->fault = how;
		long pid = raw_fork();
		if (pid == 0)
			raw_exit_group(group_process(THREAD_FAULT));
		EXPECT(pid > 0, "fork: %ld", pid);
		long r = wait_deadline(pid, &st, 20000);
		if (r != pid) {
			raw_kill((int)pid, SIGKILL);
			raw_wait4(pid, NULL, 0, NULL);
		}
		EXPECT(r == pid, "wait4: %s", t_val(r, t_b1_));
		left = reap_group_rest(pid, st);
		EXPECT(st == KILLED(sig[how]), "fault %d in a thread: status %s, want %s", how,
		       t_status_str(st, t_b1_), t_status_str(KILLED(sig[how]), t_b2_));
		EXPECT_EQ(left, 0);
	}
}

int main(void)
{
	long page = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(page)) {
		printf("FAIL t_abi_group.setup: mmap2(MAP_SHARED) = %ld\n", page);
		return 1;
	}
	sh = (struct shared *)page;
	RUN(exit_group_from_a_thread_ends_every_thread);
	RUN(exit_group_from_the_leader_ends_every_thread);
	RUN(exit_of_the_leader_ends_only_the_leader);
	RUN(fatal_default_signal_to_one_thread_ends_the_group);
	RUN(fatal_default_signal_to_the_process_ends_the_group);
	RUN(fault_in_a_thread_ends_the_group);
	return t_exit_code();
}
