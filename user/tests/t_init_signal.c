/* user/tests/t_init_signal.c - nobody can kill init by accident (issue
 * 11, item 1). Booted as init (pid 1), it checks Linux's two rules:
 *   - SIGNAL_UNKILLABLE: a signal for pid 1 whose action is SIG_DFL is
 *     dropped when it comes from kill or tgkill - SIGKILL included - and
 *     the call still answers 0; a signal pid 1 has a handler for is
 *     delivered as to anyone;
 *   - reparent_leader: an orphan adopted by pid 1 gets SIGCHLD as its exit
 *     signal ("we don't want people slaying init"), whatever CSIGNAL its
 *     parent chose, so its exit neither kills init nor needs __WCLONE.
 * Without the first rule a kill(1, SIGTERM) ends the run ("init exited
 * ... killed by signal"); without the second, the orphan cases fail
 * their plain wait4 (-ECHILD: a clone child) or kill init outright. */
#define T_PROG "t_init_signal"
#include "t.h"
#include "thr.h"

/* Signals whose default action would end a process. */
static const int deadly[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
			      SIGALRM, SIGPIPE, SIGKILL };
#define NDEADLY ((int)(sizeof(deadly) / sizeof(deadly[0])))

/* A forked child's kill/tgkill results, as an exit code: 0 if all were 0. */
static int send_deadly(long how)
{
	for (int i = 0; i < NDEADLY; i++) {
		long r = how ? raw_tgkill(1, 1, deadly[i]) : raw_kill(1, deadly[i]);
		if (r != 0)
			return 10 + i;
	}
	return 0;
}

TEST(kill_from_a_child_is_dropped)
{
	EXPECT_STATUS(child_status(send_deadly, 0), EXITED(0));
	/* Still here: and nothing is left pending for later either. */
	raw_sched_yield();
	EXPECT_EQ(raw_getpid(), 1);
}

TEST(tgkill_from_a_child_is_dropped)
{
	EXPECT_STATUS(child_status(send_deadly, 1), EXITED(0));
	raw_sched_yield();
	EXPECT_EQ(raw_getpid(), 1);
}

TEST(kill_of_itself_is_dropped)
{
	EXPECT_EQ(raw_kill(1, SIGTERM), 0);
	EXPECT_EQ(raw_kill(0, SIGKILL), 0);
	EXPECT_EQ(raw_tgkill(1, 1, SIGUSR2), 0);
	EXPECT_EQ(raw_getpid(), 1);
}

static volatile int usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen++;
}

static int send_usr1(long arg)
{
	(void)arg;
	return raw_kill(1, SIGUSR1) == 0 ? 0 : 1;
}

TEST(handled_signal_is_delivered)
{
	struct k_sigaction ka = { .handler = (void *)on_usr1 }, dfl = { .handler = SIG_DFL };
	long long end = thr_now_ns() + 5000ll * 1000000;

	long pid, r;
	int st = -1;

	usr1_seen = 0;
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &ka, NULL, SIGSET_SIZE), 0);
	if ((pid = raw_fork()) == 0)
		raw_exit_group(send_usr1(0));
	/* The handler may interrupt this wait4: -EINTR, then again. */
	while ((r = raw_wait4(pid, &st, 0, NULL)) == -EINTR)
		;
	EXPECT_EQ(r, pid);
	EXPECT_STATUS(st, EXITED(0));
	while (!usr1_seen && thr_now_ns() < end)
		raw_sched_yield();
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &dfl, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(usr1_seen, 1);
}

/* ---- orphans with a deadly exit signal ---- */

/* The grandchild's pid, for init to wait for by name. */
static volatile int *grandchild;

/* The middle process: clones a grandchild whose exit signal is SIGKILL,
 * so the grandchild's exit kills it. wait_orphaned: the grandchild exits
 * only once it is an orphan (pid 1 adopted it alive), else as soon as
 * its pid is written down (it is a zombie when its parent dies and is
 * adopted dead). */
static int middle(long wait_orphaned)
{
	long pid = raw_clone(SIGKILL, NULL, NULL, NULL, NULL);

	if (pid == 0) {
		long long end = thr_now_ns() + 10000ll * 1000000;
		/* Until init can know us: then orphaned, or not. */
		while ((!*grandchild || (wait_orphaned && raw_getppid() != 1)) &&
		       thr_now_ns() < end)
			raw_sched_yield();
		raw_exit_group(7);
	}
	if (pid < 0)
		raw_exit_group(2);
	*grandchild = (int)pid;
	if (wait_orphaned) {
		/* Die first, leaving the grandchild to pid 1. */
		raw_exit_group(3);
	}
	/* Killed by the grandchild's exit signal, long before this ends. */
	for (long long end = thr_now_ns() + 10000ll * 1000000; thr_now_ns() < end;)
		raw_sched_yield();
	return 4;
}

static void orphan_case(long wait_orphaned, long middle_status)
{
	int st = -1;
	long mid;

	*grandchild = 0;
	if ((mid = raw_fork()) == 0)
		raw_exit_group(middle(wait_orphaned));
	EXPECT(mid > 0, "fork: %ld", mid);
	EXPECT_EQ(raw_wait4(mid, &st, 0, NULL), mid);
	EXPECT_STATUS(st, middle_status);
	EXPECT(*grandchild > 1, "the middle process did not clone: %d", *grandchild);
	/* Adopted, its exit signal is SIGCHLD: an ordinary child, which a
	 * wait4 without __WCLONE waits for (a clone child would be -ECHILD). */
	st = -1;
	EXPECT_EQ(raw_wait4(*grandchild, &st, 0, NULL), *grandchild);
	EXPECT_STATUS(st, EXITED(7));
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

TEST(adopted_zombie_exit_signal_is_sigchld)
{
	orphan_case(0, KILLED(SIGKILL));
}

TEST(adopted_orphan_exit_signal_is_sigchld)
{
	orphan_case(1, EXITED(3));
}

int main(void)
{
	long r = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(r)) {
		printf("FAIL %s.setup: mmap2 MAP_SHARED: %ld\n", T_PROG, r);
		return 1;
	}
	grandchild = (volatile int *)r;
	if (raw_getpid() != 1) {
		printf("FAIL %s.setup: not pid 1 (pid %ld)\n", T_PROG, raw_getpid());
		return 1;
	}
	RUN(kill_from_a_child_is_dropped);
	RUN(tgkill_from_a_child_is_dropped);
	RUN(kill_of_itself_is_dropped);
	RUN(handled_signal_is_delivered);
	RUN(adopted_zombie_exit_signal_is_sigchld);
	RUN(adopted_orphan_exit_signal_is_sigchld);
	return t_exit_code();
}
