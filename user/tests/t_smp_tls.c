/* user/tests/t_smp_tls.c - TLS descriptors on many CPUs (docs/smp.md,
 * tls-2.5.31-D9): each CPU's GDT holds the TLS slots of the task it runs,
 * copied in at every switch, so a thread must read its own %gs:0 whatever
 * CPU it is on, after it moves to another one, and right after it
 * rewrites its own slot while other CPUs run other threads that use the
 * same slot number. Booted as init at -smp 1, 2, 4 and 8; the CPU count
 * comes from smp_ncpus() (smp.h), and a thread names the CPU it is on by
 * its GDT base (sgdt). */
#define T_PROG "t_smp_tls"
#include "t.h"
#include "smp.h"

static int ncpus;

/* A thread whose %gs or %fs names a slot that holds no descriptor (one
 * left empty on this CPU) faults when it reads through it: SIGSEGV. The
 * handler lets that thread alone end, with status FAULTED, so that the
 * case fails with a FAIL line instead of the fault ending init. */
#define FAULTED 3
#define FAULTED_WHY ": SIGSEGV using its TLS segment (no valid descriptor in that slot)"

static void on_segv(int sig)
{
	(void)sig;
	raw_exit(FAULTED);
}

/* ---- tls_follows_migrating_threads ---- */

#define MIG_THREADS 16          /* more threads than CPUs */
#define MIG_BASE 1500           /* thread i yields MIG_BASE + i * MIG_STEP times */
#define MIG_STEP 150
#define MIG_WAVES 8
#define MIG_WANT 4              /* moves wanted at 2+ CPUs */

struct mig {
	volatile unsigned gs_magic;     /* %gs:0 (slot 6, from CLONE_SETTLS) */
	volatile unsigned fs_magic;     /* %fs:0 (slot 8, its own set_thread_area) */
	int rounds;
	volatile int done;
	long setup;                     /* set_thread_area's result */
	int bad;                        /* reads that were not its own value */
	unsigned bad_gs, bad_fs, bad_cpu;
	int moves;                      /* GDT base changed between two reads */
	int checked_after_move;         /* own values read right after a move */
	struct smp_cpuset cpus;         /* GDT bases it ran on */
	unsigned col;                   /* CPU column values seen in /proc/tasks */
};

static struct mig mig[MIG_THREADS];

static int mig_fn(void *arg, const struct thr_regs *r)
{
	struct mig *m = arg;
	struct user_desc d = smp_tls_desc(8, (const void *)&m->fs_magic);
	unsigned last;

	(void)r;
	m->setup = raw_set_thread_area(&d);
	if (m->setup != 0)
		return 1;
	set_gs(GDT_SEL(6));
	set_fs(GDT_SEL(8));
	last = smp_cpu();
	smp_cpuset_add(&m->cpus, last);
	for (int i = 0; i < m->rounds; i++) {
		bool moved = false;

		raw_sched_yield();
		unsigned g = gs_word(), f = fs_word(), c = smp_cpu();
		if (c != last) {
			m->moves++;
			smp_cpuset_add(&m->cpus, c);
			last = c;
			moved = true;
		}
		if (g != m->gs_magic || f != m->fs_magic) {
			if (!m->bad++)
				m->bad_gs = g, m->bad_fs = f, m->bad_cpu = c;
		} else if (moved) {
			m->checked_after_move++;
		}
	}
	set_fs(0);
	set_gs(0);
	m->done = 1;
	return 0;
}

/* One wave: 16 threads with slot 6 at 16 different bases yield thousands
 * of times each, while the main thread samples /proc/tasks's CPU column.
 * Adds what it saw to the totals; 0, or the first clone error. */
struct mig_totals {
	int waves, samples, moved_col, moved_gdt, moves, checked, bad_threads;
	char why[160];                  /* the first failure */
};

static long mig_wave(struct mig_totals *tot)
{
	long tid[MIG_THREADS];
	int cpu[MIG_THREADS], started = 0;
	long err = 0;

	memset(mig, 0, sizeof(mig));
	for (int i = 0; i < MIG_THREADS; i++) {
		struct user_desc d = smp_tls_desc(6, (const void *)&mig[i].gs_magic);
		mig[i].gs_magic = 0x6a000000u | (unsigned)tot->waves << 16 | (unsigned)i << 8 | 0x66;
		mig[i].fs_magic = 0x8f000000u | (unsigned)tot->waves << 16 | (unsigned)i << 8 | 0x88;
		mig[i].rounds = MIG_BASE + i * MIG_STEP;
		tid[i] = smp_start(i, mig_fn, &mig[i], &d);
		if (tid[i] <= 0) {
			err = tid[i] ? tid[i] : -EINVAL;
			break;
		}
		started++;
	}
	long long end = thr_now_ns() + 60000000000ll;
	for (;;) {
		int done = 0;
		if (smp_task_cpus(tid, started, cpu) == 0)
			tot->samples++;
		for (int i = 0; i < started; i++) {
			if (cpu[i] >= 0 && cpu[i] < 32 && !mig[i].done)
				mig[i].col |= 1u << cpu[i];
			done += mig[i].done;
		}
		if (done == started || thr_now_ns() > end)
			break;
		thr_sleep_ms(2);
	}
	for (int i = 0; i < started; i++) {
		long st = smp_join(tid[i]);
		if (st != EXITED(0) && !tot->why[0])
			snprintf(tot->why, sizeof(tot->why), "wave %d thread %d: wait status %s%s",
				 tot->waves, i, t_status_str(st, t_b1_),
				 st == EXITED(FAULTED) ? FAULTED_WHY : "");
	}
	for (int i = 0; i < started; i++) {
		struct mig *m = &mig[i];
		int ncol = __builtin_popcount(m->col);
		if (m->setup != 0 && !tot->why[0])
			snprintf(tot->why, sizeof(tot->why), "wave %d thread %d: set_thread_area: %ld",
				 tot->waves, i, m->setup);
		if (m->bad) {
			tot->bad_threads++;
			if (!tot->why[0])
				snprintf(tot->why, sizeof(tot->why), "wave %d thread %d: %d of %d reads "
					 "were not its own: %%gs:0 %#x (want %#x), %%fs:0 %#x (want %#x), "
					 "on the CPU with GDT %#x", tot->waves, i, m->bad, m->rounds,
					 m->bad_gs, m->gs_magic, m->bad_fs, m->fs_magic, m->bad_cpu);
		}
		if ((m->cpus.n > ncpus || ncol > ncpus || m->col >= (1u << ncpus)) && !tot->why[0])
			snprintf(tot->why, sizeof(tot->why), "wave %d thread %d ran on %d CPUs (sgdt), "
				 "/proc/tasks CPU column mask %#x: the machine has %d", tot->waves,
				 i, m->cpus.n, m->col, ncpus);
		tot->moved_col += ncol > 1;
		tot->moved_gdt += m->cpus.n > 1;
		tot->moves += m->moves;
		tot->checked += m->checked_after_move;
	}
	tot->waves++;
	return err;
}

/* Each thread of a wave yields a different number of times, so CPUs run
 * out of work at different times and (docs/smp.md) "a CPU with nothing to
 * run pulls a waiting task from the busiest queue": with 2+ CPUs some
 * threads must be seen on 2+ CPUs, and must read their own %gs:0 and
 * %fs:0 right after the move. Waves are repeated (up to MIG_WAVES) until
 * MIG_WANT moves were seen, as the pulls depend on timing. At -smp 1
 * nothing may claim a second CPU. */
TEST(tls_follows_migrating_threads)
{
	static struct mig_totals tot;

	memset(&tot, 0, sizeof(tot));
	while (tot.waves < MIG_WAVES && (tot.waves < 1 || (ncpus > 1 && tot.moves < MIG_WANT))) {
		long r = mig_wave(&tot);
		EXPECT(r == 0, "wave %d: clone: %ld", tot.waves - 1, r);
		EXPECT(!tot.why[0], "%s", tot.why);
	}
	printf("  t_smp_tls: %d cpus, %d waves, %d samples of /proc/tasks; threads seen on "
	       "2+ CPUs: %d (/proc/tasks), %d (sgdt); %d moves, %d checked right after one\n",
	       ncpus, tot.waves, tot.samples, tot.moved_col, tot.moved_gdt, tot.moves, tot.checked);
	if (ncpus == 1) {
		EXPECT_EQ(tot.moves, 0);
		EXPECT_EQ(tot.moved_col, 0);
		return;
	}
	EXPECT(tot.samples > 0, "/proc/tasks could not be read");
	EXPECT(tot.moved_gdt > 0, "with %d CPUs none of %d x %d threads changed CPU (sgdt); "
	       "/proc/tasks saw %d move: the scheduler never migrated a runnable thread",
	       ncpus, tot.waves, MIG_THREADS, tot.moved_col);
	EXPECT(tot.checked > 0, "no thread checked its TLS right after a move");
}

/* ---- tls_slots_never_show_another_cpus_task ---- */

#define SLOT_THREADS 12
#define SLOT_ROUNDS 3000

struct slot {
	int entry;                      /* 6, 7 or 8: every slot is used by 4 */
	unsigned id;
	volatile unsigned cell[2];      /* the two bases it alternates between */
	long err;                       /* a set/get_thread_area failure */
	int stale, foreign;             /* its own older value / another thread's */
	unsigned bad_got, bad_want;
	int moves;
	volatile int done;
};

static struct slot slot[SLOT_THREADS];

static int slot_fn(void *arg, const struct thr_regs *r)
{
	struct slot *s = arg;
	unsigned last = smp_cpu();

	(void)r;
	for (unsigned seq = 1; seq <= SLOT_ROUNDS; seq++) {
		unsigned k = seq & 1, tag = s->id << 20 | seq;
		struct user_desc d = smp_tls_desc((unsigned)s->entry, (const void *)&s->cell[k]);

		s->cell[k] = tag;       /* a fresh value at a base it alternates to */
		long e = raw_set_thread_area(&d);
		if (e) {
			s->err = e;
			break;
		}
		if (seq == 1)
			set_gs(GDT_SEL(s->entry));
		unsigned v = gs_word();
		if (v != tag) {
			if (v >> 20 == s->id)
				s->stale++;
			else
				s->foreign++;
			s->bad_got = v, s->bad_want = tag;
		}
		if (seq % 16 == 0) {
			struct user_desc g = { .entry_number = (unsigned)s->entry };
			e = raw_get_thread_area(&g);
			if (e || g.base_addr != (unsigned)&s->cell[k]) {
				s->err = e ? e : -EBADF;
				break;
			}
		}
		if (seq % 4 == 0)
			raw_sched_yield();
		unsigned c = smp_cpu();
		s->moves += c != last;
		last = c;
	}
	set_gs(0);
	s->done = 1;
	return 0;
}

/* 12 threads, 4 on each of slots 6, 7 and 8, rewrite their own slot to a
 * new base holding a new value 3,000 times and read %gs:0 at once (the
 * descriptor "is live on the calling CPU before the call returns"),
 * yielding every 4th round. A read of the thread's previous value is a
 * stale descriptor (set_thread_area did not reach this CPU's GDT, or a
 * switch loaded an old copy); another thread's value is another task's
 * descriptor left in this CPU's GDT. */
TEST(tls_slots_never_show_another_cpus_task)
{
	long tid[SLOT_THREADS];
	int started = 0, moves = 0;

	memset(slot, 0, sizeof(slot));
	for (int i = 0; i < SLOT_THREADS; i++) {
		slot[i].entry = 6 + i % 3;
		slot[i].id = 0x100u + (unsigned)i;
		tid[i] = smp_start(i, slot_fn, &slot[i], NULL);
		if (tid[i] <= 0)
			break;
		started++;
	}
	long st[SLOT_THREADS];
	for (int i = 0; i < started; i++)
		st[i] = smp_join(tid[i]);
	for (int i = 0; i < started; i++)
		EXPECT(st[i] == EXITED(0), "thread %d (slot %d): wait status %s%s", i,
		       slot[i].entry, t_status_str(st[i], t_b1_),
		       st[i] == EXITED(FAULTED) ? FAULTED_WHY : "");
	EXPECT(started == SLOT_THREADS, "clone %d: %ld", started, tid[started]);
	for (int i = 0; i < SLOT_THREADS; i++) {
		struct slot *s = &slot[i];
		EXPECT(s->err == 0, "thread %d (slot %d): set/get_thread_area: %ld", i,
		       s->entry, s->err);
		EXPECT(s->stale == 0 && s->foreign == 0, "thread %d (slot %d): %d stale and %d "
		       "foreign reads of %%gs:0, last %#x want %#x", i, s->entry, s->stale,
		       s->foreign, s->bad_got, s->bad_want);
		moves += s->moves;
	}
	printf("  t_smp_tls: %d cpus; slot writers changed CPU %d times\n", ncpus, moves);
	if (ncpus == 1)
		EXPECT_EQ(moves, 0);
}

int main(void)
{
	ncpus = smp_ncpus();
	if (ncpus < 1 || ncpus > SMP_MAX_CPUS) {
		printf("FAIL t_smp_tls.setup: counting the CPUs: %d\n", ncpus);
		return 1;
	}
	if (thr_signal(SIGSEGV, on_segv) != 0) {
		printf("FAIL t_smp_tls.setup: cannot install a SIGSEGV handler\n");
		return 1;
	}
	RUN(tls_follows_migrating_threads);
	RUN(tls_slots_never_show_another_cpus_task);
	return t_exit_code();
}
