/* user/tests/t_smp_futex.c - futexes between threads on different CPUs
 * (abi.md section 6, docs/smp.md): 100,000 WAIT/WAKE round trips with no
 * lost wake-up, and a bounded queue of 4 producers and 4 consumers built
 * on a futex mutex and two futex "sequence" words (a condition variable:
 * WAIT on the value read under the lock) that must deliver each of
 * 40,000 items exactly once. (t_futex already keeps 8 x 10,000 plain
 * increments exact under a futex mutex.) A wait that times out while
 * what it waits for has already happened is a lost wake-up; each run is
 * also bounded as a whole by CLOCK_MONOTONIC. Booted as init. */
#define T_PROG "t_smp_futex"
#include "t.h"
#include "smp.h"

static int ncpus;

static long fwait(volatile int *u, int val, const struct timespec *ts)
{
	return raw_futex((int *)u, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, val, ts);
}

static long fwake(volatile int *u, int n)
{
	return raw_futex((int *)u, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, n, NULL);
}

/* ---- futex_pingpong_100000_rounds ---- */

#define PP_ROUNDS 100000
/* The whole run, generously: on a loaded host a wake-up can take
 * milliseconds (tests/run.py gives this program 300 s). A lost wake-up
 * does not need it: it shows as a 2 s FUTEX_WAIT timeout. */
#define PP_LIMIT_NS 240000000000ll

/* seq counts the half-rounds: side me moves when seq % 2 == me. Before
 * it sleeps, a side spins on seq a little, 0 to PP_SPIN_SHORT - 1 pauses,
 * a different number each round: with the other side on another CPU, its
 * WAIT then often meets the other side's store and WAKE head on (-EAGAIN,
 * or a wake-up in flight), the window where a wake-up gets lost; about
 * half the half-rounds sleep. But each sleep costs a wake-up of a halted
 * CPU, which under QEMU is a host thread waking: tens of microseconds, or
 * milliseconds on a loaded host, where 100,000 such rounds would not fit
 * the harness's time. So side 0 checks the clock every PP_CHECK_EVERY
 * rounds, and while the run is behind PP_BUDGET_NS's pace both sides
 * spin up to PP_SPIN_LONG pauses instead, and mostly see the other's move
 * without sleeping. At least PP_MIN_SLEPT half-rounds must sleep. */
#define PP_SPIN_SHORT 32
#define PP_SPIN_LONG 4096
#define PP_CHECK_EVERY 256
#define PP_BUDGET_NS 60000000000ll
#define PP_MIN_SLEPT 2000

static volatile int seq, pp_lost[2], pp_slept[2], pp_raced[2], pp_give_up, pp_hurry;
static volatile int pp_hurried;         /* rounds side 0 ran in a hurry */
static volatile unsigned pp_cpu[2];
static long long pp_deadline, pp_t0;

static void pingpong(int me)
{
	struct timespec two = { 2, 0 };
	unsigned rnd = 0x9e3779b9u * (unsigned)(me + 1);

	pp_cpu[me] = smp_cpu();
	for (int i = 0; i < PP_ROUNDS && !pp_give_up; i++) {
		int s, spin;
		rnd = rnd * 1103515245u + 12345u;
		if (me == 0 && i > 0 && i % PP_CHECK_EVERY == 0)
			pp_hurry = (thr_now_ns() - pp_t0) * PP_ROUNDS > PP_BUDGET_NS * (long long)i;
		pp_hurried += me == 0 && pp_hurry;
		spin = ncpus == 1 ? 0 :                                 /* no use at 1 */
		       pp_hurry ? PP_SPIN_LONG : (int)(rnd >> 16) % PP_SPIN_SHORT;
		while ((s = seq) % 2 != me && spin-- > 0)
			__asm__ volatile("pause");
		while ((s = seq) % 2 != me && !pp_give_up) {
			long r = fwait(&seq, s, &two);
			if (r == 0)
				pp_slept[me]++;
			else if (r == -EAGAIN)
				pp_raced[me]++;
			else if (r == -ETIMEDOUT && seq % 2 == me)
				pp_lost[me]++;          /* it was our turn, nobody woke us */
			else if (r != -ETIMEDOUT)
				pp_give_up = 1;
			if (pp_lost[0] + pp_lost[1] >= 3 || thr_now_ns() > pp_deadline)
				pp_give_up = 1;
		}
		__atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
		fwake(&seq, 1);
	}
}

static int pong_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	pingpong(1);
	return 0;
}

TEST(futex_pingpong_100000_rounds)
{
	long long t0 = thr_now_ns();

	seq = pp_give_up = pp_hurry = pp_hurried = 0;
	pp_t0 = t0;
	pp_lost[0] = pp_lost[1] = pp_slept[0] = pp_slept[1] = pp_raced[0] = pp_raced[1] = 0;
	pp_deadline = t0 + PP_LIMIT_NS;
	long tid = smp_start(0, pong_fn, NULL, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	pingpong(0);
	EXPECT_EQ(smp_join(tid), EXITED(0));
	long long ms = (thr_now_ns() - t0) / 1000000;
	printf("  t_smp_futex: %d cpus: %d round trips in %lld ms, %s CPUs; slept %d + %d "
	       "times, -EAGAIN %d + %d; %d rounds in a hurry\n", ncpus, seq / 2, ms,
	       pp_cpu[0] != pp_cpu[1] ? "different" : "the same", pp_slept[0], pp_slept[1],
	       pp_raced[0], pp_raced[1], pp_hurried);
	EXPECT(pp_lost[0] == 0 && pp_lost[1] == 0, "lost wake-ups: %d (ping) %d (pong), "
	       "after %d half-rounds", pp_lost[0], pp_lost[1], seq);
	EXPECT(!pp_give_up, "gave up after %d of %d half-rounds, %lld ms", seq,
	       2 * PP_ROUNDS, ms);
	EXPECT_EQ(seq, 2 * PP_ROUNDS);
	/* The spin before sleeping must not turn this into a spin-only test,
	 * even on a host so loaded that it ran in a hurry throughout. */
	EXPECT(pp_slept[0] + pp_slept[1] >= PP_MIN_SLEPT, "only %d of %d half-rounds "
	       "slept in FUTEX_WAIT", pp_slept[0] + pp_slept[1], 2 * PP_ROUNDS);
}

/* ---- a bounded queue: 4 producers, 4 consumers ---- */

#define PRODUCERS 4
#define CONSUMERS 4
#define ITEMS 10000                     /* per producer, and per consumer */
#define QSIZE 16
#define Q_LIMIT_NS 40000000000ll         /* with PP_LIMIT_NS, within run.py's 300 s */

static volatile int qlock;              /* Drepper's mutex 2: 0, 1, 2 */
static volatile int not_empty, not_full;        /* sequence words */
static volatile int q_head, q_count, q_stalls, q_give_up;
static int q_ring[QSIZE];
static volatile unsigned char q_seen[PRODUCERS * ITEMS];
static volatile int q_slept;
static long long q_deadline;

static void q_lock(void)
{
	int c = __sync_val_compare_and_swap(&qlock, 0, 1);

	if (c == 0)
		return;
	if (c != 2)
		c = __atomic_exchange_n(&qlock, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		struct timespec two = { 2, 0 };
		if (fwait(&qlock, 2, &two) == -ETIMEDOUT)
			__atomic_add_fetch(&q_stalls, 1, __ATOMIC_RELAXED);
		c = __atomic_exchange_n(&qlock, 2, __ATOMIC_ACQUIRE);
	}
}

static void q_unlock(void)
{
	if (__atomic_fetch_sub(&qlock, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(&qlock, 0, __ATOMIC_RELEASE);
		fwake(&qlock, 1);
	}
}

/* Called and returns with the lock held: sleeps on *ev (its value read
 * under the lock) until someone bumps it. A 2 s timeout is a stall: every
 * thread here moves on within microseconds unless a wake-up was lost. */
static void q_wait(volatile int *ev)
{
	struct timespec two = { 2, 0 };
	int v = *ev;

	q_unlock();
	long r = fwait(ev, v, &two);
	if (r == 0)
		__atomic_add_fetch(&q_slept, 1, __ATOMIC_RELAXED);
	if (r == -ETIMEDOUT)
		__atomic_add_fetch(&q_stalls, 1, __ATOMIC_RELAXED);
	if (q_stalls >= 3 || thr_now_ns() > q_deadline)
		q_give_up = 1;
	q_lock();
}

static void q_signal(volatile int *ev)
{
	__atomic_add_fetch(ev, 1, __ATOMIC_SEQ_CST);
	fwake(ev, 1);
}

static int producer_fn(void *arg, const struct thr_regs *r)
{
	int p = (int)(long)arg;

	(void)r;
	for (int k = 0; k < ITEMS; k++) {
		q_lock();
		while (q_count == QSIZE && !q_give_up)
			q_wait(&not_full);
		if (q_give_up) {
			q_unlock();
			return 1;
		}
		q_ring[(q_head + q_count) % QSIZE] = p * ITEMS + k;
		q_count++;
		q_signal(&not_empty);
		q_unlock();
	}
	return 0;
}

static int consumer_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	for (int k = 0; k < ITEMS; k++) {
		q_lock();
		while (q_count == 0 && !q_give_up)
			q_wait(&not_empty);
		if (q_give_up) {
			q_unlock();
			return 1;
		}
		int v = q_ring[q_head];
		q_head = (q_head + 1) % QSIZE;
		q_count--;
		q_signal(&not_full);
		q_unlock();
		if (v >= 0 && v < PRODUCERS * ITEMS)
			__atomic_add_fetch(&q_seen[v], 1, __ATOMIC_RELAXED);
		else
			return 2;
	}
	return 0;
}

TEST(futex_queue_4_producers_4_consumers_every_item_once)
{
	long tid[PRODUCERS + CONSUMERS];
	int twice = 0, never = 0, first_bad = -1;
	long long t0 = thr_now_ns();

	qlock = not_empty = not_full = q_head = q_count = q_stalls = q_give_up = q_slept = 0;
	memset((void *)q_seen, 0, sizeof(q_seen));
	q_deadline = t0 + Q_LIMIT_NS;
	for (int i = 0; i < PRODUCERS + CONSUMERS; i++) {
		/* consumers first: they find the queue empty and sleep */
		bool prod = i >= CONSUMERS;
		tid[i] = smp_start(i, prod ? producer_fn : consumer_fn,
				   (void *)(long)(i - CONSUMERS), NULL);
		EXPECT(tid[i] > 1, "clone %d: %ld", i, tid[i]);
	}
	for (int i = 0; i < PRODUCERS + CONSUMERS; i++) {
		long st = smp_join(tid[i]);
		EXPECT(st == EXITED(0), "%s %d: wait status %s (1: gave up; 2: a bad item)",
		       i >= CONSUMERS ? "producer" : "consumer", i % CONSUMERS,
		       t_status_str(st, t_b1_));
	}
	for (int v = 0; v < PRODUCERS * ITEMS; v++) {
		if (q_seen[v] != 1 && first_bad < 0)
			first_bad = v;
		twice += q_seen[v] > 1;
		never += q_seen[v] == 0;
	}
	printf("  t_smp_futex: %d cpus: %d items through a %d-slot queue in %lld ms, "
	       "%d sleeps on the condition words\n", ncpus, PRODUCERS * ITEMS, QSIZE,
	       (thr_now_ns() - t0) / 1000000, q_slept);
	EXPECT(twice == 0 && never == 0, "%d items delivered twice or more, %d never "
	       "(first: item %d, %d times)", twice, never, first_bad,
	       first_bad >= 0 ? q_seen[first_bad] : 0);
	EXPECT_EQ(q_stalls, 0);
	EXPECT_EQ(q_count, 0);
	EXPECT_EQ(qlock, 0);
	EXPECT(q_slept > 0, "no thread ever slept on a condition word: futexes not exercised");
}

int main(void)
{
	ncpus = smp_ncpus();
	if (ncpus < 1 || ncpus > SMP_MAX_CPUS) {
		printf("FAIL t_smp_futex.setup: counting the CPUs: %d\n", ncpus);
		return 1;
	}
	RUN(futex_pingpong_100000_rounds);
	RUN(futex_queue_4_producers_4_consumers_every_item_once);
	return t_exit_code();
}
