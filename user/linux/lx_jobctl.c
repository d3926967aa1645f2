/* user/linux/lx_jobctl.c - job control as glibc programs use it (abi.md
 * section 9, docs/terminal.md): SIGSTOP and SIGCONT on a child, waitpid's
 * WUNTRACED and WCONTINUED with glibc's WIFSTOPPED/WSTOPSIG/WIFCONTINUED,
 * SIGCHLD's CLD_STOPPED and CLD_CONTINUED, SIGKILL of a stopped child, a
 * SIGTSTP handler. Checked on Linux with qemu-i386. */
#define _GNU_SOURCE
#define LX_PROG "lx_jobctl"
#include "lx.h"
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t codes[4], ncodes, tstps;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (ncodes < 4)
		codes[ncodes++] = si->si_code;
}

static void on_tstp(int sig)
{
	(void)sig;
	tstps++;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static pid_t spinner(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

TEST(stop_and_continue)
{
	struct sigaction sa;
	int st;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	/* SA_RESTART: the SIGCHLD of the stop may come while waitpid is
	 * between its look at the children and its sleep; without it,
	 * waitpid would then return -1 EINTR, on Linux as here. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	EXPECT_EQ(sigaction(SIGCHLD, &sa, NULL), 0);
	ncodes = 0;
	pid = spinner();
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(kill(pid, SIGSTOP), 0);
	EXPECT_EQ(waitpid(pid, &st, WUNTRACED), pid);
	EXPECT(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "status %#x", st);
	EXPECT_EQ(kill(pid, SIGCONT), 0);
	EXPECT_EQ(waitpid(pid, &st, WCONTINUED), pid);
	EXPECT(WIFCONTINUED(st), "status %#x", st);
	for (int i = 0; i < 100 && ncodes < 2; i++)
		nap(10);
	EXPECT_EQ(ncodes, 2);
	EXPECT_EQ(codes[0], CLD_STOPPED);
	EXPECT_EQ(codes[1], CLD_CONTINUED);
	/* Stopped again, then killed. */
	EXPECT_EQ(kill(pid, SIGSTOP), 0);
	EXPECT_EQ(waitpid(pid, &st, WUNTRACED), pid);
	EXPECT_EQ(kill(pid, SIGKILL), 0);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %#x", st);
	signal(SIGCHLD, SIG_DFL);
}

TEST(a_handled_sigtstp_does_not_stop)
{
	int st;
	pid_t pid;

	tstps = 0;
	signal(SIGTSTP, on_tstp);
	pid = fork();
	if (pid == 0) {
		while (!tstps)
			pause();
		_exit(tstps == 1 ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	nap(50);
	EXPECT_EQ(kill(pid, SIGTSTP), 0);
	EXPECT_EQ(waitpid(pid, &st, WUNTRACED), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x", st);
	signal(SIGTSTP, SIG_DFL);
}

int main(void)
{
	RUN(stop_and_continue);
	RUN(a_handled_sigtstp_does_not_stop);
	return lx_exit_code();
}
