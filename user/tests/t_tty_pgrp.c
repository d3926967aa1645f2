/* user/tests/t_tty_pgrp.c - process groups and sessions (compat/linux/pgrp.c)
 * and the console's foreground group (TIOCGPGRP/TIOCSPGRP, tty.h):
 * Linux's rules for setpgid and setsid with every error, inheritance by
 * fork and execve, kill(0) and kill(-pgid), and a background read. */
#define T_PROG "t_tty_pgrp"
#include "t.h"
#include "termios.h"
#include "signal.h"
#include "unistd.h"
#include "time.h"

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	raw_nanosleep(&ts, NULL);
}

/* A child that waits to be killed (or for the parent's word). */
static long spawn_sleeper(void)
{
	long pid = raw_fork();

	if (pid == 0)
		for (;;)
			nap_ms(1000);
	return pid;
}

static long reap(long pid)
{
	int st = -1;

	return raw_wait4(pid, &st, 0, NULL) == pid ? st : -1;
}

TEST(init_leads_session_1)
{
	int pg = -1;

	EXPECT_EQ(raw_getpid(), 1);
	EXPECT_EQ(raw_getpgrp(), 1);
	EXPECT_EQ(raw_getpgid(0), 1);
	EXPECT_EQ(raw_getpgid(1), 1);
	EXPECT_EQ(raw_getsid(0), 1);
	EXPECT_EQ(raw_ioctl(0, TIOCGPGRP, (long)&pg), 0);
	EXPECT_EQ(pg, 1);
	EXPECT_EQ(tcgetsid(0), 1);
	EXPECT_EQ(raw_getpgid(99999), -ESRCH);
	EXPECT_EQ(raw_getsid(99999), -ESRCH);
	EXPECT_EQ(raw_getpgid(-5), -ESRCH);
}

static int child_ids(long parent_pgid)
{
	CHECK(raw_getpgrp() == parent_pgid && raw_getsid(0) == 1);
	CHECK(raw_setpgid(0, 0) == 0 && raw_getpgrp() == raw_getpid());
	/* a grandchild inherits the new group */
	long pid = raw_fork();
	if (pid == 0) {
		CHECK(raw_getpgrp() == raw_getppid());
		raw_exit(0);
	}
	int st;
	CHECK(raw_wait4(pid, &st, 0, NULL) == pid && st == 0);
	/* and execve keeps it: the program checks its own group */
	char arg[16];
	snprintf(arg, sizeof(arg), "%ld", raw_getpid());
	char *argv[] = { "t_tty_pgrp", "pgid", arg, NULL };
	raw_execve(T_DIR "t_tty_pgrp", argv, NULL);
	NOT_REACHED("execve should have run t_tty_pgrp pgid");
}

TEST(inherited_by_fork_kept_by_exec)
{
	EXPECT_STATUS(child_status(child_ids, 1), EXITED(0));
}

TEST(setpgid_errors)
{
	long a = spawn_sleeper();

	EXPECT(a > 0, "fork");
	EXPECT_EQ(raw_setpgid(0, -1), -EINVAL);
	EXPECT_EQ(raw_setpgid(99999, 0), -ESRCH);       /* nobody */
	EXPECT_EQ(raw_setpgid(0, 0), -EPERM);           /* init leads its session */
	EXPECT_EQ(raw_setpgid(a, 424242), -EPERM);      /* no such group */
	EXPECT_EQ(raw_setpgid(a, 0), 0);                /* a group of its own */
	EXPECT_EQ(raw_getpgid(a), a);
	EXPECT_EQ(raw_setpgid(a, 1), 0);                /* and back into ours */
	EXPECT_EQ(raw_getpgid(a), 1);
	EXPECT_EQ(raw_setpgid(a, a), 0);
	raw_kill(a, SIGKILL);
	EXPECT_EQ(reap(a), KILLED(SIGKILL));
	EXPECT_EQ(raw_setpgid(a, 0), -ESRCH);           /* gone */
}

static int child_setsid(long arg)
{
	(void)arg;
	long me = raw_getpid();
	int pg;
	char c;

	CHECK(raw_setsid() == me && raw_getsid(0) == me && raw_getpgrp() == me);
	CHECK(raw_setsid() == -EPERM);                  /* a group leader now */
	CHECK(raw_ioctl(0, TIOCGPGRP, (long)&pg) == -ENOTTY);      /* no ctty */
	CHECK(raw_ioctl(0, TIOCSPGRP, (long)&me) == -ENOTTY);
	/* not our controlling terminal: no job control, reading is allowed
	 * (VMIN 0 makes it return at once) */
	struct termios t, r;
	raw_ioctl(0, TCGETS, (long)&t);
	r = t;
	r.c_lflag &= ~(tcflag_t)ICANON;
	r.c_cc[VMIN] = 0;
	r.c_cc[VTIME] = 0;
	raw_ioctl(0, TCSETS, (long)&r);
	long n = raw_read(0, &c, 1);
	raw_ioctl(0, TCSETS, (long)&t);
	CHECK(n == 0);
	return 0;
}

TEST(setsid)
{
	EXPECT_EQ(raw_setsid(), -EPERM);                /* init leads group 1 */
	EXPECT_STATUS(child_status(child_setsid, 0), EXITED(0));
}

/* A child in another session cannot be moved, nor joined to. */
static int child_setsid_wait(long arg)
{
	(void)arg;
	raw_setsid();
	nap_ms(3000);
	return 0;
}

TEST(other_session_eperm)
{
	long a = raw_fork();
	int pg;

	if (a == 0)
		raw_exit_group(child_setsid_wait(0));
	for (int i = 0; i < 100 && raw_getsid(a) != a; i++)
		nap_ms(10);
	EXPECT_EQ(raw_getsid(a), a);
	EXPECT_EQ(raw_setpgid(a, a), -EPERM);
	pg = (int)a;
	EXPECT_EQ(raw_ioctl(0, TIOCSPGRP, (long)&pg), -EPERM);
	raw_kill(a, SIGKILL);
	EXPECT_EQ(reap(a), KILLED(SIGKILL));
}

TEST(tiocspgrp)
{
	long a = spawn_sleeper();
	int pg;

	EXPECT(a > 0, "fork");
	EXPECT_EQ(raw_setpgid(a, a), 0);
	pg = -1;
	EXPECT_EQ(raw_ioctl(0, TIOCSPGRP, (long)&pg), -EINVAL);
	pg = 99999;
	EXPECT_EQ(raw_ioctl(0, TIOCSPGRP, (long)&pg), -ESRCH);
	EXPECT_EQ(tcsetpgrp(0, (pid_t)a), 0);
	EXPECT_EQ(tcgetpgrp(0), a);
	/* Now we are in the background: taking the console back is
	 * SIGTTOU's business, and our group is orphaned (our parent is no
	 * process), so it is EIO as on Linux, unless SIGTTOU is ignored, as
	 * a shell does. */
	pg = 1;
	EXPECT_EQ(raw_ioctl(0, TIOCSPGRP, (long)&pg), -EIO);
	EXPECT(signal(SIGTTOU, SIG_IGN) != SIG_ERR, "signal");
	EXPECT_EQ(tcsetpgrp(0, 1), 0);
	signal(SIGTTOU, SIG_DFL);
	EXPECT_EQ(tcgetpgrp(0), 1);
	raw_kill(a, SIGKILL);
	EXPECT_EQ(reap(a), KILLED(SIGKILL));
}

/* Outside the foreground group, a read of the controlling terminal
 * fails with EIO when SIGTTIN cannot stop the reader: here its group is
 * orphaned (its parent is init), as Linux says. (t_jobctl has the
 * reader that SIGTTIN stops.) */
static int child_background_read(long arg)
{
	char c;

	(void)arg;
	CHECK(raw_setpgid(0, 0) == 0);
	CHECK(raw_read(0, &c, 1) == -EIO);
	return 0;
}

TEST(background_read_eio)
{
	EXPECT_STATUS(child_status(child_background_read, 0), EXITED(0));
}

TEST(kill_process_group)
{
	long a = spawn_sleeper(), b = spawn_sleeper(), c = spawn_sleeper();

	EXPECT(a > 0 && b > 0 && c > 0, "fork");
	EXPECT_EQ(raw_setpgid(a, a), 0);
	EXPECT_EQ(raw_setpgid(b, a), 0);                /* a and b: group a */
	EXPECT_EQ(raw_kill(-a, 0), 0);
	EXPECT_EQ(raw_kill(-a, SIGTERM), 0);
	EXPECT_EQ(reap(a), KILLED(SIGTERM));
	EXPECT_EQ(reap(b), KILLED(SIGTERM));
	EXPECT_EQ(raw_kill(-a, 0), -ESRCH);             /* reaped: empty */
	EXPECT_EQ(raw_kill(-99999, SIGTERM), -ESRCH);
	EXPECT_EQ(raw_kill(-2147483647 - 1, SIGTERM), -ESRCH);
	EXPECT_EQ(raw_kill(-a, 99), -EINVAL);
	/* c is still ours (group 1): kill(0) reaches it and us */
	EXPECT(signal(SIGUSR1, SIG_IGN) != SIG_ERR, "signal");
	EXPECT_EQ(raw_kill(0, SIGUSR1), 0);
	EXPECT_EQ(reap(c), KILLED(SIGUSR1));
	signal(SIGUSR1, SIG_DFL);
}

/* wait4(-pgid) and wait4(0): children of that group only. */
TEST(wait_for_a_group)
{
	long a = spawn_sleeper(), b = spawn_sleeper();
	int st = -1;

	EXPECT(a > 0 && b > 0, "fork");
	EXPECT_EQ(raw_setpgid(a, a), 0);
	EXPECT_EQ(raw_wait4(-a, &st, WNOHANG, NULL), 0);        /* a runs */
	raw_kill(b, SIGKILL);
	nap_ms(50);
	EXPECT_EQ(raw_wait4(-a, &st, WNOHANG, NULL), 0);        /* b is not in it */
	EXPECT_EQ(raw_wait4(0, &st, 0, NULL), b);               /* b is in ours, a is not */
	raw_kill(a, SIGKILL);
	EXPECT_EQ(raw_wait4(-a, &st, 0, NULL), a);
	EXPECT_EQ(raw_wait4(-99999, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(-2147483647 - 1, &st, 0, NULL), -ESRCH);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "pgid") == 0)
		return raw_getpgrp() == atoi(argv[2]) && raw_getpid() == atoi(argv[2]) ? 0 : 6;
	RUN(init_leads_session_1);
	RUN(inherited_by_fork_kept_by_exec);
	RUN(setpgid_errors);
	RUN(setsid);
	RUN(other_session_eperm);
	RUN(tiocspgrp);
	RUN(background_read_eio);
	RUN(kill_process_group);
	RUN(wait_for_a_group);
	return t_exit_code();
}
