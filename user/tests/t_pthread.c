/* user/tests/t_pthread.c - the thread library (user/lib/pthread*.c):
 * TLS for the main thread, pthread_self/equal, 1,000 threads created and
 * joined, __thread isolation across 64 threads (.tdata and .tbss, the
 * initial values, a 64-byte aligned variable), errno per thread, join and
 * detach errors, detached threads whose stacks are reclaimed (the free
 * frame count back where it was). Stacks and the guard page, pthread_exit
 * from main and fork are t_pthread_proc's; fork while threads hold the
 * library's locks and pthread_atfork t_pthread_fork's; mutexes,
 * condition variables, barriers, once and keys t_pthread_sync's. Booted
 * as init. */
#define T_PROG "t_pthread"
#include "t.h"
#include "thr.h"
#include "segs.h"
#include "pthread.h"
#include "pthread_impl.h"      /* struct pthread's tid, atomic_load */
#include "sched.h"
#include "unistd.h"

/* Yields until only the main thread is running (the others have at
 * least queued their stacks); true if so within 20 s. */
static bool wait_only_main(void)
{
	long long end = thr_now_ns() + 20000000000ll;
	struct pthread_stats_np s;

	for (pthread_stats_np(&s); s.running != 1 && thr_now_ns() < end; pthread_stats_np(&s))
		sched_yield();
	return s.running == 1;
}

/* ---- TLS ---- */

static __thread int tdata_var = 42;             /* .tdata */
static __thread const char *tdata_str = "initial";
static __thread int tbss_var;                   /* .tbss */
static __thread char tbss_buf[100];
static __thread int aligned_var __attribute__((aligned(64))) = 7;

static void *gs0(void)
{
	return (void *)gs_word();
}

/* 0 if this thread sees the initial values of every __thread variable. */
static int tls_initial(void)
{
	int bad = 0;

	bad |= tdata_var != 42;
	bad |= (strcmp(tdata_str, "initial") != 0) << 1;
	bad |= (tbss_var != 0) << 2;
	for (unsigned i = 0; i < sizeof(tbss_buf); i++)
		bad |= (tbss_buf[i] != 0) << 3;
	bad |= (aligned_var != 7) << 4;
	bad |= (((uintptr_t)&aligned_var & 63) != 0) << 5;
	return bad;
}

TEST(main_thread_has_tls)
{
	struct user_desc d;

	EXPECT_EQ(tls_initial(), 0);
	EXPECT(pthread_self() != NULL, "pthread_self() is NULL");
	EXPECT(gs0() == (void *)pthread_self(), "%%gs:0 = %p, pthread_self() = %p",
	       gs0(), (void *)pthread_self());
	/* One of the three TLS slots, RPL 3, in the GDT. */
	unsigned sel = get_gs();
	EXPECT(sel == 0x33 || sel == 0x3b || sel == 0x43, "%%gs = %#x", sel);
	memset(&d, 0, sizeof(d));
	d.entry_number = sel >> 3;
	EXPECT_EQ(raw_get_thread_area(&d), 0);
	EXPECT_EQ(d.base_addr, (uintptr_t)pthread_self());
	EXPECT(d.seg_32bit && d.limit_in_pages && d.limit == 0xfffff,
	       "descriptor limit %#x pages %u 32bit %u", d.limit, d.limit_in_pages, d.seg_32bit);
	/* The variables sit just below the TCB (variant II). */
	uintptr_t tp = (uintptr_t)pthread_self();
	EXPECT((uintptr_t)&tdata_var < tp && (uintptr_t)&tdata_var > tp - 4096,
	       "&tdata_var %p, tp %#lx", (void *)&tdata_var, (unsigned long)tp);
	tdata_var = 43;
	tbss_var = 5;
	EXPECT_EQ(tdata_var, 43);
	EXPECT_EQ(tbss_var, 5);
	tdata_var = 42;
	tbss_var = 0;
}

/* ---- self, equal, join results ---- */

static void *return_self(void *arg)
{
	(void)arg;
	return pthread_self();
}

static volatile bool really_exit = true;

/* pthread_exit from ten calls down. */
static int deep_exit(int n, void *v)
{
	if (n == 0) {
		if (really_exit)
			pthread_exit(v);
		return 0;
	}
	return deep_exit(n - 1, v) + 1;
}

static void *exit_from_deep(void *arg)
{
	return (void *)(uintptr_t)deep_exit(10, arg);
}

TEST(self_equal_and_results)
{
	pthread_t t, u;
	void *r = NULL;

	EXPECT(pthread_equal(pthread_self(), pthread_self()), "self != self");
	EXPECT_EQ(pthread_create(&t, NULL, return_self, NULL), 0);
	EXPECT_EQ(pthread_join(t, &r), 0);
	EXPECT(pthread_equal(r, t), "the thread's pthread_self %p, create gave %p", r, (void *)t);
	EXPECT(!pthread_equal(t, pthread_self()), "thread == main");
	EXPECT_EQ(pthread_create(&u, NULL, exit_from_deep, (void *)0x5eed), 0);
	EXPECT_EQ(pthread_join(u, &r), 0);
	EXPECT(r == (void *)0x5eed, "pthread_exit value %p", r);
	EXPECT_EQ(pthread_join(pthread_self(), NULL), EDEADLK);
}

/* ---- 1,000 threads ---- */

#define MANY 1000
static pthread_t many[MANY];
static volatile int many_ran;

static void *count_and_return(void *arg)
{
	__atomic_add_fetch(&many_ran, 1, __ATOMIC_SEQ_CST);
	return (void *)((uintptr_t)arg * 3 + 1);
}

TEST(create_and_join_1000_threads)
{
	int n, bad = 0;
	struct pthread_stats_np s;

	many_ran = 0;
	for (n = 0; n < MANY; n++) {
		int e = pthread_create(&many[n], NULL, count_and_return, (void *)(uintptr_t)n);
		if (e)
			FAIL("pthread_create #%d: %d", n, e);
	}
	for (int i = 0; i < n; i++) {
		void *r = NULL;
		int e = pthread_join(many[i], &r);
		if (e || r != (void *)((uintptr_t)i * 3 + 1))
			bad++;
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(many_ran, MANY);
	pthread_stats_np(&s);
	EXPECT_EQ(s.running, 1);
	EXPECT(s.cached <= PTHREAD_STACK_CACHE, "%d stacks cached", s.cached);
	EXPECT_EQ(pthread_reclaim_np() >= 0, 1);
	pthread_stats_np(&s);
	EXPECT_EQ(s.exited, 0);
	EXPECT_EQ(s.cached, 0);
}

/* ---- __thread isolation ---- */

#define NTLS 64
static pthread_barrier_t tls_bar;

struct tls_result {
	int initial;            /* tls_initial() at start */
	int later;              /* own values still there after everyone wrote */
	uintptr_t addr;         /* &tdata_var */
	unsigned gs;
};
static struct tls_result tls_res[NTLS];

static void *tls_worker(void *arg)
{
	int i = (int)(uintptr_t)arg;
	struct tls_result *r = &tls_res[i];

	r->initial = tls_initial();
	r->addr = (uintptr_t)&tdata_var;
	r->gs = get_gs();
	tdata_var = 1000 + i;
	tdata_str = "mine";
	tbss_var = 2000 + i;
	memset(tbss_buf, i, sizeof(tbss_buf));
	aligned_var = 3000 + i;
	pthread_barrier_wait(&tls_bar);         /* everyone has written */
	for (int k = 0; k < 3; k++)
		sched_yield();
	r->later = tdata_var != 1000 + i || tbss_var != 2000 + i || aligned_var != 3000 + i ||
		strcmp(tdata_str, "mine") != 0;
	for (unsigned k = 0; k < sizeof(tbss_buf); k++)
		r->later |= tbss_buf[k] != (char)i;
	return NULL;
}

TEST(thread_locals_are_per_thread_64_threads)
{
	pthread_t t[NTLS];

	EXPECT_EQ(pthread_barrier_init(&tls_bar, NULL, NTLS), 0);
	for (int i = 0; i < NTLS; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, tls_worker, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < NTLS; i++)
		EXPECT_EQ(pthread_join(t[i], NULL), 0);
	for (int i = 0; i < NTLS; i++) {
		EXPECT(tls_res[i].initial == 0, "thread %d saw non-initial TLS (bits %#x)", i,
		       tls_res[i].initial);
		EXPECT(tls_res[i].later == 0, "thread %d lost its own TLS values", i);
		EXPECT(tls_res[i].gs == get_gs(), "thread %d %%gs %#x, main %#x", i,
		       tls_res[i].gs, get_gs());
		for (int j = 0; j < i; j++)
			EXPECT(tls_res[i].addr != tls_res[j].addr, "threads %d and %d share "
			       "&tdata_var %#lx", i, j, (unsigned long)tls_res[i].addr);
	}
	EXPECT_EQ(tls_initial(), 0);            /* main's own are untouched */
	EXPECT_EQ(pthread_barrier_destroy(&tls_bar), 0);
}

/* ---- errno ---- */

static pthread_barrier_t errno_bar;

static void *errno_worker(void *arg)
{
	int want = (int)(uintptr_t)arg;

	errno = want;
	pthread_barrier_wait(&errno_bar);
	if (want == EBADF && close(-1) != -1)   /* sets errno here only */
		return (void *)1;
	pthread_barrier_wait(&errno_bar);
	return (void *)(uintptr_t)(errno == want ? 0 : 2);
}

TEST(errno_is_per_thread)
{
	pthread_t a, b;
	void *ra = NULL, *rb = NULL;

	errno = 0;
	EXPECT_EQ(pthread_barrier_init(&errno_bar, NULL, 3), 0);
	EXPECT_EQ(pthread_create(&a, NULL, errno_worker, (void *)(uintptr_t)EBADF), 0);
	EXPECT_EQ(pthread_create(&b, NULL, errno_worker, (void *)(uintptr_t)ENOENT), 0);
	pthread_barrier_wait(&errno_bar);
	pthread_barrier_wait(&errno_bar);
	EXPECT_EQ(pthread_join(a, &ra), 0);
	EXPECT_EQ(pthread_join(b, &rb), 0);
	EXPECT(ra == NULL && rb == NULL, "errno workers: %p %p", ra, rb);
	EXPECT_EQ(errno, 0);
	EXPECT_EQ(close(-1), -1);
	EXPECT_EQ(errno, EBADF);
}

/* ---- join and detach ---- */

static volatile int hold;

static void *wait_hold(void *arg)
{
	(void)arg;
	while (atomic_load(&hold))
		raw_futex((int *)&hold, FUTEX_WAIT, 1, NULL);
	return (void *)7;
}

/* Joins arg and returns what it returned. */
static void *join_arg(void *arg)
{
	void *r = NULL;

	return pthread_join(arg, &r) ? NULL : r;
}

static void let_go(void)
{
	atomic_store(&hold, 0);
	raw_futex((int *)&hold, FUTEX_WAKE, 0x7fffffff, NULL);
}

TEST(join_and_detach_errors)
{
	pthread_attr_t a;
	pthread_t t, j;
	void *r;
	int st;

	hold = 1;
	EXPECT_EQ(pthread_attr_init(&a), 0);
	EXPECT_EQ(pthread_attr_setdetachstate(&a, 5), EINVAL);
	EXPECT_EQ(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED), 0);
	EXPECT_EQ(pthread_attr_getdetachstate(&a, &st), 0);
	EXPECT_EQ(st, PTHREAD_CREATE_DETACHED);
	EXPECT_EQ(pthread_create(&t, &a, wait_hold, NULL), 0);
	EXPECT_EQ(pthread_join(t, NULL), EINVAL);       /* detached, still running */
	EXPECT_EQ(pthread_detach(t), EINVAL);

	EXPECT_EQ(pthread_create(&j, NULL, wait_hold, NULL), 0);
	EXPECT_EQ(pthread_detach(j), 0);                /* detached while running */
	EXPECT_EQ(pthread_join(j, NULL), EINVAL);
	let_go();
	EXPECT(wait_only_main(), "the detached threads did not finish");
	pthread_reclaim_np();                           /* both are gone now */
	EXPECT_EQ(pthread_join(t, NULL), ESRCH);
	EXPECT_EQ(pthread_detach(j), ESRCH);

	/* A thread being joined cannot be detached (the joiner frees it). */
	hold = 1;
	EXPECT_EQ(pthread_create(&t, NULL, wait_hold, NULL), 0);
	EXPECT_EQ(pthread_create(&j, NULL, join_arg, t), 0);
	EXPECT(thr_wait_word((volatile int *)&t->joiner, (int)(uintptr_t)j, 10000),
	       "the second thread never started to join");
	EXPECT_EQ(pthread_detach(t), EINVAL);
	EXPECT_EQ(pthread_join(t, NULL), EINVAL);       /* one joiner only */
	let_go();
	EXPECT_EQ(pthread_join(j, &r), 0);
	EXPECT(r == (void *)7, "the joiner got %p", r);

	/* A joinable thread that has finished: detach frees it. */
	hold = 0;
	EXPECT_EQ(pthread_create(&t, NULL, wait_hold, NULL), 0);
	EXPECT(wait_only_main(), "the thread did not finish");
	EXPECT_EQ(pthread_detach(t), 0);
	pthread_reclaim_np();
	EXPECT_EQ(pthread_join(t, &r), ESRCH);
	EXPECT_EQ(pthread_attr_destroy(&a), 0);
}

/* ---- detached threads give their memory back ---- */

#define DETACHED 200
static volatile int det_done;
static uintptr_t det_tcb[DETACHED];     /* each thread's TCB: in its mapping */

static void *det_worker(void *arg)
{
	volatile char buf[2048];                /* a little stack */
	int i = (int)(uintptr_t)arg;

	memset((void *)buf, i, sizeof(buf));
	det_tcb[i] = (uintptr_t)pthread_self();
	__atomic_add_fetch(&det_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static long detached_batch(int n)
{
	pthread_attr_t a;
	pthread_t t;

	det_done = 0;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < n; i++) {
		int e = pthread_create(&t, &a, det_worker, (void *)(uintptr_t)i);
		if (e)
			return -e;
	}
	if (!thr_wait_word(&det_done, n, 20000))
		return -ETIMEDOUT;
	/* Every one has done its work; wait until each has also queued its
	 * stack (pthread_reclaim_np then waits for the kernel). */
	return wait_only_main() ? 0 : -EBUSY;
}

/* How many distinct mappings the batch's TCBs name are still mapped:
 * FUTEX_WAKE on an unmapped word is -EFAULT (abi.md section 6). */
static int mapped_tcbs(int n)
{
	int mapped = 0;

	for (int i = 0; i < n; i++) {
		bool dup = false;
		for (int j = 0; j < i && !dup; j++)
			dup = det_tcb[j] == det_tcb[i];
		if (!dup && raw_futex((int *)det_tcb[i], FUTEX_WAKE, 1, NULL) != -EFAULT)
			mapped++;
	}
	return mapped;
}

/* An ordinary thread takes the kernel's parked task (per-CPU task cache,
 * clone-detached-A1) and wait4 frees it: as t_storm, so that the
 * kernel's books are comparable. */
static char drain_stack[8192] __attribute__((aligned(16)));
static int drain_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 0;
}

/* Drains this CPU's parked task, then waits (up to 5 s) until init's
 * main thread is the only task left. */
static long settle(struct thr_kstat *k)
{
	int st;
	long tid = thr_clone(CLONE_VM | SIGCHLD, drain_stack + sizeof(drain_stack), NULL, NULL,
			     drain_fn, NULL);
	long long end = thr_now_ns() + 5000000000ll;
	long r;

	if (tid > 0)
		raw_wait4((int)tid, &st, 0, NULL);
	while ((r = thr_kstat(k)) == 0 && k->tasks != 1 && thr_now_ns() < end)
		sched_yield();
	return r ? r : k->tasks == 1 ? 0 : -EBUSY;
}

TEST(detached_threads_stacks_are_reclaimed)
{
	struct thr_kstat k0, k2;
	struct pthread_stats_np s;
	long r;

	/* Warm up: the same batch once, so every page table, slab and
	 * mapping slot the measured batch needs exists already. */
	EXPECT_EQ(detached_batch(DETACHED), 0);
	/* Every warm-up thread gone, so that the kernel has zeroed each
	 * one's CLONE_RELEASE_VM word, before the reclaim: a stack still
	 * waiting for its zero would stay mapped, with its page table, until
	 * the measured reclaim below, which would then give back frames that
	 * were outside the sum before (seen: 2 more after, smp2). */
	EXPECT_EQ(settle(&k0), 0);
	pthread_reclaim_np();
	pthread_stats_np(&s);
	EXPECT(s.exited == 0 && s.cached == 0, "after the warm-up's reclaim: exited %d cached %d",
	       s.exited, s.cached);
	EXPECT_EQ(settle(&k0), 0);

	EXPECT((r = detached_batch(DETACHED)) == 0, "detached batch: %ld", r);
	EXPECT_EQ(det_done, DETACHED);
	/* Without a reclaim, at most PTHREAD_STACK_CACHE stacks are kept
	 * (a few more may still wait for the kernel's zero). */
	pthread_stats_np(&s);
	EXPECT(s.cached <= PTHREAD_STACK_CACHE, "%d cached", s.cached);
	EXPECT(mapped_tcbs(DETACHED) <= s.cached + s.exited, "%d mappings, %d cached, %d exited",
	       mapped_tcbs(DETACHED), s.cached, s.exited);

	/* After a reclaim the library holds nothing. */
	r = pthread_reclaim_np();
	EXPECT(r > 0, "pthread_reclaim_np unmapped %ld", r);
	pthread_stats_np(&s);
	EXPECT(s.exited == 0 && s.cached == 0 && s.cached_bytes == 0,
	       "after reclaim: exited %d cached %d", s.exited, s.cached);
	EXPECT_EQ(mapped_tcbs(DETACHED), 0);
	/* And the frames are back, exactly: free, in a cache's slabs or our
	 * own resident pages (thr_frames_outside_caches). Slab churn, a task
	 * parked on another CPU (settle empties only this CPU's slot) or a
	 * stack page touched for the first time moves frames between the
	 * three, not out of the sum; a leaked frame (a page table) does. The
	 * stacks themselves were checked above (mapped_tcbs). */
	EXPECT_EQ(settle(&k2), 0);
	printf("t_pthread: frames outside the caches %lu before, %lu after "
	       "(free %lu, %lu; own %lu, %lu)\n", thr_frames_outside_caches(&k0),
	       thr_frames_outside_caches(&k2), k0.frames_free, k2.frames_free, k0.self_rss,
	       k2.self_rss);
	EXPECT(thr_frames_outside_caches(&k2) == thr_frames_outside_caches(&k0),
	       "frames outside the caches %lu, before the batch %lu (free %lu, %lu before)",
	       thr_frames_outside_caches(&k2), thr_frames_outside_caches(&k0), k2.frames_free,
	       k0.frames_free);
}

int main(void)
{
	RUN(main_thread_has_tls);
	RUN(self_equal_and_results);
	RUN(create_and_join_1000_threads);
	RUN(thread_locals_are_per_thread_64_threads);
	RUN(errno_is_per_thread);
	RUN(join_and_detach_errors);
	RUN(detached_threads_stacks_are_reclaimed);
	return t_exit_code();
}
