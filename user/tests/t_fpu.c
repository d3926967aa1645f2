/* user/tests/t_fpu.c - every task keeps its own x87/SSE registers across
 * switches (abi.md section 10): threads and processes fill every x87 and
 * XMM register, the control word and MXCSR with values of their own
 * (fpregs.h) and check them after each of thousands of yields, sleeps
 * and migrations, alone and with other tasks around that never touch the
 * FPU; and the lazy-restore case where a task comes back to a CPU whose
 * registers still hold an older copy of its state (arch/i386/fpu.c,
 * make_live); and the state's area exists only for tasks that used the
 * FPU, until they exit (or, parked in the task cache, until the task is
 * freed or reused). Booted as init at -smp 1, 2, 4 and 8, in both
 * switching modes (tests/run.py adds fpu=lazy for the second). */
#define T_PROG "t_fpu"
#include "t.h"
#include "smp.h"
#include "fpregs.h"

#define FP_THREADS 6
#define NONFP_THREADS 4
#define ROUNDS 2000
#define STALE_ROUNDS 1000000   /* at most; it stops after STALE_WANT returns */
#define STALE_WANT 10
#define STALE_MS 8000           /* or after this long */

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

	long long end = thr_now_ns() + STALE_MS * 1000000ll;

	(void)r;
	fp_fill(seed);
	for (int k = 0; k < w->rounds && !w->bad && stale_returns < STALE_WANT &&
	     thr_now_ns() < end; k++) {
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

/* More helpers than CPUs (which never use the FPU), yielding and napping,
 * and the FPU thread napping too: CPUs go idle and pull queued tasks
 * from busy ones (kernel/sched.c sched_balance), the FPU thread among
 * them, so it wanders between CPUs and comes back to ones it left. */
TEST(stale_copy_after_migration)
{
	long tids[SMP_MAX_THREADS];
	int ncpus = smp_ncpus();
	int nhelpers = ncpus + 2 < SMP_MAX_THREADS - 1 ? ncpus + 2 : SMP_MAX_THREADS - 1;

	memset(&stale, 0, sizeof(stale));
	stale.seed = 5000;
	stale.rounds = STALE_ROUNDS;
	nonfp_stop = 0;
	for (int i = 0; i < nhelpers; i++) {
		tids[i] = smp_start(i, nonfp_thread, NULL, NULL);
		EXPECT(tids[i] > 0, "clone: %ld", tids[i]);
	}
	tids[nhelpers] = smp_start(nhelpers, stale_thread, &stale, NULL);
	EXPECT(tids[nhelpers] > 0, "clone: %ld", tids[nhelpers]);
	EXPECT_STATUS(smp_join(tids[nhelpers]), 0);
	nonfp_stop = 1;
	for (int i = 0; i < nhelpers; i++)
		EXPECT_STATUS(smp_join(tids[i]), 0);
	EXPECT(!stale.bad, "round %d: %s", stale.bad - 1, stale.why);
	printf("t_fpu: %d CPUs, %d helpers, %d moves, %d returns to a CPU holding an older copy\n",
	       ncpus, nhelpers, stale.moves, stale_returns);
	/* Whether the scheduler produced the case here depends on the
	 * host's load; t_fpu_pinned produces it every time, with
	 * sched_setaffinity, so this run is the free-running companion. */
}

/* ---- areas_only_for_fpu_users ----
 *
 * /proc/kstat's "cache fpu inuse N": a task gets its 512-byte area at its
 * first FPU instruction, not before, and gives it back when it exits. */
static long fpu_areas(void)
{
	struct thr_kstat k;

	if (thr_kstat(&k) < 0)
		return -1;
	for (int i = 0; i < k.ncaches; i++)
		if (!strcmp(k.cache[i].name, "fpu"))
			return (long)k.cache[i].inuse;
	return -1;
}

static long sleeping_child(bool fpu)
{
	long pid = raw_fork();

	if (pid == 0) {
		if (fpu)
			fp_fill(4);
		thr_sleep_ms(5000);             /* until killed */
		raw_exit_group(0);
	}
	if (pid > 0 && !thr_wait_sleeping((int)pid, 5000))
		return -ETIMEDOUT;
	return pid;
}

static int fpu_thread_exits(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	fp_fill(5);
	return 0;
}

TEST(areas_only_for_fpu_users)
{
	long base = fpu_areas(), plain, user, tid;
	int st;

	EXPECT(base >= 0, "no 'cache fpu' line in /proc/kstat");
	plain = sleeping_child(false);
	EXPECT(plain > 0, "fork: %ld", plain);
	EXPECT_EQ(fpu_areas(), base);           /* a task that never used it */
	user = sleeping_child(true);
	EXPECT(user > 0, "fork: %ld", user);
	EXPECT_EQ(fpu_areas(), base + 1);
	raw_kill((int)plain, SIGKILL);
	raw_kill((int)user, SIGKILL);
	EXPECT_EQ(raw_wait4(plain, &st, 0, NULL), plain);
	EXPECT_EQ(raw_wait4(user, &st, 0, NULL), user);
	EXPECT_EQ(fpu_areas(), base);           /* exit gave it back */
	tid = smp_start(0, fpu_thread_exits, NULL, NULL);
	EXPECT(tid > 0, "clone: %ld", tid);
	EXPECT_STATUS(smp_join(tid), 0);
	EXPECT_EQ(fpu_areas(), base);
}

/* ---- parked_task_keeps_its_area ----
 *
 * A detached thread parks its task in the task cache when it exits, and
 * an FPU user's area stays with it (arch/i386/fpu.h fpu_exit): the next
 * clone takes both back, and the area goes only when the parked task is
 * freed - by the next task that parks on that CPU. Everything runs on
 * CPU 0, whose cache slot the test then has to itself. */
static int fpu_detached_fn(void *arg, const struct thr_regs *r)
{
	(void)r;
	if (arg)
		fp_fill(6);
	return 0;
}

/* A detached thread on pool stack 0, with or without an FPU
 * instruction, gone (its RELEASE_VM word cleared) when this returns
 * true. */
static bool detached_thread(bool fpu)
{
	volatile int *word = (volatile int *)(smp_stacks[0] + SMP_STACK) - 1;
	long tid;

	*word = 1;
	tid = thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED | CLONE_RELEASE_VM,
			smp_stacks[0] + SMP_STACK, NULL, NULL, fpu_detached_fn,
			fpu ? (void *)1 : NULL);
	return tid > 0 && thr_wait_word(word, 0, 5000);
}

/* The number of areas once it reaches want (the thread parks a moment
 * after its RELEASE_VM word is cleared), or the last count after 2 s. */
static long fpu_areas_become(long want)
{
	long long end = thr_now_ns() + 2000000000ll;
	long n;

	while ((n = fpu_areas()) != want && thr_now_ns() < end)
		raw_sched_yield();
	return n;
}

TEST(parked_task_keeps_its_area)
{
	unsigned long cpu0 = 1, all = ~0ul;
	long base, pinned = raw_sched_setaffinity(0, sizeof(cpu0), &cpu0);

	/* The seed kernel has no sched_setaffinity (a Linux call): there
	 * the threads can be kept on one cache slot only at one CPU. */
	if (pinned == -ENOSYS && smp_ncpus() > 1) {
		printf("t_fpu: no sched_setaffinity and %d CPUs: the parked task's area "
		       "is checked at -smp 1\n", smp_ncpus());
		return;
	}
	if (pinned != -ENOSYS)
		EXPECT_EQ(pinned, 0);
	/* Whatever was parked on CPU 0 goes; a task without an area stays. */
	EXPECT(detached_thread(false), "a detached thread did not finish");
	base = fpu_areas();
	EXPECT(detached_thread(true), "a detached FPU thread did not finish");
	EXPECT_EQ(fpu_areas_become(base + 1), base + 1);        /* parked with it */
	EXPECT(detached_thread(true), "a detached FPU thread did not finish");
	EXPECT_EQ(fpu_areas_become(base + 1), base + 1);        /* one, not two */
	/* This one takes the parked task; its parent (this thread) has no
	 * FPU state to copy, so the area goes (fpu_copy). */
	EXPECT(detached_thread(false), "a detached thread did not finish");
	EXPECT_EQ(fpu_areas_become(base), base);
	if (pinned == 0)
		EXPECT_EQ(raw_sched_setaffinity(0, sizeof(all), &all), 0);
}

int main(void)
{
	/* These two first, while the main thread has never used the FPU:
	 * its children would inherit its state; and in eager mode every
	 * switch to a task with FPU state (the waiting main thread) loads
	 * that state, and so would overwrite the registers the stale-copy
	 * case needs left alone. */
	RUN(areas_only_for_fpu_users);
	RUN(parked_task_keeps_its_area);
	RUN(stale_copy_after_migration);
	RUN(threads_keep_registers);
	RUN(threads_keep_registers_among_nonfpu_tasks);
	RUN(processes_keep_registers);
	return t_exit_code();
}
