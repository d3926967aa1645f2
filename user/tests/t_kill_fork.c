/* user/tests/t_kill_fork.c - kill(-1, SIGKILL) against processes that
 * are forking at that moment: no child may escape the kill. A child is
 * in the task list a moment before it is its parent's child (kernel/
 * fork.c, do_clone); a SIGKILL for the parent sent in that moment used
 * to leave the new child alive, an orphan nobody had killed (found by
 * the fuzzer, seed 3 at -smp 4: user/tests/t_fuzz_seeds.h). Like Linux's
 * copy_process, clone now gives the child up when the parent has a
 * fatal signal pending. Booted as init, at -smp 2, 4 and 8 (tests/run.py). */
#define T_PROG "t_kill_fork"
#include "t.h"
#include "thr.h"

#define ROUNDS 100
#define FORKERS 3
#define KIDS 12                 /* each forker's spinning children */

/* Forks spinning children as fast as it can, until KIDS are alive. */
static void forker(void)
{
	for (int n = 0; n < KIDS;) {
		long c = raw_fork();
		if (c == 0)
			thr_spin_forever();
		if (c > 0)
			n++;
	}
	thr_spin_forever();
}

/* Until only pid 1 is left (up to ms): true if so. */
static bool all_gone(const struct thr_kstat *k0, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;
	struct thr_kstat k;

	for (;;) {
		raw_kill(-1, SIGKILL);
		while (raw_wait4(-1, NULL, WNOHANG | __WALL, NULL) > 0)
			;
		if (thr_kstat(&k) == 0 && k.tasks <= k0->tasks)
			return true;
		if (thr_now_ns() > end)
			return false;
		thr_sleep_ms(5);
	}
}

TEST(kill_all_reaches_children_being_forked)
{
	struct thr_kstat k0, k;
	int escaped = 0, rounds = 0;

	EXPECT_EQ(thr_kstat(&k0), 0);
	for (; rounds < ROUNDS && !escaped; rounds++) {
		for (int f = 0; f < FORKERS; f++)
			if (raw_fork() == 0)
				forker();
		for (int spin = 0; spin < (rounds % 7) * 50; spin++)
			raw_sched_yield();
		raw_kill(-1, SIGKILL);
		/* One kill only: whatever survives it escaped. */
		long long end = thr_now_ns() + 2000000000ll;
		while (thr_now_ns() < end) {
			while (raw_wait4(-1, NULL, WNOHANG | __WALL, NULL) > 0)
				;
			if (thr_kstat(&k) == 0 && k.tasks <= k0.tasks)
				break;
			thr_sleep_ms(2);
		}
		if (thr_kstat(&k) == 0 && k.tasks > k0.tasks)
			escaped = (int)(k.tasks - k0.tasks);
		if (!all_gone(&k0, 5000))
			FAIL("round %d: tasks left after SIGKILL for 5 s", rounds);
	}
	EXPECT(!escaped, "round %d: %d task(s) outlived kill(-1, SIGKILL)", rounds, escaped);
}

int main(void)
{
	RUN(kill_all_reaches_children_being_forked);
	return t_exit_code();
}
