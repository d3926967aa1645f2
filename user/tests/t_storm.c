/* user/tests/t_storm.c - many detached RELEASE_VM threads (the seed's
 * user-vm-unlock-A2 transcript, and a 10,000-thread storm) and the
 * kernel's books afterwards: /proc/kstat's free frames, every object
 * cache's count and the per-CPU task cache (clone-detached-A1).
 *
 * The exact expectation for the books. A detached thread reaps itself
 * by parking its task and kernel stack in its CPU's cache slot, freeing
 * the task parked there before; clone takes the parked task of its CPU
 * instead of allocating. A parked task leaves its slot exactly once, by
 * a free or a reuse, so parked - freed - reused is the number of tasks
 * parked right now (one per CPU at most), each still holding one task
 * and one kstack object while in no task list. After a storm at least
 * one is parked. To compare exactly, every slot is drained before both
 * snapshots: an ordinary (non-detached) thread is created on each CPU,
 * which reuses the parked task, and is reaped by wait4, which frees it;
 * kstat must then show 0 parked. With every slot empty at both ends,
 * frames_free, every cache's inuse and tasks must be back to their
 * values, and d(parked) = d(freed) + d(reused) = threads created.
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
static struct thr_kstat kstart; /* at boot, before any thread */
static unsigned long ndetached; /* detached threads created since */

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
	ndetached += n;
	thr_wait_word(&arrived, n, 30000);      /* all running, on their stacks */
	long r = thr_kstat(&k1);
	for (int i = 0; i < SEED_THREADS; i++)
		intact += *word(i) == MAGIC;
	long woken = release();
	int left = wait_words(n, 30000);

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

static unsigned long inuse(const struct thr_kstat *k, const char *name)
{
	for (int i = 0; i < k->ncaches; i++)
		if (strcmp(k->cache[i].name, name) == 0)
			return k->cache[i].inuse;
	return (unsigned long)-1;
}

static unsigned long parked_now(const struct thr_kstat *k)
{
	return k->parked - k->freed - k->reused;
}

/* What the books must say once every detached thread created so far has
 * finished its exit: each parked (task_cache_parked), none in the task
 * list, and the task and kstack objects in use those of boot plus one
 * per task parked right now. */
static bool books_exact(const struct thr_kstat *k)
{
	return k->parked == kstart.parked + ndetached && k->tasks == kstart.tasks &&
	       inuse(k, "task") == inuse(&kstart, "task") + parked_now(k) &&
	       inuse(k, "kstack") == inuse(&kstart, "kstack") + parked_now(k);
}

/* Yields until the books are exact, up to 20 s; thr_kstat's result. On
 * more than one CPU they get there a moment after the last stack word
 * went 0: the word is cleared early in exit, and an exit counts the task
 * it frees (task_cache_freed) before that task, maybe still switching
 * away on another CPU, is freed. A leak never gets there. */
static long settle(struct thr_kstat *k)
{
	long long end = thr_now_ns() + 20000000000ll;
	long r;

	while ((r = thr_kstat(k)) == 0 && !books_exact(k) && thr_now_ns() < end)
		raw_sched_yield();
	return r;
}

/* Stack page i of the pool, for the drainers (the storm uses 0..BATCH-1). */
static char *pool_top(int i)
{
	return stacks + (i + 1) * TSTACK;
}

/* An ordinary thread takes this CPU's parked task and wait4 frees it. */
static int drain_here(void *arg, const struct thr_regs *r)
{
	int st = -1;
	long tid = thr_clone(CLONE_VM | SIGCHLD, (char *)arg, NULL, NULL, exit_fn, NULL);

	(void)r;
	if (tid <= 0)
		return 1;
	return raw_wait4((int)tid, &st, 0, NULL) == tid && st == 0 ? 0 : 2;
}

#define DRAINERS 8              /* abi.md: up to 8 CPUs */
static volatile int drained, drain_done;

/* drain_here, then keep a CPU busy until all have drained: the scheduler
 * puts each next drainer on a less loaded CPU. */
static int drainer_fn(void *arg, const struct thr_regs *r)
{
	int bad = drain_here(arg, r);

	__atomic_add_fetch(&drained, 1, __ATOMIC_SEQ_CST);
	while (!drain_done)
		raw_sched_yield();
	return bad;
}

/* Empties every CPU's slot: until kstat shows no task parked (up to 20
 * rounds of DRAINERS drainers). 0, or -1 with k showing what is left. */
static long drain_all(struct thr_kstat *k)
{
	for (int round = 0; round < 20; round++) {
		long tid[DRAINERS];
		int n = 0, bad = 0;

		if (settle(k) != 0)
			return -1;
		if (parked_now(k) == 0)
			return 0;
		bad |= drain_here(pool_top(BATCH), NULL);
		drained = drain_done = 0;
		for (; n < DRAINERS; n++)
			if ((tid[n] = thr_clone(THR_THREAD_FLAGS, pool_top(BATCH + 1 + 2 * n), NULL,
						NULL, drainer_fn, pool_top(BATCH + 2 + 2 * n))) <= 0)
				break;
		thr_wait_word(&drained, n, 20000);
		drain_done = 1;
		for (int i = 0; i < n; i++) {
			int st = -1;
			if (raw_wait4((int)tid[i], &st, __WCLONE, NULL) != tid[i] || st != 0)
				bad = 1;
		}
		if (bad || n < DRAINERS)
			return -1;
	}
	return settle(k) == 0 && parked_now(k) == 0 ? 0 : -1;
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
				wait_words(i, 30000);
				return tid ? tid : -1;
			}
			ndetached++;
		}
		release();
		if (wait_words(BATCH, 30000))
			return -ETIMEDOUT;
	}
	return 0;
}

TEST(storm_10000_detached_threads_books_balance)
{
	struct thr_kstat k0, k1, k2;

	/* Warm up every path (and page) the measured run will use. */
	EXPECT_EQ(storm(2 * BATCH), 0);
	EXPECT(drain_all(&k0) == 0, "cannot empty the task cache: %lu parked",
	       parked_now(&k0));
	EXPECT(books_exact(&k0), "before: parked %lu (want %lu), tasks %lu (want %lu), "
	       "task objects %lu, kstacks %lu (want %lu, %lu)", k0.parked,
	       kstart.parked + ndetached, k0.tasks, kstart.tasks, inuse(&k0, "task"),
	       inuse(&k0, "kstack"), inuse(&kstart, "task"), inuse(&kstart, "kstack"));

	long r = storm(STORM);
	EXPECT(r == 0, "storm: %ld", r);
	EXPECT_EQ(settle(&k1), 0);
	EXPECT_EQ(k1.parked - k0.parked, STORM);
	EXPECT_EQ(k1.tasks, k0.tasks);
	/* The tasks still parked hold their task and kstack objects. */
	EXPECT(parked_now(&k1) >= 1, "no task parked after %d detached exits", STORM);
	EXPECT_EQ(inuse(&k1, "task"), inuse(&k0, "task") + parked_now(&k1));
	EXPECT_EQ(inuse(&k1, "kstack"), inuse(&k0, "kstack") + parked_now(&k1));

	EXPECT(drain_all(&k2) == 0, "cannot empty the task cache: %lu parked",
	       parked_now(&k2));
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
	if (thr_kstat(&kstart) != 0) {
		printf("FAIL t_storm.setup: cannot read /proc/kstat\n");
		return 1;
	}
	RUN(seed_transcript_1000_threads);
	RUN(storm_10000_detached_threads_books_balance);
	return t_exit_code();
}
