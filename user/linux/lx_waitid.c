/* user/linux/lx_waitid.c - waitid(2) as glibc calls it (abi.md section 9,
 * kernel/wait.c): P_PID, P_PGID and P_ALL; WEXITED with the siginfo's
 * CLD_EXITED and CLD_KILLED; WNOWAIT leaving a zombie (or a stop) to be
 * waited for again; WSTOPPED and WCONTINUED; WNOHANG with nothing to
 * report (a zeroed siginfo); the rusage argument; and Linux's errors
 * (EINVAL, ECHILD, EFAULT). Each expectation is Linux 6.1's
 * (kernel/exit.c kernel_waitid and sys_waitid). */
#define _GNU_SOURCE
#define LX_PROG "lx_waitid"
#include "lx.h"
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child_exiting(int code)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(code);
	return pid;
}

static pid_t child_pausing(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

TEST(exited_child_by_pid)
{
	siginfo_t si;
	pid_t pid = child_exiting(7);

	EXPECT(pid > 0, "fork: %s", strerror(errno));
	memset(&si, 0x55, sizeof(si));
	EXPECT_EQ(waitid(P_PID, pid, &si, WEXITED), 0);
	EXPECT_EQ(si.si_signo, SIGCHLD);
	EXPECT_EQ(si.si_errno, 0);
	EXPECT_EQ(si.si_code, CLD_EXITED);
	EXPECT_EQ(si.si_pid, pid);
	EXPECT_EQ(si.si_uid, 0);
	EXPECT_EQ(si.si_status, 7);
	/* Reaped: nothing left to wait for. */
	errno = 0;
	EXPECT_EQ(waitid(P_PID, pid, &si, WEXITED), -1);
	EXPECT_EQ(errno, ECHILD);
}

TEST(killed_child_and_wnowait)
{
	siginfo_t si;
	int st;
	pid_t pid = child_pausing();

	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(kill(pid, SIGTERM), 0);
	/* WNOWAIT: reported, and left a zombie for the next wait. */
	EXPECT_EQ(waitid(P_ALL, 0, &si, WEXITED | WNOWAIT), 0);
	EXPECT_EQ(si.si_code, CLD_KILLED);
	EXPECT_EQ(si.si_status, SIGTERM);
	EXPECT_EQ(si.si_pid, pid);
	memset(&si, 0, sizeof(si));
	EXPECT_EQ(waitid(P_PID, pid, &si, WEXITED | WNOWAIT), 0);
	EXPECT_EQ(si.si_pid, pid);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %#x", st);
}

TEST(stopped_and_continued)
{
	siginfo_t si;
	pid_t pid = child_pausing();

	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(kill(pid, SIGSTOP), 0);
	EXPECT_EQ(waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT), 0);
	EXPECT_EQ(si.si_code, CLD_STOPPED);
	EXPECT_EQ(si.si_status, SIGSTOP);
	/* Not taken by WNOWAIT: reported again, then taken. */
	EXPECT_EQ(waitid(P_PID, pid, &si, WSTOPPED), 0);
	EXPECT_EQ(si.si_code, CLD_STOPPED);
	memset(&si, 0x55, sizeof(si));
	EXPECT_EQ(waitid(P_PID, pid, &si, WSTOPPED | WNOHANG), 0);
	EXPECT_EQ(si.si_signo, 0);                  /* nothing: zeroed */
	EXPECT_EQ(si.si_pid, 0);
	EXPECT_EQ(kill(pid, SIGCONT), 0);
	EXPECT_EQ(waitid(P_PID, pid, &si, WCONTINUED), 0);
	EXPECT_EQ(si.si_code, CLD_CONTINUED);
	EXPECT_EQ(si.si_status, SIGCONT);
	EXPECT_EQ(kill(pid, SIGKILL), 0);
	EXPECT_EQ(waitid(P_PID, pid, &si, WEXITED), 0);
	EXPECT_EQ(si.si_code, CLD_KILLED);
	EXPECT_EQ(si.si_status, SIGKILL);
}

TEST(process_group_and_rusage)
{
	siginfo_t si;
	struct rusage ru;
	pid_t pid = fork();

	if (pid == 0) {
		/* A process group of its own, then some CPU time. */
		setpgid(0, 0);
		for (volatile unsigned long i = 0; i < 20000000ul; i++)
			;
		_exit(3);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	setpgid(pid, pid);              /* either of us may get there first */
	memset(&ru, 0x55, sizeof(ru));
	EXPECT_EQ(syscall(SYS_waitid, P_PGID, pid, &si, WEXITED, &ru), 0);
	EXPECT_EQ(si.si_pid, pid);
	EXPECT_EQ(si.si_status, 3);
	EXPECT(ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000, "utime usec %ld",
	       (long)ru.ru_utime.tv_usec);
	EXPECT_EQ(ru.ru_maxrss >= 0, 1);
}

/* Our own group (P_PGID 0, wait4's 0) is a group, not "any": a child
 * that moved to a group of its own is not ours to wait for there, even
 * when our group is 1 (booted as init, it is). */
TEST(own_group_is_not_any_group)
{
	siginfo_t si;
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		setpgid(0, 0);
		_exit(4);
	}
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	setpgid(pid, pid);
	EXPECT_EQ(waitid(P_PID, pid, &si, WEXITED | WNOWAIT), 0);   /* a zombie now */
	errno = 0;
	EXPECT_EQ(waitid(P_PGID, 0, &si, WEXITED | WNOHANG), -1);
	EXPECT_EQ(errno, ECHILD);
	EXPECT_EQ(waitid(P_PGID, getpgrp(), &si, WEXITED | WNOHANG), -1);
	EXPECT_EQ(errno, ECHILD);
	EXPECT_EQ(waitpid(0, &st, WNOHANG), -1);
	EXPECT_EQ(errno, ECHILD);
	EXPECT_EQ(waitpid(-pid, &st, 0), pid);                     /* its group */
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 4, "status %#x", st);
}

TEST(errors)
{
	siginfo_t si;
	pid_t pid;

	errno = 0;
	EXPECT_EQ(waitid(P_ALL, 0, &si, WNOHANG), -1);   /* no event asked for */
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(waitid(P_PID, 0, &si, WEXITED), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(waitid(P_PGID, -5, &si, WEXITED), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(waitid((idtype_t)7, 1, &si, WEXITED), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(waitid(P_ALL, 0, &si, WEXITED | 0x100), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(waitid(P_ALL, 0, &si, WEXITED), -1);   /* no children */
	EXPECT_EQ(errno, ECHILD);
	/* A bad infop: -EFAULT, after the child was found. */
	pid = child_exiting(0);
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(syscall(SYS_waitid, P_PID, pid, (void *)8, WEXITED | WNOWAIT, NULL), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(waitid(P_PID, pid, &si, WEXITED), 0);
	EXPECT_EQ(si.si_pid, pid);
}

int main(void)
{
	RUN(exited_child_by_pid);
	RUN(killed_child_and_wnowait);
	RUN(stopped_and_continued);
	RUN(process_group_and_rusage);
	RUN(own_group_is_not_any_group);
	RUN(errors);
	return lx_exit_code();
}
