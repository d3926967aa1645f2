/* user/tests/t_fork.c - fork, exit, wait4/waitpid and process ids
 * (abi.md sections 3 and 4): wait statuses, WNOHANG, -ECHILD, reaping,
 * reparenting to pid 1, copy-on-write after fork. Booted as init. */
#define T_PROG "t_fork"
#include "t.h"

/* Gives other processes a chance to run. */
static void yield_n(int n)
{
	while (n-- > 0)
		raw_sched_yield();
}

TEST(init_ids)
{
	EXPECT_EQ(raw_getpid(), 1);
	EXPECT_EQ(raw_getppid(), 0);            /* as Linux's init */
	EXPECT_EQ(raw_gettid(), 1);
}

TEST(exit_status)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		raw_exit_group(7);
	EXPECT(pid > 1, "fork returned %ld", pid);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(7));
}

static int exit_with(long code)
{
	return (int)code;
}

TEST(exit_code_masked)
{
	EXPECT_STATUS(child_status(exit_with, 0x1234), 0x3400);
	EXPECT_STATUS(child_status(exit_with, -1), 0xff00);
	EXPECT_STATUS(child_status(exit_with, 256), EXITED(0));
}

/* SYS_exit ends only the calling task, but a process of one task ends with it. */
TEST(exit_syscall_ends_process)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0) {
		raw_exit(5);
		raw_exit_group(99);             /* exit returned */
	}
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(5));
}

TEST(waitpid_status)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		raw_exit_group(0x42);
	EXPECT_EQ(raw_waitpid(pid, &st, 0), pid);
	EXPECT_STATUS(st, EXITED(0x42));
}

TEST(waitpid_any_reaps_each_child_once)
{
	long a = raw_fork();
	if (a == 0)
		raw_exit_group(3);
	long b = raw_fork();
	if (b == 0)
		raw_exit_group(4);
	EXPECT(a > 0 && b > 0 && a != b, "fork returned %ld and %ld", a, b);

	int st1 = -1, st2 = -1;
	long r1 = raw_waitpid(-1, &st1, 0);
	long r2 = raw_waitpid(-1, &st2, 0);
	EXPECT((r1 == a && r2 == b) || (r1 == b && r2 == a),
	       "waitpid(-1) returned %ld then %ld, want %ld and %ld", r1, r2, a, b);
	EXPECT_STATUS(st1, EXITED(r1 == a ? 3 : 4));
	EXPECT_STATUS(st2, EXITED(r2 == a ? 3 : 4));
	EXPECT_EQ(raw_waitpid(-1, &st1, 0), -ECHILD);
}

TEST(wait_without_children_is_echild)
{
	int st = 0x5a5a;

	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(-1, &st, WNOHANG, NULL), -ECHILD);
	EXPECT_EQ(raw_waitpid(-1, &st, 0), -ECHILD);
	EXPECT_EQ(raw_wait4(-1, NULL, 0, NULL), -ECHILD);
	EXPECT_EQ(st, 0x5a5a);
}

TEST(wait_for_a_non_child_is_echild)
{
	int st;
	long pid = raw_fork();

	if (pid == 0) {
		yield_n(20);
		raw_exit_group(0);
	}
	/* With a child alive: none of these names it. */
	long r1 = raw_wait4(99999, &st, 0, NULL);
	long r2 = raw_wait4(1, &st, 0, NULL);                   /* ourselves */
	long r3 = raw_waitpid(pid + 1000, &st, WNOHANG);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(r1, -ECHILD);
	EXPECT_EQ(r2, -ECHILD);
	EXPECT_EQ(r3, -ECHILD);
}

TEST(wait_bad_options_is_einval)
{
	int st;

	EXPECT_EQ(raw_wait4(-1, &st, 0x100, NULL), -EINVAL);
	EXPECT_EQ(raw_waitpid(-1, &st, 0x100), -EINVAL);
}

TEST(wnohang_with_a_running_child_returns_0)
{
	int st = 0x5a5a;
	long pid = raw_fork();

	if (pid == 0)
		for (;;)
			raw_sched_yield();
	EXPECT(pid > 0, "fork: %ld", pid);
	long r = raw_wait4(pid, &st, WNOHANG, NULL);
	long r2 = raw_waitpid(-1, &st, WNOHANG);
	raw_kill(pid, SIGKILL);
	long r3 = raw_wait4(pid, &st, 0, NULL);
	EXPECT_EQ(r, 0);
	EXPECT_EQ(r2, 0);
	EXPECT_EQ(r3, pid);
	EXPECT_STATUS(st, KILLED(SIGKILL));
}

TEST(wnohang_reaps_a_zombie)
{
	int st = -1;
	long r = 0, pid = raw_fork();

	if (pid == 0)
		raw_exit_group(9);
	for (int i = 0; i < 100000 && r == 0; i++) {
		r = raw_wait4(pid, &st, WNOHANG, NULL);
		if (r == 0)
			raw_sched_yield();
	}
	EXPECT_EQ(r, pid);
	EXPECT_STATUS(st, EXITED(9));
}

/* wait4 for a given pid returns that child even when another one is
 * already a zombie. */
TEST(wait_for_a_specific_pid)
{
	int st = -1;
	long a = raw_fork();
	if (a == 0)
		raw_exit_group(1);
	long b = raw_fork();
	if (b == 0) {
		yield_n(200);
		raw_exit_group(2);
	}
	yield_n(50);                            /* let a become a zombie */
	EXPECT_EQ(raw_wait4(b, &st, 0, NULL), b);
	EXPECT_STATUS(st, EXITED(2));
	EXPECT_EQ(raw_wait4(a, &st, 0, NULL), a);
	EXPECT_STATUS(st, EXITED(1));
}

TEST(a_reaped_child_cannot_be_waited_again)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		raw_exit_group(0);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(pid, &st, WNOHANG, NULL), -ECHILD);
	EXPECT_EQ(raw_waitpid(pid, &st, 0), -ECHILD);
}

/* The child forks a grandchild and exits; the grandchild must see its
 * parent become pid 1 (us), and we must reap it. */
TEST(orphans_are_reparented_to_init)
{
	int st = -1;
	long child = raw_fork();

	if (child == 0) {
		long gc = raw_fork();
		if (gc < 0)
			raw_exit_group(100);
		if (gc == 0) {
			long ppid = raw_getppid();
			for (int i = 0; i < 1000000 && ppid != 1; i++) {
				raw_sched_yield();
				ppid = raw_getppid();
			}
			raw_exit_group(ppid == 1 ? 0 : 1);
		}
		raw_exit_group(0);
	}
	EXPECT_EQ(raw_wait4(child, &st, 0, NULL), child);
	EXPECT_STATUS(st, EXITED(0));
	long gc = raw_wait4(-1, &st, 0, NULL);
	EXPECT(gc > 0 && gc != child, "wait4(-1) for the grandchild returned %s",
	       t_val(gc, t_b1_));
	EXPECT(st != EXITED(1), "the grandchild's getppid() never became 1");
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(raw_wait4(-1, &st, WNOHANG, NULL), -ECHILD);
}

/* The child's own view of its ids: exits with its pid's low 7 bits, and
 * bit 7 set if getppid or gettid were wrong. */
static int report_ids(long unused)
{
	(void)unused;
	long pid = raw_getpid();
	bool bad = raw_getppid() != 1 || raw_gettid() != pid || pid == 1;
	return (int)(pid & 0x7f) | (bad ? 0x80 : 0);
}

TEST(child_ids)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		raw_exit_group(report_ids(0));
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT(!(st & 0x8000), "child: getppid() != 1 or gettid() != getpid()");
	EXPECT_STATUS(st, EXITED(pid & 0x7f));
}

/* ---- copy-on-write ---- */
static volatile int cow_data = 100;                     /* .data */
static volatile int cow_bss[3 * 1024];                  /* .bss, 3 pages */

TEST(copy_on_write_isolation)
{
	volatile int on_stack = 200;
	int st = -1;

	cow_bss[0] = cow_bss[2048] = 300;
	long pid = raw_fork();
	if (pid == 0) {
		int bad = 0;
		if (cow_data != 100 || on_stack != 200 || cow_bss[2048] != 300)
			bad |= 1;                       /* did not inherit */
		cow_data = 101;
		on_stack = 201;
		cow_bss[0] = cow_bss[2048] = 301;
		yield_n(100);                   /* the parent writes meanwhile */
		if (cow_data != 101 || on_stack != 201 || cow_bss[0] != 301 ||
		    cow_bss[2048] != 301)
			bad |= 2;                       /* saw the parent's writes */
		raw_exit_group(bad);
	}
	cow_data = 102;
	on_stack = 202;
	cow_bss[0] = 302;
	long r = raw_wait4(pid, &st, 0, NULL);
	EXPECT_EQ(r, pid);
	EXPECT(st != EXITED(1), "the child did not see the values from before fork");
	EXPECT(st != EXITED(2), "the child saw the parent's writes");
	EXPECT_STATUS(st, EXITED(0));
	EXPECT(cow_data == 102 && on_stack == 202 && cow_bss[0] == 302,
	       "the parent's values changed: %d %d %d", cow_data, on_stack, cow_bss[0]);
	EXPECT(cow_bss[2048] == 300, "the child's write reached the parent: %d",
	       cow_bss[2048]);
}

TEST(nested_fork)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0) {
		int gst = -1;
		long gc = raw_fork();
		if (gc == 0)
			raw_exit_group(21);
		if (gc < 0 || raw_wait4(gc, &gst, 0, NULL) != gc)
			raw_exit_group(100);
		raw_exit_group(WEXITSTATUS(gst) + 1);
	}
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(22));
}

#define MANY 20
TEST(many_children_at_once)
{
	long pids[MANY];
	bool seen[MANY] = { false };
	int st;

	for (int i = 0; i < MANY; i++) {
		pids[i] = raw_fork();
		if (pids[i] == 0) {
			yield_n(MANY - i);
			raw_exit_group(i);
		}
		EXPECT(pids[i] > 0, "fork #%d: %s", i, t_val(pids[i], t_b1_));
	}
	for (int n = 0; n < MANY; n++) {
		long r = raw_wait4(-1, &st, 0, NULL);
		int i = WEXITSTATUS(st);
		EXPECT(r > 0, "wait4 #%d: %s", n, t_val(r, t_b1_));
		EXPECT(WIFEXITED(st) && i < MANY && pids[i] == r && !seen[i],
		       "wait4 returned %ld with status %#x", r, st);
		seen[i] = true;
	}
	EXPECT_EQ(raw_wait4(-1, &st, WNOHANG, NULL), -ECHILD);
}

TEST(fork_exit_wait_1000_times)
{
	for (int i = 0; i < 1000; i++) {
		int st = -1;
		long pid = raw_fork();
		if (pid == 0)
			raw_exit_group(i & 0xff);
		EXPECT(pid > 0, "fork #%d: %s", i, t_val(pid, t_b1_));
		long r = raw_wait4(pid, &st, 0, NULL);
		EXPECT(r == pid && st == EXITED(i & 0xff),
		       "round %d: wait4 = %ld, status %#x, want %ld, %#x",
		       i, r, st, pid, EXITED(i & 0xff));
	}
}

int main(void)
{
	RUN(init_ids);
	RUN(exit_status);
	RUN(exit_code_masked);
	RUN(exit_syscall_ends_process);
	RUN(waitpid_status);
	RUN(waitpid_any_reaps_each_child_once);
	RUN(wait_without_children_is_echild);
	RUN(wait_for_a_non_child_is_echild);
	RUN(wait_bad_options_is_einval);
	RUN(wnohang_with_a_running_child_returns_0);
	RUN(wnohang_reaps_a_zombie);
	RUN(wait_for_a_specific_pid);
	RUN(a_reaped_child_cannot_be_waited_again);
	RUN(orphans_are_reparented_to_init);
	RUN(child_ids);
	RUN(copy_on_write_isolation);
	RUN(nested_fork);
	RUN(many_children_at_once);
	RUN(fork_exit_wait_1000_times);
	return t_exit_code();
}
