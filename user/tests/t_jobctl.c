/* user/tests/t_jobctl.c - job-control stops (abi.md section 9,
 * compat/linux/jobctl.c): SIGSTOP stops a whole process (every thread shows
 * T in /proc/tasks), wait4's WUNTRACED reports it once (WIFSTOPPED),
 * SIGCONT continues it and WCONTINUED reports that once; SIGKILL ends a
 * stopped process; the parent's SIGCHLD says CLD_STOPPED and
 * CLD_CONTINUED (none for a stop with SA_NOCLDSTOP); SIGTSTP stops only
 * with its default action and only in a process group that is not
 * orphaned (POSIX; a group whose parents are all init is orphaned);
 * SIGCONT cancels a pending stop signal; init never stops. Booted as
 * init. */
#define T_PROG "t_jobctl"
#include "t.h"
#include "thr.h"
#include "termios.h"

#define STACK 16384
#define STOPPED(sig) (((sig) << 8) | 0x7f)
#define CONTINUED 0xffff
#define SIGBIT(s) (1ull << ((s) - 1))

/* A page the children share with us (fork keeps MAP_SHARED shared). */
static void *shared_page(void)
{
	long r = raw_mmap2(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return RAW_IS_ERR(r) ? NULL : (void *)r;
}

static volatile unsigned long sink;

static void spin_forever(void)
{
	for (;;)
		sink++;
}

/* A child that spins (or sleeps) until killed. */
static long spinner(bool sleeper)
{
	long pid = raw_fork();

	if (pid == 0) {
		if (sleeper)
			for (;;)
				thr_sleep_ms(10000);
		spin_forever();
	}
	return pid;
}

/* Waits up to 5 s for tid's /proc/tasks state to be (or not be) c. */
static bool state_becomes(long tid, char c, bool is)
{
	for (int i = 0; i < 500; i++) {
		if ((thr_task_state((int)tid) == c) == is)
			return true;
		thr_sleep_ms(10);
	}
	return false;
}

static long kill_and_reap(long pid)
{
	int st = 0;

	raw_kill((int)pid, SIGKILL);
	if (raw_wait4((int)pid, &st, 0, NULL) != pid)
		return -1;
	return st;
}

TEST(sigstop_then_sigcont)
{
	int st = 0;
	long pid = spinner(false);

	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_kill((int)pid, SIGSTOP), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED, NULL), pid);
	EXPECT_EQ(st, STOPPED(SIGSTOP));
	EXPECT_EQ(thr_task_state((int)pid), 'T');
	/* Reported once. */
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED | WNOHANG, NULL), 0);
	/* Without WUNTRACED a stop is not a report. */
	EXPECT_EQ(raw_wait4((int)pid, &st, WNOHANG, NULL), 0);
	EXPECT_EQ(raw_kill((int)pid, SIGCONT), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, WCONTINUED, NULL), pid);
	EXPECT_EQ(st, CONTINUED);
	EXPECT(state_becomes(pid, 'T', false), "still stopped after SIGCONT");
	EXPECT_EQ(raw_wait4((int)pid, &st, WCONTINUED | WUNTRACED | WNOHANG, NULL), 0);
	/* SIGCONT to a process that is not stopped: nothing to report. */
	EXPECT_EQ(raw_kill((int)pid, SIGCONT), 0);
	thr_sleep_ms(50);
	EXPECT_EQ(raw_wait4((int)pid, &st, WCONTINUED | WNOHANG, NULL), 0);
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

TEST(sigkill_ends_a_stopped_process)
{
	int st = 0;
	long pid = spinner(true);

	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_kill((int)pid, SIGSTOP), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED, NULL), pid);
	EXPECT_EQ(st, STOPPED(SIGSTOP));
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

/* ---- every thread stops ---- */

static char stacks[2][STACK] __attribute__((aligned(16)));

static int thread_spin(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	spin_forever();
	return 0;
}

static int thread_sleep(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	for (;;)
		thr_sleep_ms(10000);
	return 0;
}

static volatile int *tids;      /* shared with the child: its threads */

static int threaded_child(long arg)
{
	(void)arg;
	tids[1] = (int)thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED, stacks[0] + STACK, NULL,
				 NULL, thread_spin, NULL);
	tids[2] = (int)thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED, stacks[1] + STACK, NULL,
				 NULL, thread_sleep, NULL);
	tids[0] = (int)raw_getpid();
	spin_forever();
	return 0;
}

TEST(every_thread_stops)
{
	int st = 0;
	long pid;

	tids = shared_page();
	EXPECT(tids != NULL, "mmap failed");
	pid = raw_fork();
	if (pid == 0)
		raw_exit_group(threaded_child(0));
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT(thr_wait_word(&tids[0], (int)pid, 5000), "the child never started its threads");
	EXPECT(tids[1] > 0 && tids[2] > 0, "clone: %d %d", tids[1], tids[2]);
	EXPECT_EQ(raw_kill((int)pid, SIGSTOP), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED, NULL), pid);
	EXPECT_EQ(st, STOPPED(SIGSTOP));
	for (int i = 0; i < 3; i++)
		EXPECT(thr_task_state(tids[i]) == 'T', "thread %d (tid %d) is %c, not stopped", i,
		       tids[i], thr_task_state(tids[i]));
	EXPECT_EQ(raw_kill((int)pid, SIGCONT), 0);
	for (int i = 0; i < 3; i++)
		EXPECT(state_becomes(tids[i], 'T', false), "thread %d still stopped", i);
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

/* ---- the parent's SIGCHLD ---- */

static volatile int chld_codes[8], chld_status[8], nchld;

static void on_sigchld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (nchld < 8) {
		chld_codes[nchld] = si->si_code;
		chld_status[nchld] = si->si_status;
		nchld++;
	}
}

static long install_sigchld(unsigned long flags)
{
	struct k_sigaction act = {
		.handler = (void *)on_sigchld, .flags = SA_SIGINFO | SA_RESTORER | flags,
		.restorer = (void *)__restore_rt,
	};
	return raw_rt_sigaction(SIGCHLD, &act, NULL, SIGSET_SIZE);
}

static void default_sigchld(void)
{
	struct k_sigaction act = { .handler = SIG_DFL };

	raw_rt_sigaction(SIGCHLD, &act, NULL, SIGSET_SIZE);
}

TEST(sigchld_says_stopped_and_continued)
{
	int st = 0;
	long pid;

	nchld = 0;
	EXPECT_EQ(install_sigchld(0), 0);
	pid = spinner(false);
	EXPECT(pid > 0, "fork: %ld", pid);
	raw_kill((int)pid, SIGSTOP);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED, NULL), pid);
	for (int i = 0; i < 100 && nchld < 1; i++)
		thr_sleep_ms(10);
	raw_kill((int)pid, SIGCONT);
	EXPECT_EQ(raw_wait4((int)pid, &st, WCONTINUED, NULL), pid);
	for (int i = 0; i < 100 && nchld < 2; i++)
		thr_sleep_ms(10);
	EXPECT_EQ(nchld, 2);
	EXPECT_EQ(chld_codes[0], CLD_STOPPED);
	EXPECT_EQ(chld_status[0], SIGSTOP);
	EXPECT_EQ(chld_codes[1], CLD_CONTINUED);
	EXPECT_EQ(chld_status[1], SIGCONT);
	/* SA_NOCLDSTOP: no SIGCHLD for either, wait4 still reports. */
	nchld = 0;
	EXPECT_EQ(install_sigchld(SA_NOCLDSTOP), 0);
	raw_kill((int)pid, SIGSTOP);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED, NULL), pid);
	raw_kill((int)pid, SIGCONT);
	EXPECT_EQ(raw_wait4((int)pid, &st, WCONTINUED, NULL), pid);
	thr_sleep_ms(50);
	EXPECT_EQ(nchld, 0);
	default_sigchld();
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

/* ---- SIGTSTP and orphaned groups ---- */

/* A process group is orphaned when no member's parent is in another
 * group of the session; init as a parent does not count. Our children
 * (we are init) are in an orphaned group: SIGTSTP is discarded. */
TEST(sigtstp_to_an_orphaned_group_is_discarded)
{
	int st = 0;
	long pid = spinner(false);

	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_kill((int)pid, SIGTSTP), 0);
	EXPECT_EQ(raw_kill((int)pid, SIGTTIN), 0);
	EXPECT_EQ(raw_kill((int)pid, SIGTTOU), 0);
	thr_sleep_ms(100);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED | WNOHANG, NULL), 0);
	EXPECT(thr_task_state((int)pid) != 'T', "stopped");
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

static volatile int *word;      /* shared: the worker's progress */

static void on_tstp(int sig)
{
	(void)sig;
	word[1]++;
}

/* In a manager process (so the worker's parent is not init): the worker
 * gets a group of its own; how = 0: SIGTSTP with the default action
 * stops it; 1: a handler runs instead; 2: ignored; 3: blocked, then
 * SIGCONT cancels it before it is unblocked. 0 if all went as said (a
 * CHECK says what did not). */
static int tstp_manager(long how)
{
	uint64_t set = SIGBIT(SIGTSTP), pending = 0;
	int st = 0;
	long pid;

	word[0] = word[1] = 0;
	pid = raw_fork();
	if (pid == 0) {
		raw_setpgid(0, 0);
		if (how == 1)
			thr_signal(SIGTSTP, on_tstp);
		if (how == 2)
			thr_signal(SIGTSTP, (void (*)(int))SIG_IGN);
		if (how == 3)
			raw_rt_sigprocmask(SIG_BLOCK, &set, NULL, SIGSET_SIZE);
		word[0] = 1;
		if (how != 3)
			spin_forever();
		while (word[0] != 2)
			thr_sleep_ms(5);
		RAW2(SYS_rt_sigpending, &pending, SIGSET_SIZE);
		raw_exit_group(pending & SIGBIT(SIGTSTP) ? 1 : 0);
	}
	CHECK(pid > 0 && thr_wait_word(&word[0], 1, 5000));   /* the worker started */
	raw_setpgid((int)pid, (int)pid);
	CHECK(raw_kill((int)pid, SIGTSTP) == 0);
	if (how == 3) {
		raw_kill((int)pid, SIGCONT);
		word[0] = 2;
		/* the worker exits 0 if SIGTSTP is no longer pending */
		CHECK(raw_wait4((int)pid, &st, 0, NULL) == pid && st == EXITED(0));
		return 0;
	}
	if (how == 0) {
		CHECK(raw_wait4((int)pid, &st, WUNTRACED, NULL) == pid && st == STOPPED(SIGTSTP));
		raw_kill((int)pid, SIGCONT);
		CHECK(raw_wait4((int)pid, &st, WCONTINUED, NULL) == pid && st == CONTINUED);
	} else {
		thr_sleep_ms(100);
		/* not stopped */
		CHECK(raw_wait4((int)pid, &st, WUNTRACED | WNOHANG, NULL) == 0);
		CHECK(how != 1 || word[1] == 1);        /* the handler ran */
	}
	raw_kill((int)pid, SIGKILL);
	CHECK(raw_wait4((int)pid, &st, 0, NULL) == pid && st == KILLED(SIGKILL));
	return 0;
}

TEST(sigtstp_stops_only_with_its_default_action)
{
	word = shared_page();
	EXPECT(word != NULL, "mmap failed");
	EXPECT_STATUS(child_status(tstp_manager, 0), EXITED(0));
	EXPECT_STATUS(child_status(tstp_manager, 1), EXITED(0));
	EXPECT_STATUS(child_status(tstp_manager, 2), EXITED(0));
}

TEST(sigcont_cancels_a_pending_stop)
{
	EXPECT_STATUS(child_status(tstp_manager, 3), EXITED(0));
}

/* ---- the terminal: SIGTTIN and SIGTTOU ---- */

/* In a manager process, a worker in a group of its own uses the console
 * from the background: how 0, a read: SIGTTIN stops it; 1, the same with
 * SIGTTIN ignored: EIO; 2, tcsetpgrp: SIGTTOU stops it; 3, tcsetattr
 * with SIGTTOU ignored: allowed; 4, a write with TOSTOP set: SIGTTOU;
 * 5, a write without TOSTOP: allowed. 0 if all went as said (a CHECK
 * says what did not). */
static int tty_manager(long how)
{
	static const int stop_sig[] = { SIGTTIN, 0, SIGTTOU, 0, SIGTTOU, 0 };
	struct termios saved, t;
	int st = 0, r;
	long pid;

	CHECK(tcgetattr(0, &saved) == 0);
	if (how == 4) {
		t = saved;
		t.c_lflag |= TOSTOP;
		CHECK(tcsetattr(0, TCSANOW, &t) == 0);
	}
	word[0] = 0;
	pid = raw_fork();
	if (pid == 0) {
		char c;
		raw_setpgid(0, 0);
		if (how == 1)
			thr_signal(SIGTTIN, (void (*)(int))SIG_IGN);
		if (how == 3)
			thr_signal(SIGTTOU, (void (*)(int))SIG_IGN);
		switch (how) {
		case 0: r = (int)raw_read(0, &c, 1); break;
		case 1: r = raw_read(0, &c, 1) == -EIO ? 0 : 1; break;
		case 2: r = tcsetpgrp(0, (pid_t)raw_getpid()); break;
		case 3: r = tcgetattr(0, &t) == 0 && tcsetattr(0, TCSANOW, &t) == 0 ? 0 : 1; break;
		default: r = raw_write(1, "", 0) == 0 && raw_write(1, " ", 1) == 1 ? 0 : 1; break;
		}
		raw_exit_group(r == 0 ? 0 : 1);
	}
	CHECK(pid > 0);
	raw_setpgid((int)pid, (int)pid);
	if (stop_sig[how]) {
		r = raw_wait4((int)pid, &st, WUNTRACED, NULL) == pid && st == STOPPED(stop_sig[how]);
		raw_kill((int)pid, SIGKILL);
		raw_wait4((int)pid, &st, 0, NULL);
	} else {
		r = raw_wait4((int)pid, &st, WUNTRACED, NULL) == pid && st == EXITED(0);
	}
	tcsetattr(0, TCSANOW, &saved);
	CHECK(r);               /* stopped by stop_sig[how], or exited 0 */
	return 0;
}

TEST(background_use_of_the_console)
{
	for (long how = 0; how <= 5; how++)
		EXPECT_STATUS(child_status(tty_manager, how), EXITED(0));
}

/* ---- a sleeping process, init, and the errors ---- */

TEST(a_sleeping_process_stops_too)
{
	int st = 0;
	long pid = spinner(true);

	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT(state_becomes(pid, 'S', true), "the child never slept");
	EXPECT_EQ(raw_kill((int)pid, SIGSTOP), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED, NULL), pid);
	EXPECT_EQ(st, STOPPED(SIGSTOP));
	EXPECT_EQ(thr_task_state((int)pid), 'T');
	EXPECT_EQ(raw_kill((int)pid, SIGCONT), 0);
	EXPECT(state_becomes(pid, 'T', false), "still stopped");
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

static int stop_init(long arg)
{
	(void)arg;
	return (int)-raw_kill(1, SIGSTOP);
}

TEST(init_never_stops)
{
	EXPECT_STATUS(child_status(stop_init, 0), EXITED(0));
	thr_sleep_ms(50);               /* still running: we are init */
	EXPECT(thr_task_state(1) != 'T', "init stopped");
}

TEST(wait4_errors)
{
	int st = 0;
	long pid = spinner(false);

	EXPECT(pid > 0, "fork: %ld", pid);
	raw_kill((int)pid, SIGSTOP);
	EXPECT(state_becomes(pid, 'T', true), "never stopped");
	EXPECT_EQ(raw_wait4((int)pid, (int *)16, WUNTRACED, NULL), -EFAULT);
	EXPECT_EQ(raw_wait4((int)pid, &st, WUNTRACED | WNOHANG, NULL), 0);   /* taken */
	raw_kill((int)pid, SIGCONT);
	EXPECT(state_becomes(pid, 'T', false), "still stopped");
	EXPECT_EQ(raw_wait4((int)pid, &st, WCONTINUED, (void *)0xc0000000), -EFAULT);
	EXPECT_EQ(raw_wait4((int)pid, &st, 0x100, NULL), -EINVAL);
	EXPECT_STATUS(kill_and_reap(pid), KILLED(SIGKILL));
}

int main(void)
{
	RUN(sigstop_then_sigcont);
	RUN(sigkill_ends_a_stopped_process);
	RUN(every_thread_stops);
	RUN(sigchld_says_stopped_and_continued);
	RUN(sigtstp_to_an_orphaned_group_is_discarded);
	RUN(sigtstp_stops_only_with_its_default_action);
	RUN(sigcont_cancels_a_pending_stop);
	RUN(background_use_of_the_console);
	RUN(a_sleeping_process_stops_too);
	RUN(init_never_stops);
	RUN(wait4_errors);
	return t_exit_code();
}
