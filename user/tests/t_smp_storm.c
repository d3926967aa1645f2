/* user/tests/t_smp_storm.c - creating and reaping threads on every CPU at
 * once (clone-detached-A1's per-CPU task cache, docs/threads.md): 4
 * creator threads each create 2,500 detached CLONE_RELEASE_VM threads,
 * concurrently, and the kernel's books must balance afterwards.
 *
 * The exact expectation. A detached thread reaps itself by parking its
 * task (and kernel stack) in its CPU's slot, freeing the task parked
 * there before; clone takes the parked task of its own CPU, if any,
 * instead of allocating (kernel/exit.c). The counters of /proc/kstat say
 * how many are parked now: every park adds one to task_cache_parked, a
 * park that frees its CPU's previous task one to task_cache_freed, a
 * clone that takes one one to task_cache_reused, and nothing else fills
 * or empties a slot, so
 *     parked_now = task_cache_parked - task_cache_freed - task_cache_reused,
 * between 0 and the number of CPUs. Unlike t_storm, the slots are not
 * drained (with no way to choose a CPU, only this CPU's slot could be),
 * so across the storm, with everything else back where it was:
 *   - cache "task" and cache "kstack": inuse changes by exactly
 *     d(parked_now) (a parked task is in no task list: "tasks" is back);
 *   - every other cache: inuse unchanged;
 *   - frames: objects are carved from slabs, and a slab goes back to the
 *     frame pool when its last object is freed (kernel/mm/kmem.c), so the
 *     free frames change by the pages of the slabs gained or lost: a
 *     kernel stack is one 8 KiB object per 2-page slab (so kstack's slabs
 *     change as its inuse does), and every other cache has 1-page slabs
 *     (kmem.c:pick_order gives order 0 to any object of up to 2 KiB that
 *     wastes at most 1/8 of a page; struct task is 208 bytes, 256 with
 *     its 64-byte alignment, 16 to a slab). Where a task struct lands
 *     (a new slab or a partly used one) is not ours to choose, so the
 *     check is d(frames_free) = -(2 d(kstack slabs) + sum of the other
 *     caches' d(slabs)); /proc/kstat gives each cache's pages, and the
 *     check is d(frames_free) = -(sum of the caches' d(pages)), exactly.
 * Everything user space touches (stacks, the /proc buffer) is touched
 * before the first snapshot, and a warm-up storm runs every path first;
 * a page this program still touches for the first time between the two
 * is in its own resident count (self_rss_pages), which the check adds.
 * Booted as init. */
#define T_PROG "t_smp_storm"
#include "t.h"
#include "smp.h"

#define CREATORS 4
#define PER_CREATOR 2500
#define WARM_PER_CREATOR 100
#define SLOTS 8                 /* each creator's threads alive at once, at most */
#define TSTACK 4096             /* one page per thread */
#define MAGIC 0x5107a11e
#define FLAGS (THR_THREAD_FLAGS | CLONE_DETACHED | CLONE_RELEASE_VM)

static int ncpus;
static char *stacks;            /* CREATORS * SLOTS pages */

/* The RELEASE_VM word of creator c's slot s: the last word of its page. */
static volatile int *word(int c, int s)
{
	return (volatile int *)(stacks + (c * SLOTS + s + 1) * TSTACK - 4);
}

/* The CPUs the short-lived threads ran on: GDT base and count, filled
 * without locks (a slot is claimed by compare-and-swap). */
static struct { volatile unsigned base; volatile int n; } where[SMP_MAX_CPUS + 1];

static int exit_fn(void *arg, const struct thr_regs *r)
{
	unsigned me = smp_cpu();

	(void)arg;
	(void)r;
	for (int i = 0; i <= SMP_MAX_CPUS; i++) {
		unsigned b = where[i].base;
		if (b == 0 && __sync_bool_compare_and_swap(&where[i].base, 0, me))
			b = me;
		if (b == me) {
			__atomic_add_fetch(&where[i].n, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	return 0;
}

struct creator {
	int id, n;
	long err;               /* the first clone error */
	int made, stuck;        /* threads created; slots never released */
	struct smp_cpuset cpus;
};

static struct creator cr[CREATORS];

/* Creates c->n threads, reusing a slot once the kernel zeroed its word. */
static int creator_fn(void *arg, const struct thr_regs *r)
{
	struct creator *c = arg;
	long long end = thr_now_ns() + 60000000000ll;

	(void)r;
	while (c->made < c->n && !c->err && thr_now_ns() < end) {
		bool any = false;
		for (int s = 0; s < SLOTS && c->made < c->n; s++) {
			volatile int *w = word(c->id, s);
			if (*w != 0)
				continue;
			*w = MAGIC;
			long tid = thr_clone(FLAGS, (char *)w + 4, NULL, NULL, exit_fn, NULL);
			if (tid <= 0) {
				*w = 0;
				c->err = tid ? tid : -EINVAL;
				break;
			}
			c->made++;
			any = true;
		}
		smp_cpuset_add(&c->cpus, smp_cpu());
		if (!any)
			raw_sched_yield();
	}
	for (int s = 0; s < SLOTS; s++)
		if (!thr_wait_word(word(c->id, s), 0, 10000))
			c->stuck++;
	return 0;
}

/* Runs the creators, n threads each; 0 or a description of what failed
 * in why. */
static int run_storm(int n, char *why, size_t len)
{
	long tid[CREATORS];
	int started = 0;

	why[0] = 0;
	memset(cr, 0, sizeof(cr));
	for (int i = 0; i < CREATORS; i++) {
		cr[i].id = i;
		cr[i].n = n;
		tid[i] = smp_start(i, creator_fn, &cr[i], NULL);
		if (tid[i] <= 0) {
			snprintf(why, len, "clone of creator %d: %ld", i, tid[i]);
			break;
		}
		started++;
	}
	for (int i = 0; i < started; i++) {
		long st = smp_join(tid[i]);
		if (st != EXITED(0) && !why[0])
			snprintf(why, len, "creator %d: wait status %s", i, t_status_str(st, t_b1_));
	}
	for (int i = 0; i < started && !why[0]; i++)
		if (cr[i].err || cr[i].made != n || cr[i].stuck)
			snprintf(why, len, "creator %d: made %d of %d, clone error %ld, %d slots "
				 "never released", i, cr[i].made, n, cr[i].err, cr[i].stuck);
	return why[0] ? -1 : 0;
}

static long parked_now(const struct thr_kstat *k)
{
	return (long)(k->parked - k->freed - k->reused);
}

static int cache_index(const struct thr_kstat *k, const char *name)
{
	for (int i = 0; i < k->ncaches; i++)
		if (strcmp(k->cache[i].name, name) == 0)
			return i;
	return -1;
}

/* Do the books of k1 balance against k0 (see the top)? 0, or -1 with the
 * first difference in why. Caches are listed in the same order in both. */
static int books(const struct thr_kstat *k0, const struct thr_kstat *k1, char *why, size_t len)
{
	long dp = parked_now(k1) - parked_now(k0), pages = 0;
	int ti = cache_index(k0, "task"), ki = cache_index(k0, "kstack");

	why[0] = 0;
	if (ti < 0 || ki < 0 || k1->ncaches != k0->ncaches) {
		snprintf(why, len, "/proc/kstat: no task or kstack cache, or %d caches then %d",
			 k0->ncaches, k1->ncaches);
		return -1;
	}
	for (int i = 0; i < k0->ncaches; i++) {
		long di = (long)(k1->cache[i].inuse - k0->cache[i].inuse);
		long ds = (long)(k1->cache[i].slabs - k0->cache[i].slabs);
		long want = i == ti || i == ki ? dp : 0;
		if (strcmp(k0->cache[i].name, k1->cache[i].name) != 0) {
			snprintf(why, len, "cache %d is %s, then %s", i, k0->cache[i].name,
				 k1->cache[i].name);
			return -1;
		}
		if (di != want) {
			snprintf(why, len, "cache %s: inuse %lu -> %lu (%+ld), want %+ld: "
				 "parked now %ld -> %ld", k0->cache[i].name, k0->cache[i].inuse,
				 k1->cache[i].inuse, di, want, parked_now(k0), parked_now(k1));
			return -1;
		}
		if (i == ki && ds != di) {
			snprintf(why, len, "cache kstack: slabs %+ld, inuse %+ld: one stack a slab",
				 ds, di);
			return -1;
		}
		pages += (long)(k1->cache[i].pages - k0->cache[i].pages);
	}
	pages += (long)(k1->self_rss - k0->self_rss);
	if ((long)(k0->frames_free - k1->frames_free) != pages) {
		snprintf(why, len, "frames_free %lu -> %lu (%+ld), want %+ld (the caches' and our own pages gained)",
			 k0->frames_free, k1->frames_free,
			 (long)(k1->frames_free - k0->frames_free), -pages);
		return -1;
	}
	return 0;
}

static unsigned long inuse(const struct thr_kstat *k, const char *name)
{
	int i = cache_index(k, name);

	return i < 0 ? (unsigned long)-1 : k->cache[i].inuse;
}

/* Until everything of a storm is gone: no more tasks than before, and
 * every thread parked (its RELEASE_VM word is zeroed before it parks).
 * Then, with k0 (why != NULL): until the books balance against it. For
 * the first snapshot (why == NULL): until two snapshots SETTLE_MS apart
 * agree and the task and kstack caches hold as many objects as each
 * other (task_alloc and task_free take and give one of each). The wait
 * matters: /proc/kstat is not one atomic snapshot, and an exit counts its
 * park and free before it frees (kernel/exit.c), then frees the kstack
 * before the task (kernel/task.c), each under its cache's lock; a CPU
 * that the host stops there for a while (QEMU's CPUs are host threads)
 * shows as objects in use that the counters say are gone. Returns 0,
 * 1 if it never settled within 10 s, or -errno. */
#define SETTLE_MS 20

static long settle(struct thr_kstat *k, const struct thr_kstat *k0, unsigned long parked,
		   char *why, size_t len)
{
	static struct thr_kstat prev;
	long long end = thr_now_ns() + 10000000000ll;
	bool have_prev = false;
	long r;

	while ((r = thr_kstat(k)) == 0) {
		if (k->parked == parked && k->tasks == k0->tasks) {
			if (why ? books(k0, k, why, len) == 0
				: have_prev && !memcmp(&prev, k, sizeof(*k)) &&
				  inuse(k, "task") == inuse(k, "kstack"))
				return 0;
			have_prev = true;
			prev = *k;
		}
		if (thr_now_ns() > end)
			return 1;
		if (why)
			raw_sched_yield();
		else
			thr_sleep_ms(SETTLE_MS);
	}
	return r;
}

TEST(clone_exit_storm_all_cpus)
{
	static struct thr_kstat kb, k0, k1;
	static char why[200];
	int cpus_creators = 0, cpus_threads = 0, ran = 0;

	memset((void *)where, 0, sizeof(where));
	EXPECT_EQ(thr_kstat(&kb), 0);
	EXPECT(run_storm(WARM_PER_CREATOR, why, sizeof(why)) == 0, "warm-up: %s", why);
	long r = settle(&k0, &kb, kb.parked + CREATORS * WARM_PER_CREATOR, NULL, 0);
	EXPECT(r == 0, "after the warm-up: %s: +%lu parked (want +%d), %lu tasks (want %lu), "
	       "task inuse %lu, kstack inuse %lu", r < 0 ? "/proc/kstat" : "never settled",
	       k0.parked - kb.parked, CREATORS * WARM_PER_CREATOR, k0.tasks, kb.tasks,
	       inuse(&k0, "task"), inuse(&k0, "kstack"));

	memset((void *)where, 0, sizeof(where));
	long long t0 = thr_now_ns();
	EXPECT(run_storm(PER_CREATOR, why, sizeof(why)) == 0, "storm: %s", why);
	long long ms = (thr_now_ns() - t0) / 1000000;
	r = settle(&k1, &k0, k0.parked + CREATORS * PER_CREATOR, why, sizeof(why));
	EXPECT(r >= 0, "/proc/kstat: %ld", r);   /* if it never settled: see below */

	struct smp_cpuset all = { 0, { 0 } };
	for (int i = 0; i < CREATORS; i++)
		for (int j = 0; j < cr[i].cpus.n && j < SMP_MAX_CPUS; j++)
			smp_cpuset_add(&all, cr[i].cpus.base[j]);
	cpus_creators = all.n;
	for (int i = 0; i <= SMP_MAX_CPUS; i++)
		if (where[i].base) {
			cpus_threads++;
			ran += where[i].n;
		}
	long dslabs = 0;
	for (int i = 0; i < k0.ncaches && i < k1.ncaches; i++)
		dslabs += (long)(k1.cache[i].slabs - k0.cache[i].slabs);
	printf("  t_smp_storm: %d cpus: %d threads in %lld ms; creators ran on %d CPUs, the "
	       "threads on %d; task cache: +%lu parked, +%lu freed, +%lu reused, parked now "
	       "%ld -> %ld; slabs %+ld, frames_free %+ld\n", ncpus, CREATORS * PER_CREATOR, ms,
	       cpus_creators, cpus_threads, k1.parked - k0.parked, k1.freed - k0.freed,
	       k1.reused - k0.reused, parked_now(&k0), parked_now(&k1), dslabs,
	       (long)(k1.frames_free - k0.frames_free));

	EXPECT_EQ(k1.parked - k0.parked, CREATORS * PER_CREATOR);
	EXPECT_EQ(k1.tasks, k0.tasks);
	EXPECT_EQ(ran, CREATORS * PER_CREATOR);
	EXPECT(parked_now(&k0) >= 1 && parked_now(&k0) <= ncpus && parked_now(&k1) >= 1 &&
	       parked_now(&k1) <= ncpus, "parked now: %ld before, %ld after: want 1 to %d "
	       "(one slot a CPU, and the last exit parks)", parked_now(&k0), parked_now(&k1),
	       ncpus);
	EXPECT(books(&k0, &k1, why, sizeof(why)) == 0, "%s", why);
	EXPECT(k1.freed > k0.freed && k1.reused > k0.reused, "task cache: freed +%lu, "
	       "reused +%lu: both must have been used", k1.freed - k0.freed,
	       k1.reused - k0.reused);
	EXPECT(cpus_threads == ncpus, "the %d threads ran on %d of %d CPUs",
	       CREATORS * PER_CREATOR, cpus_threads, ncpus);
	EXPECT(cpus_creators >= (ncpus < 2 ? ncpus : 2), "the creators all ran on one of %d "
	       "CPUs", ncpus);
}

int main(void)
{
	ncpus = smp_ncpus();
	stacks = thr_map(CREATORS * SLOTS * TSTACK);
	if (ncpus < 1 || ncpus > SMP_MAX_CPUS || !stacks) {
		printf("FAIL t_smp_storm.setup: counting the CPUs: %d; stacks %p\n", ncpus,
		       (void *)stacks);
		return 1;
	}
	/* Touched now, not between the snapshots. */
	memset(smp_stacks, 0, sizeof(smp_stacks));
	memset(thr_procbuf, 0, sizeof(thr_procbuf));
	RUN(clone_exit_storm_all_cpus);
	return t_exit_code();
}
