/* user/tests/t_fpu.c - every task keeps its own x87/SSE registers across
 * switches (abi.md section 10): threads and processes fill every x87 and
 * XMM register, the control word and MXCSR with values of their own
 * (fpregs.h) and check them after each of thousands of yields, sleeps
 * and migrations, alone and with other tasks around that never touch the
 * FPU; and the lazy-restore case where a task comes back to a CPU whose
 * registers still hold an older copy of its state (arch/i386/fpu.c,
 * make_live). Booted as init at -smp 1, 2, 4 and 8, in both switching
 * modes (tests/run.py adds fpu=lazy for the second). */
#define T_PROG "t_fpu"
#include "t.h"
#include "smp.h"
#include "fpregs.h"

#define FP_THREADS 6
#define NONFP_THREADS 4
#define ROUNDS 2000
#define STALE_ROUNDS 4000

struct worker {
	unsigned seed;
	int rounds;
	volatile int bad;               /* first failed round + 1, or 0 */
	char why[128];
	int moves;                      /* the CPU changed across a yield */
	struct smp_cpuset cpus;
};

static struct worker workers[FP_THREADS + 1];
static volatile int nonfp_stop;

/* One round: fill, give the CPU away (a yield; every 16th round a 1 ms
 * sleep, which lets idle CPUs pull the thread elsewhere), check. */
static void fp_rounds(struct worker *w)
{
	unsigned cpu = smp_cpu();

	smp_cpuset_add(&w->cpus, cpu);
	for (int k = 0; k < w->rounds && !w->bad; k++) {
		unsigned seed = w->seed + (unsigned)k;
		unsigned now;

		fp_fill(seed);
		if (k % 16 == 15)
			thr_sleep_ms(1);
		else
			raw_sched_yield();
		if (fp_check(seed, w->why, sizeof(w->why)))
			w->bad = k + 1;
		now = smp_cpu();
		if (now != cpu) {
			w->moves++;
			smp_cpuset_add(&w->cpus, now);
			cpu = now;
		}
	}
}

static int fp_thread(void *arg, const struct thr_regs *r)
{
	(void)r;
	fp_rounds(arg);
	return 0;
}

/* Never an FPU instruction: yields and short sleeps, so the FPU users
 * share CPUs (and registers) with tasks that have no FPU state. */
static int nonfp_thread(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	for (int k = 0; !nonfp_stop; k++) {
		if (k % 8 == 7)
			thr_sleep_ms(1);
		else
			raw_sched_yield();
	}
	return 0;
}

static void run_threads(bool with_nonfp)
{
	long tids[FP_THREADS + NONFP_THREADS];
	int n = 0, moves = 0;

	memset(workers, 0, sizeof(workers));
	nonfp_stop = 0;
	for (int i = 0; i <= FP_THREADS; i++) {
		workers[i].seed = 1000u * (unsigned)(i + 1) + (with_nonfp ? 500u : 0u);
		workers[i].rounds = ROUNDS;
	}
	if (with_nonfp)
		for (int i = 0; i < NONFP_THREADS; i++) {
			tids[n] = smp_start(n, nonfp_thread, NULL, NULL);
			EXPECT(tids[n] > 0, "clone: %ld", tids[n]);
			n++;
		}
	for (int i = 0; i < FP_THREADS; i++) {
		tids[n] = smp_start(n, fp_thread, &workers[i], NULL);
		EXPECT(tids[n] > 0, "clone: %ld", tids[n]);
		n++;
	}
	fp_rounds(&workers[FP_THREADS]);        /* the main thread is one too */
	for (int i = with_nonfp ? NONFP_THREADS : 0; i < n; i++)
		EXPECT_STATUS(smp_join(tids[i]), 0);
	nonfp_stop = 1;
	for (int i = 0; i < (with_nonfp ? NONFP_THREADS : 0); i++)
		EXPECT_STATUS(smp_join(tids[i]), 0);
	for (int i = 0; i <= FP_THREADS; i++) {
		EXPECT(!workers[i].bad, "thread %d, round %d: %s", i, workers[i].bad - 1,
		       workers[i].why);
		moves += workers[i].moves;
	}
	printf("t_fpu: %d FPU threads x %d rounds%s, %d CPU changes\n", FP_THREADS + 1,
	       ROUNDS, with_nonfp ? " among 4 non-FPU threads" : "", moves);
}

TEST(threads_keep_registers)
{
	run_threads(false);
}

TEST(threads_keep_registers_among_nonfpu_tasks)
{
	run_threads(true);
}

/* Two processes (separate address spaces: a CR3 switch too) and the
 * parent, each with its own values. */
static int process_rounds(long seed)
{
	struct worker *w = &workers[0];

	memset(w, 0, sizeof(*w));
	w->seed = (unsigned)seed;
	w->rounds = ROUNDS;
	fp_rounds(w);
	if (w->bad)
		printf("t_fpu: process seed %ld round %d: %s\n", seed, w->bad - 1, w->why);
	return w->bad ? 1 : 0;
}

TEST(processes_keep_registers)
{
	long pid[2];
	int st;

	for (int i = 0; i < 2; i++) {
		pid[i] = raw_fork();
		EXPECT(pid[i] >= 0, "fork: %ld", pid[i]);
		if (pid[i] == 0)
			raw_exit_group(process_rounds(70000 + 10000 * i));
	}
	EXPECT_EQ(process_rounds(90000), 0);
	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(raw_wait4(pid[i], &st, 0, NULL), pid[i]);
		EXPECT_STATUS(st, EXITED(0));
	}
}

/* ---- stale_copy_after_migration ----
 *
 * One FPU thread among threads that never use the FPU, so that when it
 * leaves a CPU nobody else loads that CPU's registers: they keep its
 * state of that moment. It loads new values whenever it finds itself on
 * another CPU; coming back to a CPU it left, it must see its newest
 * values, not the ones that CPU's registers still hold. A lazy restore
 * that trusted "the registers here are mine" without checking where the
 * task ran since (fpu.c make_live's last_cpu half) fails here. The
 * main thread only waits: it must not have used the FPU yet (main). */
static struct worker stale;
static int stale_returns;               /* came back to a CPU holding older values */

static int stale_thread(void *arg, const struct thr_regs *r)
{
	struct worker *w = arg;
	unsigned cpu = smp_cpu(), seed = w->seed;
	unsigned base[SMP_MAX_CPUS] = { 0 };    /* CPU base ... */
	unsigned left[SMP_MAX_CPUS] = { 0 };    /* ... and the seed we left there */
	int nb = 0;

	(void)r;
	fp_fill(seed);
	for (int k = 0; k < w->rounds && !w->bad; k++) {
		unsigned now;

		if (k % 4 == 3)
			thr_sleep_ms(1);
		else
			raw_sched_yield();
		if (fp_check(seed, w->why, sizeof(w->why))) {
			w->bad = k + 1;
			break;
		}
		now = smp_cpu();
		if (now == cpu)
			continue;
		w->moves++;
		/* note what `cpu` was left holding, and whether `now` holds
		 * something older than seed */
		for (int i = 0; i <= nb && i < SMP_MAX_CPUS; i++) {
			if (i == nb) {
				if (nb < SMP_MAX_CPUS)
					base[nb++] = cpu;
				left[i] = seed;
				break;
			}
			if (base[i] == cpu) {
				left[i] = seed;
				break;
			}
		}
		for (int i = 0; i < nb; i++)
			if (base[i] == now && left[i] != seed)
				stale_returns++;
		cpu = now;
		fp_fill(++seed);                /* new values on the new CPU */
	}
	return 0;
}

TEST(stale_copy_after_migration)
{
	long tids[1 + NONFP_THREADS];
	int ncpus = smp_ncpus();

	memset(&stale, 0, sizeof(stale));
	stale.seed = 5000;
	stale.rounds = STALE_ROUNDS;
	nonfp_stop = 0;
	for (int i = 0; i < NONFP_THREADS; i++) {
		tids[i] = smp_start(i, nonfp_thread, NULL, NULL);
		EXPECT(tids[i] > 0, "clone: %ld", tids[i]);
	}
	tids[NONFP_THREADS] = smp_start(NONFP_THREADS, stale_thread, &stale, NULL);
	EXPECT(tids[NONFP_THREADS] > 0, "clone: %ld", tids[NONFP_THREADS]);
	EXPECT_STATUS(smp_join(tids[NONFP_THREADS]), 0);
	nonfp_stop = 1;
	for (int i = 0; i < NONFP_THREADS; i++)
		EXPECT_STATUS(smp_join(tids[i]), 0);
	EXPECT(!stale.bad, "round %d: %s", stale.bad - 1, stale.why);
	printf("t_fpu: %d CPUs, %d moves, %d returns to a CPU holding an older copy\n",
	       ncpus, stale.moves, stale_returns);
	/* On 2+ CPUs the case must really have happened to prove anything. */
	if (ncpus >= 2)
		EXPECT(stale_returns > 0, "no return to a CPU holding an older copy in %d moves",
		       stale.moves);
}

int main(void)
{
	/* First, while the main thread (which waits for the others) has
	 * never used the FPU: in eager mode every switch to a task with FPU
	 * state loads that state, and so would overwrite the registers
	 * this case needs left alone. */
	RUN(stale_copy_after_migration);
	RUN(threads_keep_registers);
	RUN(threads_keep_registers_among_nonfpu_tasks);
	RUN(processes_keep_registers);
	return t_exit_code();
}
