/* user/tests/t_exec_race.c - execve in a thread racing another group
 * action (Linux's de_thread, kernel/exec.c): two threads that execve at
 * the same moment (one wins, the other is killed), and execve in a thread
 * against exit_group in the leader (either may win; the execve that loses
 * returns -EAGAIN and dies of the SIGKILL that exit_group sent). Each
 * round must end as one of the allowed outcomes, with no task left over,
 * and the kernel must neither panic nor hang. Booted as init. */
#define T_PROG "t_exec_race"
#include "t.h"
#include "t_exec.h"
#include "thr.h"

#define STACK 16384
#define ROUNDS 25
#define CODE 42                 /* the new program's exit status */
#define GROUP_CODE 43           /* the leader's exit_group */
#define DEADLINE_MS 10000

enum race { BOTH_EXEC, EXEC_VS_EXIT_GROUP };

/* MAP_SHARED, made before the forks. */
struct shared {
	volatile int go;
	int pid, ppid;
	long long delay_ns;             /* before the leader's exit_group */
};

static struct shared *sh;
static char stack[STACK] __attribute__((aligned(16)));
static char *const no_env[] = { NULL };

/* ---- the child process ---- */

static int do_exec(void)
{
	char pid[16], ppid[16], code[16];
	char *argv[] = { "t_exec_child", "leader", pid, ppid, code, NULL };

	snprintf(pid, sizeof(pid), "%d", sh->pid);
	snprintf(ppid, sizeof(ppid), "%d", sh->ppid);
	snprintf(code, sizeof(code), "%d", CODE);
	return 100 + (int)-raw_execve(EXEC_CHILD, argv, no_env);
}

static int thread_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	while (!sh->go)
		;
	raw_exit_group(do_exec());
	return 0;
}

static int run_child(enum race race)
{
	sh->pid = (int)raw_getpid();
	if (thr_clone(THR_THREAD_FLAGS, stack + STACK, NULL, NULL, thread_fn, NULL) < 0)
		return 80;
	sh->go = 1;
	if (race == BOTH_EXEC)
		return do_exec();
	/* Building the new program takes a while: from no delay (exit_group
	 * first) to a few ms (execve first), so that both orders happen. */
	for (long long end = thr_now_ns() + sh->delay_ns; thr_now_ns() < end;)
		;
	raw_exit_group(GROUP_CODE);
	return 81;
}

/* ---- the parent ---- */

/* Does /proc/tasks list tid running t_exec_child, asleep? */
static bool runs_new_program(int tid)
{
	const char *s = thr_procbuf;

	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return false;
	while ((s = strchr(s, '\n')) != NULL) {
		const char *line = ++s, *end = strchr(line, '\n');
		char state;
		if ((int)thr_num(&s) != tid)
			continue;
		thr_num(&s);            /* TGID */
		thr_num(&s);            /* PPID */
		while (*s == ' ')
			s++;
		state = *s;
		s = strstr(line, " t_exec_child ");
		return state == 'S' && s && (!end || s < end);
	}
	return false;
}

/* One race: the process's wait status (after SIGUSR1 to the new program
 * if it got that far: *execd), or -errno. */
static long one_round(enum race race, int i, bool *execd)
{
	long long end = thr_now_ns() + DEADLINE_MS * 1000000ll;
	int st = -1;
	long pid, r;

	*execd = false;
	sh->go = 0;
	sh->ppid = (int)raw_getpid();
	sh->delay_ns = (i % 25) * 200000ll;
	if ((pid = raw_fork()) == 0)
		raw_exit_group(run_child(race));
	if (pid < 0)
		return pid;
	while (thr_now_ns() < end) {
		if (runs_new_program((int)pid)) {
			*execd = true;
			raw_kill((int)pid, SIGUSR1);
			break;
		}
		if (raw_wait4((int)pid, &st, WNOHANG | __WALL, NULL) == pid)
			return st;
		raw_sched_yield();
	}
	if (!*execd)
		raw_kill((int)pid, SIGKILL);
	r = raw_wait4((int)pid, &st, __WALL, NULL);
	if (r != pid)
		return r < 0 ? r : -EINVAL;
	return *execd ? st : -ETIMEDOUT;
}

static void race_rounds(enum race race)
{
	struct thr_kstat k0, k1;
	int execd_count = 0;

	EXPECT_EQ(thr_kstat(&k0), 0);
	for (int i = 0; i < ROUNDS; i++) {
		bool execd;
		long st = one_round(race, i, &execd);
		execd_count += execd;
		if (execd) {
			EXPECT(st == EXITED(CODE), "round %d: the new program ended with %s", i,
			       t_status_str(st, t_b1_));
		} else {
			EXPECT(race == EXEC_VS_EXIT_GROUP && st == EXITED(GROUP_CODE),
			       "round %d: no new program, and the process ended with %s", i,
			       t_status_str(st, t_b1_));
			/* exit_group won: the thread, not detached, is a zombie
			 * of ours now (abi.md section 4: a child of its creator,
			 * the leader, which is gone), to be reaped with __WALL. */
			(void)raw_wait4(-1, NULL, WNOHANG | __WALL, NULL);
		}
		EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
	}
	EXPECT(race != BOTH_EXEC || execd_count == ROUNDS, "%d of %d rounds ran the program",
	       execd_count, ROUNDS);
	EXPECT_EQ(thr_kstat(&k1), 0);
	EXPECT(k1.tasks == k0.tasks, "/proc/kstat tasks %lu after, %lu before", k1.tasks,
	       k0.tasks);
}

TEST(two_threads_execve_at_once)
{
	race_rounds(BOTH_EXEC);
}

TEST(execve_against_exit_group)
{
	race_rounds(EXEC_VS_EXIT_GROUP);
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
	RUN(two_threads_execve_at_once);
	RUN(execve_against_exit_group);
	return t_exit_code();
}
