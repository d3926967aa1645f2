/* user/tests/t_storm.c - many detached RELEASE_VM threads (the seed's
 * user-vm-unlock-A2 transcript, and a 10,000-thread storm) and the
 * kernel's books afterwards: /proc/kstat's free frames, every object
 * cache's count and the per-CPU task cache (clone-detached-A1).
 *
 * The exact expectation for the books. A detached thread reaps itself
 * by parking its task and kernel stack in its CPU's cache slot, freeing
 * the task parked there before; clone takes a parked task instead of
 * allocating. So right after a storm exactly one task is parked: its
 * task and kstack objects are still in use, though it is in no task
 * list. To compare exactly, the slot is drained before both snapshots:
 * an ordinary (non-detached) thread is created, which reuses the parked
 * task, and is reaped by wait4, which frees it. Then frames_free, every
 * cache's inuse and tasks must be back to their values, and with the
 * slot empty at both ends every park was matched by one free or one
 * reuse: d(parked) = d(freed) + d(reused), d(parked) = threads created.
 * Everything user space touches (stacks, buffers) is touched before the
 * first snapshot, so no page fault allocates a frame in between.
 * Booted as init. */
#define T_PROG "t_storm"
#include "t.h"
#include "thr.h"

#define MAGIC 0x12341234
#define SEED_THREADS 1000
#define STORM 10000
#define BATCH 50                /* at most this many alive at once (NPTL's figure) */
#define TSTACK 4096             /* one page per thread */
#define FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
	       CLONE_DETACHED | CLONE_RELEASE_VM)

static char *stacks;            /* SEED_THREADS pages */

static volatile int *word(int i)
{
	return (volatile int *)(stacks + (i + 1) * TSTACK - 4);
}

static volatile int go, arrived;

static int wait_go_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	while (!go)
		raw_futex((int *)&go, FUTEX_WAIT, 0, NULL);
	return 0;
}

static int exit_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 0;
}

/* Until every word of threads [0, n) is 0 (up to ms); how many are not. */
static int wait_words(int n, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;
	int left;

	for (;;) {
		left = 0;
		for (int i = 0; i < n; i++)
			left += *word(i) != 0;
		if (!left || thr_now_ns() > end)
			return left;
		raw_sched_yield();
	}
}

/* Lets the waiting threads go; how many FUTEX_WAKE woke. */
static long release(void)
{
	go = 1;
	return raw_futex((int *)&go, FUTEX_WAKE, 0x7fffffff, NULL);
}

/* The seed's transcript: "./start-detached 1000 1 0". The threads wait on
 * a futex until all are running, so the words can be seen intact while
 * they live (the child's stack starts on its word and only pushes below). */
TEST(seed_transcript_1000_threads)
{
	struct thr_kstat k0, k1;
	int intact = 0, n;
	long tid = 0;

	EXPECT_EQ(thr_kstat(&k0), 0);
	go = arrived = 0;
	for (int i = 0; i < SEED_THREADS; i++)
		*word(i) = MAGIC;
	for (n = 0; n < SEED_THREADS; n++)
		if ((tid = thr_clone(FLAGS, (char *)word(n) + 4, NULL, NULL, wait_go_fn, NULL)) <= 0)
			break;
	thr_wait_word(&arrived, n, 10000);      /* all running, on their stacks */
	long r = thr_kstat(&k1);
	for (int i = 0; i < SEED_THREADS; i++)
		intact += *word(i) == MAGIC;
	long woken = release();
	int left = wait_words(n, 20000);

	EXPECT(n == SEED_THREADS, "clone %d returned %ld", n, tid);
	EXPECT_EQ(arrived, SEED_THREADS);
	EXPECT_EQ(r, 0);
	EXPECT(intact == SEED_THREADS, "with all started, %d of %d words are %#x",
	       intact, SEED_THREADS, MAGIC);
	EXPECT_EQ(k1.tasks, k0.tasks + SEED_THREADS);
	/* Those not yet asleep in FUTEX_WAIT see go without sleeping. */
	EXPECT(woken >= 0 && woken <= SEED_THREADS, "FUTEX_WAKE: %ld", woken);
	EXPECT(left == 0, "%d of %d stack words are not 0 after all threads exited", left,
	       SEED_THREADS);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

/* An ordinary thread takes the parked task and wait4 frees it. */
static int drain(void)
{
	int st = -1;
	long tid = thr_clone(CLONE_VM | SIGCHLD, stacks + TSTACK, NULL, NULL, exit_fn, NULL);

	if (tid <= 0)
		return (int)tid;
	return raw_wait4((int)tid, &st, 0, NULL) == tid && st == 0 ? 0 : -1;
}

/* n detached create/exits, BATCH alive at a time: each batch waits for
 * the word go, so that its threads exit one right after the other (each
 * frees the task parked by the one before), and the first clone of the
 * next batch reuses the last one parked. 0 or the first clone error. */
static long storm(int n)
{
	for (int done = 0; done < n; done += BATCH) {
		go = 0;
		for (int i = 0; i < BATCH; i++) {
			*word(i) = MAGIC;
			long tid = thr_clone(FLAGS, (char *)word(i) + 4, NULL, NULL, wait_go_fn, NULL);
			if (tid <= 0) {
				release();
				wait_words(i, 10000);
				return tid ? tid : -1;
			}
		}
		release();
		if (wait_words(BATCH, 10000))
			return -ETIMEDOUT;
	}
	return 0;
}

/* Yields until /proc/kstat shows want parked and ntasks tasks (up to 5 s). */
static long settle(struct thr_kstat *k, unsigned long parked, unsigned long ntasks)
{
	long long end = thr_now_ns() + 5000000000ll;
	long r;

	while ((r = thr_kstat(k)) == 0 && (k->parked != parked || k->tasks != ntasks) &&
	       thr_now_ns() < end)
		raw_sched_yield();
	return r;
}

static unsigned long inuse(const struct thr_kstat *k, const char *name)
{
	for (int i = 0; i < k->ncaches; i++)
		if (strcmp(k->cache[i].name, name) == 0)
			return k->cache[i].inuse;
	return (unsigned long)-1;
}

TEST(storm_10000_detached_threads_books_balance)
{
	struct thr_kstat k0, k1, k2;

	/* Warm up every path (and page) the measured run will use. */
	EXPECT_EQ(storm(2 * BATCH), 0);
	EXPECT_EQ(thr_kstat(&k0), 0);
	EXPECT_EQ(settle(&k0, k0.parked, k0.tasks), 0);
	EXPECT_EQ(drain(), 0);
	EXPECT_EQ(thr_kstat(&k0), 0);

	long r = storm(STORM);
	EXPECT(r == 0, "storm: %ld", r);
	/* The last thread's word is 0 before it has finished exiting. */
	EXPECT_EQ(settle(&k1, k0.parked + STORM, k0.tasks), 0);
	EXPECT_EQ(k1.parked - k0.parked, STORM);
	EXPECT_EQ(k1.tasks, k0.tasks);
	/* Exactly one task parked: its task and kstack still count. */
	EXPECT_EQ(inuse(&k1, "task"), inuse(&k0, "task") + 1);
	EXPECT_EQ(inuse(&k1, "kstack"), inuse(&k0, "kstack") + 1);

	EXPECT_EQ(drain(), 0);
	EXPECT_EQ(thr_kstat(&k2), 0);
	EXPECT_EQ(k2.parked - k0.parked, STORM);
	EXPECT_EQ((k2.freed - k0.freed) + (k2.reused - k0.reused), STORM);
	EXPECT(k2.freed > k0.freed && k2.reused > k0.reused,
	       "task cache: freed +%lu, reused +%lu: both must have been used",
	       k2.freed - k0.freed, k2.reused - k0.reused);
	EXPECT_EQ(k2.tasks, k0.tasks);
	EXPECT_EQ(k2.ncaches, k0.ncaches);
	for (int i = 0; i < k0.ncaches; i++)
		EXPECT(k2.cache[i].inuse == k0.cache[i].inuse,
		       "cache %s: inuse %lu after the storm, %lu before", k0.cache[i].name,
		       k2.cache[i].inuse, k0.cache[i].inuse);
	EXPECT_EQ(k2.frames_free, k0.frames_free);
}

int main(void)
{
	stacks = thr_map(SEED_THREADS * TSTACK);
	if (!stacks) {
		printf("FAIL t_storm.setup: cannot map %d stacks\n", SEED_THREADS);
		return 1;
	}
	RUN(seed_transcript_1000_threads);
	RUN(storm_10000_detached_threads_books_balance);
	return t_exit_code();
}
