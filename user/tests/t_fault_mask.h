/* user/tests/t_fault_mask.h - t_fault's cases on blocking signals and on
 * the errors of rt_sigprocmask, rt_sigaction and kill (abi.md section 7).
 * Not a header to include anywhere else: t_fault.c includes it once, at
 * the point these cases stood, so they use its helpers as before. */
#ifndef USER_TESTS_T_FAULT_MASK_H
#define USER_TESTS_T_FAULT_MASK_H

/* ---- blocking ---- */
TEST(blocked_signal_waits_for_unblock)
{
	unsigned long long set = SIGBIT(SIGUSR1), old = ~0ull;

	handled = 0;
	EXPECT_EQ(install(SIGUSR1, count_handler, SA_RESTORER, 0), 0);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, &set, &old, SIGSET_SIZE), 0);
	EXPECT_EQ(old, 0);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR1), 0);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR1), 0);  /* standard signals merge */
	yield_n(5);
	EXPECT_EQ(handled, 0);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_UNBLOCK, &set, &old, SIGSET_SIZE), 0);
	EXPECT_EQ(old, SIGBIT(SIGUSR1));
	EXPECT_EQ(handled, 1);          /* delivered before sigprocmask returned */
	install(SIGUSR1, SIG_DFL, 0, 0);
}

/* The same for a signal sent to the thread itself (tgkill): it waits in
 * the thread's own set, which the return path looks at only once the
 * unblocking call has flagged it (signal_set_blocked, kernel/signal.c). */
TEST(blocked_thread_signal_waits_for_unblock)
{
	unsigned long long set = SIGBIT(SIGUSR1);

	handled = 0;
	EXPECT_EQ(install(SIGUSR1, count_handler, SA_RESTORER, 0), 0);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, &set, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(raw_tgkill(raw_getpid(), raw_gettid(), SIGUSR1), 0);
	yield_n(5);
	EXPECT_EQ(handled, 0);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_UNBLOCK, &set, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(handled, 1);          /* delivered before sigprocmask returned */
	install(SIGUSR1, SIG_DFL, 0, 0);
}

/* A handler sends its own signal to its thread again: blocked while it
 * runs, the second one is pending when rt_sigreturn lifts the mask, and
 * runs before the code the first one interrupted goes on. */
static void reraise_once_handler(int sig)
{
	if (++handled == 1)
		raw_tgkill(raw_getpid(), raw_gettid(), sig);
}

TEST(signal_raised_in_its_handler_runs_after_sigreturn)
{
	handled = 0;
	EXPECT_EQ(install(SIGUSR1, reraise_once_handler, SA_RESTORER, 0), 0);
	EXPECT_EQ(raw_tgkill(raw_getpid(), raw_gettid(), SIGUSR1), 0);
	EXPECT_EQ(handled, 2);
	install(SIGUSR1, SIG_DFL, 0, 0);
}

TEST(sigprocmask_how)
{
	unsigned long long a = SIGBIT(SIGUSR1) | SIGBIT(SIGUSR2), b = SIGBIT(SIGUSR2), m;

	EXPECT_EQ(raw_rt_sigprocmask(SIG_SETMASK, &a, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(blocked(), a);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_UNBLOCK, &b, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(blocked(), SIGBIT(SIGUSR1));
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, &b, &m, SIGSET_SIZE), 0);
	EXPECT_EQ(m, SIGBIT(SIGUSR1));
	EXPECT_EQ(blocked(), a);
	m = 0;
	EXPECT_EQ(raw_rt_sigprocmask(SIG_SETMASK, &m, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(blocked(), 0);
}

TEST(sigprocmask_errors)
{
	unsigned long long set = SIGBIT(SIGUSR1);

	EXPECT_EQ(raw_rt_sigprocmask(3, &set, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigprocmask(-1, &set, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, &set, NULL, 4), -EINVAL);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, &set, NULL, 16), -EINVAL);
	EXPECT_EQ(blocked(), 0);
}

TEST(sigkill_and_sigstop_cannot_be_blocked)
{
	unsigned long long all = ~0ull, zero = 0;

	EXPECT_EQ(raw_rt_sigprocmask(SIG_SETMASK, &all, NULL, SIGSET_SIZE), 0);
	unsigned long long m = blocked();
	raw_rt_sigprocmask(SIG_SETMASK, &zero, NULL, SIGSET_SIZE);
	EXPECT(!(m & (SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))),
	       "blocked mask %#llx includes SIGKILL or SIGSTOP", m);
	EXPECT(m == ~(SIGBIT(SIGKILL) | SIGBIT(SIGSTOP)),
	       "blocked mask %#llx, want every other signal", m);
}

TEST(sigkill_cannot_be_caught)
{
	struct k_sigaction act = { .handler = (void *)count_handler, .flags = SA_RESTORER,
				   .restorer = (void *)__restore_rt }, old;
	struct k_sigaction ign = { .handler = SIG_IGN };

	EXPECT_EQ(raw_rt_sigaction(SIGKILL, &act, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(SIGSTOP, &act, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(SIGKILL, &ign, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(SIGKILL, NULL, &old, SIGSET_SIZE), 0);
	EXPECT(old.handler == SIG_DFL, "SIGKILL's handler reads back as %p", old.handler);
}

TEST(sigaction_errors)
{
	struct k_sigaction act = { .handler = SIG_IGN };

	EXPECT_EQ(raw_rt_sigaction(0, &act, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(65, &act, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(-1, &act, NULL, SIGSET_SIZE), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &act, NULL, 4), -EINVAL);
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &act, NULL, 16), -EINVAL);
}

/* Linux's signals are 1.._NSIG, _NSIG = 64 (lib/abi.h's NSIG): 64 is the
 * last real-time signal, valid everywhere a signal number is. */
TEST(signal_64_is_valid)
{
	struct k_sigaction old, ign = { .handler = SIG_IGN };

	EXPECT_EQ(raw_rt_sigaction(64, NULL, &old, SIGSET_SIZE), 0);
	EXPECT_EQ(raw_rt_sigaction(64, &ign, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(raw_kill(raw_getpid(), 64), 0);       /* ignored */
	EXPECT_EQ(raw_rt_sigaction(64, &old, NULL, SIGSET_SIZE), 0);
}

TEST(sigaction_returns_the_old_action)
{
	struct k_sigaction old;

	EXPECT_EQ(install(SIGUSR2, count_handler, SA_RESTORER, SIGBIT(SIGTERM)), 0);
	EXPECT_EQ(install(SIGUSR2, mask_handler, SA_RESTORER, 0), 0);
	struct k_sigaction dfl = { .handler = SIG_DFL };
	EXPECT_EQ(raw_rt_sigaction(SIGUSR2, &dfl, &old, SIGSET_SIZE), 0);
	EXPECT(old.handler == (void *)mask_handler, "old handler %p, want %p", old.handler,
	       (void *)mask_handler);
	EXPECT(old.flags & SA_RESTORER, "old flags %#lx lost SA_RESTORER", old.flags);
	EXPECT(old.restorer == (void *)__restore_rt, "old restorer %p", old.restorer);
	EXPECT_EQ(raw_rt_sigaction(SIGUSR2, NULL, &old, SIGSET_SIZE), 0);
	EXPECT(old.handler == SIG_DFL, "handler %p after resetting to SIG_DFL", old.handler);
}

TEST(kill_errors)
{
	long pid = raw_fork();
	int st;

	if (pid == 0) {
		yield_n(10);
		raw_exit_group(0);
	}
	EXPECT_EQ(raw_kill(99999, SIGUSR1), -ESRCH);
	EXPECT_EQ(raw_kill(raw_getpid(), 65), -EINVAL);
	EXPECT_EQ(raw_kill(raw_getpid(), -1), -EINVAL);
	EXPECT_EQ(raw_kill(raw_getpid(), 0), 0);        /* existence check only */
	EXPECT_EQ(raw_kill(pid, 0), 0);
	EXPECT_EQ(raw_tgkill(raw_getpid(), 99999, SIGUSR1), -ESRCH);
	EXPECT_EQ(raw_tgkill(raw_getpid(), pid, SIGUSR1), -ESRCH);  /* not in our group */
	EXPECT_EQ(raw_tgkill(raw_getpid(), raw_gettid(), 65), -EINVAL);
	EXPECT_EQ(raw_tgkill(0, raw_gettid(), SIGUSR1), -EINVAL);
	EXPECT_EQ(raw_tgkill(raw_getpid(), 0, SIGUSR1), -EINVAL);
	EXPECT_EQ(raw_tgkill(-1, -1, SIGUSR1), -EINVAL);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
}

#endif
