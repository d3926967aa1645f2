/* user/tests/t_exec_storm.c - a group leader and three threads calling
 * execve at once, ROUNDS times (issue 11, item 3). Exactly one execve
 * wins (de_thread, kernel/exec.c); the others return -EAGAIN or -EINTR and die of
 * its SIGKILL; the process must then run the new program, which exits
 * with CODE. The third thread is cloned while the first two are already
 * in execve, at a delay that changes every round: a clone that lands
 * after the winner has told the group to die must fail, or the new
 * thread becomes a second winner and the two wait for each other
 * forever (the bug: the leader a zombie, two threads in D, SIGKILL
 * ignored, wait4 never returning). A round that does not end within
 * DEADLINE_MS fails, and the leftover tasks are listed. Booted as init. */
#define T_PROG "t_exec_storm"
#include "t.h"
#include "t_exec.h"
#include "thr.h"

#define STACK 8192
#define NTHREADS 3
#define ROUNDS 1000
#define CODE 42
#define DEADLINE_MS 10000

/* MAP_SHARED, made before the forks. */
struct shared {
	volatile int go;
	long long delay_ns;
};

static struct shared *sh;
static char stacks[NTHREADS][STACK] __attribute__((aligned(16)));
static char *const no_env[] = { NULL };

static void do_exec(void)
{
	char *argv[] = { "t_exec_child", "exit", THR_STR(CODE), NULL };

	raw_execve(EXEC_CHILD, argv, no_env);
	/* Lost to another thread's execve: its SIGKILL ends us. */
}

static int spin_then_exec(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	while (!sh->go)
		;
	do_exec();
	return 0;
}

static int exec_at_once(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	do_exec();
	return 0;
}

/* The process of one round: two threads wait for go, the third is
 * cloned delay_ns after it, and the leader execs last. */
static int run_child(void)
{
	for (int i = 0; i < NTHREADS - 1; i++)
		if (thr_clone(THR_THREAD_FLAGS, stacks[i] + STACK, NULL, NULL,
			      spin_then_exec, NULL) < 0)
			return 80;
	sh->go = 1;
	for (long long end = thr_now_ns() + sh->delay_ns; thr_now_ns() < end;)
		;
	/* May fail (-EINTR) once an execve has won: then we are dying. */
	(void)thr_clone(THR_THREAD_FLAGS, stacks[NTHREADS - 1] + STACK, NULL, NULL,
			exec_at_once, NULL);
	do_exec();
	return 81;
}

/* One round's wait status, or -ETIMEDOUT (the tasks are listed). */
static long one_round(int i)
{
	long long end = thr_now_ns() + DEADLINE_MS * 1000000ll;
	int st = -1;
	long pid, r;

	sh->go = 0;
	sh->delay_ns = (i % 25) * 8000ll;
	if ((pid = raw_fork()) == 0)
		raw_exit_group(run_child());
	if (pid < 0)
		return pid;
	while ((r = raw_wait4((int)pid, &st, WNOHANG | __WALL, NULL)) == 0) {
		if (thr_now_ns() > end) {
			if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) > 0)
				printf("t_exec_storm: round %d stuck:\n%s", i, thr_procbuf);
			raw_kill((int)pid, SIGKILL);
			return -ETIMEDOUT;
		}
		raw_sched_yield();
	}
	return r == pid ? st : (r < 0 ? r : -EINVAL);
}

TEST(leader_and_three_threads_execve)
{
	struct thr_kstat k0, k1;

	EXPECT_EQ(thr_kstat(&k0), 0);
	for (int i = 0; i < ROUNDS; i++) {
		long st = one_round(i);
		EXPECT(st == EXITED(CODE), "round %d: the process ended with %s", i,
		       t_status_str(st, t_b1_));
		EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
	}
	EXPECT_EQ(thr_kstat(&k1), 0);
	EXPECT(k1.tasks == k0.tasks, "/proc/kstat tasks %lu after, %lu before", k1.tasks,
	       k0.tasks);
}

int main(void)
{
	long r = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(r)) {
		printf("FAIL %s.setup: mmap2 MAP_SHARED: %ld\n", T_PROG, r);
		return 1;
	}
	sh = (struct shared *)r;
	RUN(leader_and_three_threads_execve);
	return t_exit_code();
}
