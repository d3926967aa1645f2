/* user/tests/t_fpu_pinned - the classic lazy-FPU bug, made to happen on
 * purpose (abi.md section 10; arch/i386/fpu.h, "last_cpu").
 *
 * A task that leaves CPU A keeps a copy of its registers in A's FPU. If it
 * changes them on CPU B and then comes back to A, a kernel that trusts
 * "A still holds my state" restores (or skips restoring) the stale copy.
 * t_fpu waits for the scheduler to produce that; here sched_setaffinity
 * produces it every round: pin to A, fill, pin to B (a migration), check
 * and fill new values, pin back to A, check. Nobody else uses the FPU, so
 * A's registers really do still hold the older values each time. A second
 * case swaps two FPU threads between two CPUs, so each CPU's registers
 * hold the other thread's state when it arrives. Run in both switching
 * modes (tests/run.py: fpu=lazy for t_fpu*). */
#define T_PROG "t_fpu_pinned"
#include "t.h"
#include "smp.h"
#include "fpregs.h"
#include "sched.h"

#define ROUNDS 300

static int ncpus;

static long pin(unsigned cpu)
{
	unsigned mask = 1u << cpu;

	return raw_sched_setaffinity(0, sizeof(mask), &mask);
}

TEST(back_to_a_cpu_holding_an_older_copy)
{
	char why[128];
	unsigned seed = 7000;

	if (ncpus < 2) {
		printf("t_fpu_pinned: one CPU: no migration to make\n");
		return;
	}
	EXPECT_EQ(pin(0), 0);
	fp_fill(seed);
	for (int r = 0; r < ROUNDS; r++) {
		unsigned b = 1 + (unsigned)r % (unsigned)(ncpus - 1);
		EXPECT_EQ(pin(b), 0);                   /* migrate to B */
		EXPECT(!fp_check(seed, why, sizeof(why)), "round %d, on cpu%u: %s", r, b, why);
		fp_fill(++seed);                        /* cpu0 holds older values now */
		raw_sched_yield();
		EXPECT_EQ(pin(0), 0);                   /* back to cpu0 */
		EXPECT(!fp_check(seed, why, sizeof(why)), "round %d, back on cpu0: %s", r, why);
		fp_fill(++seed);
	}
	unsigned all = (1u << ncpus) - 1;
	EXPECT_EQ(raw_sched_setaffinity(0, sizeof(all), &all), 0);
}

/* ---- two FPU threads trading CPUs ---- */

static volatile int turn;               /* whose move it is: 0 or 1 */
static volatile int bad_round[2];
static char bad_why[2][128];

static int trader(void *arg, const struct thr_regs *r)
{
	int me = (int)(long)arg;
	unsigned seed = 9000 + 100000u * (unsigned)me;

	(void)r;
	pin((unsigned)me);
	fp_fill(seed);
	for (int k = 0; k < ROUNDS; k++) {
		while (turn != me)
			raw_sched_yield();
		/* Go to the other CPU, where the other thread's state was. */
		pin((unsigned)(((k + me) & 1) ^ 1));
		if (fp_check(seed, bad_why[me], sizeof(bad_why[me])) && !bad_round[me])
			bad_round[me] = k + 1;
		fp_fill(++seed);
		turn = !me;
	}
	return 0;
}

TEST(two_threads_trading_cpus)
{
	long t0, t1;

	if (ncpus < 2) {
		printf("t_fpu_pinned: one CPU: nothing to trade\n");
		return;
	}
	turn = 0;
	t0 = smp_start(0, trader, (void *)0, NULL);
	t1 = smp_start(1, trader, (void *)1, NULL);
	EXPECT(t0 > 0 && t1 > 0, "clone: %ld %ld", t0, t1);
	EXPECT_STATUS(smp_join(t0), 0);
	EXPECT_STATUS(smp_join(t1), 0);
	EXPECT(!bad_round[0], "thread 0, move %d: %s", bad_round[0] - 1, bad_why[0]);
	EXPECT(!bad_round[1], "thread 1, move %d: %s", bad_round[1] - 1, bad_why[1]);
}

int main(void)
{
	ncpus = smp_ncpus();
	RUN(back_to_a_cpu_holding_an_older_copy);
	RUN(two_threads_trading_cpus);
	return t_exit_code();
}
