/* user/tests/t_clone_wait.c - clone's exit signal (CSIGNAL) and which
 * wait4 reaps which child (abi.md section 4, as on Linux): a child's exit
 * signal runs the parent's handler; a child whose exit signal is not
 * SIGCHLD (0 included) is reaped only with __WCLONE or __WALL, and plain
 * wait4 gives -ECHILD at once when it is the only child; a SIGCHLD child
 * is not __WCLONE's. Booted as init. */
#define T_PROG "t_clone_wait"
#include "t.h"
#include "thr.h"

#define STACK 16384
static char stk[STACK] __attribute__((aligned(16)));
#define STACK_TOP ((void *)(stk + STACK))

static volatile int usr1_hits, chld_hits;
static void on_usr1(int sig) { (void)sig; usr1_hits++; }
static void on_chld(int sig) { (void)sig; chld_hits++; }

/* wait4, made again when a handler cut it short. The child's exit
 * signal can come between wait4's look at the children and its check
 * for signals; wait4 then says -EINTR, as Linux's do_wait does (these
 * handlers have no SA_RESTART). A schedule seed found that window. */
static long wait4_again(long pid, int *st, int options)
{
	long r;

	while ((r = raw_wait4((pid_t)pid, st, options, NULL)) == -EINTR)
		;
	return r;
}

/* ---- exit signals, and which wait4 reaps whom ---- */

TEST(exit_signal_sigusr1_runs_parents_handler)
{
	int st = -1;

	usr1_hits = 0;
	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	long tid = thr_clone(CLONE_VM | SIGUSR1, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(wait4_again(tid, &st, __WCLONE), tid);
	EXPECT_STATUS(st, EXITED(0));
	thr_wait_word(&usr1_hits, 1, 10000);
	EXPECT_EQ(usr1_hits, 1);
	EXPECT_EQ(thr_signal(SIGUSR1, SIG_DFL), 0);
}

TEST(exit_signal_sigchld_runs_parents_handler)
{
	int st = -1;

	chld_hits = 0;
	EXPECT_EQ(thr_signal(SIGCHLD, on_chld), 0);
	long tid = thr_clone(CLONE_VM | SIGCHLD, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(wait4_again(tid, &st, 0), tid);
	thr_wait_word(&chld_hits, 1, 10000);
	EXPECT_EQ(chld_hits, 1);
	EXPECT_EQ(thr_signal(SIGCHLD, SIG_DFL), 0);
}

TEST(exit_signal_0_only_for_wclone)
{
	int st = -1;
	long tid = thr_clone(CLONE_VM, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);

	EXPECT(tid > 1, "clone returned %ld", tid);
	/* Alive or a zombie, it is not plain wait4's: -ECHILD at once. */
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	tid = thr_clone(CLONE_VM, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(-1, &st, __WALL, NULL), tid);
}

TEST(exit_signal_sigusr1_only_for_wclone_or_wall)
{
	int st = -1;

	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	long tid = thr_clone(CLONE_VM | SIGUSR1, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(wait4_again(-1, &st, __WALL), tid);
	EXPECT_STATUS(st, EXITED(0));
	tid = thr_clone(CLONE_VM | SIGUSR1, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(-1, &st, WNOHANG, NULL), -ECHILD);
	EXPECT_EQ(wait4_again(-1, &st, __WCLONE), tid);
	EXPECT_EQ(thr_signal(SIGUSR1, SIG_DFL), 0);
}

TEST(sigchld_child_not_for_wclone)
{
	int st = -1;
	long tid = thr_clone(CLONE_VM | SIGCHLD, STACK_TOP, NULL, NULL, thr_quick_fn, NULL);

	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(-1, &st, __WCLONE, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
}

int main(void)
{
	RUN(exit_signal_sigusr1_runs_parents_handler);
	thr_reap_leftovers();
	RUN(exit_signal_sigchld_runs_parents_handler);
	thr_reap_leftovers();
	RUN(exit_signal_0_only_for_wclone);
	thr_reap_leftovers();
	RUN(exit_signal_sigusr1_only_for_wclone_or_wall);
	thr_reap_leftovers();
	RUN(sigchld_child_not_for_wclone);
	thr_reap_leftovers();
	return t_exit_code();
}
