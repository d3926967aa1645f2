/* user/bin/bench_pt.c - the "Userland" benchmarks: what threads cost
 * through the libc and the pthreads library (user/lib/pthread*.c), booted
 * as init by tools/bench.sh (`make bench`) after /bin/bench, at -smp 1
 * and at -smp 4.
 *
 * Where /bin/bench (user/bin/bench.c) times the bare system calls, every
 * thread here is a pthread_create, every yield the libc's sched_yield,
 * every futex call the library's futex_wait/futex_wake (user/lib/futex.h).
 * The exceptions are the rows that have no library call: the raw clone
 * with an exit signal (bench_clone, user/bench/sys.h), fork (sys.h's
 * sys_fork_exit, whose child touches nothing) and set_thread_area.
 *
 * Ticks are rdtsc: under QEMU -icount shift=0, guest instructions. Each
 * row is one warm-up run and RUNS runs (user/bench/rows.h), the median
 * shown; the 100,000-thread row is one run (it is the run). docs/
 * benchmarks.md, "Userland benchmarks (pthreads)", explains each row.
 *
 * "No system call" for the mutex: this program defines __futex, which the
 * library then uses for every futex call (the library's is weak,
 * pthread_futex.c), and counts the calls; the mutex row must see none.
 * The table also shows the bare getpid beside it: an uncontended
 * lock+unlock cheaper than one system call cannot contain one. */
#include "stdio.h"
#include "string.h"
#include "raw.h"
#include "pthread.h"
#include "futex.h"
#include "sched.h"
#include "user/bench/sys.h"
#include "user/bench/rows.h"
#include "user/bench/common.h"

/* The library's count of running threads (pthread_create.c): a thread
 * has decremented it just before its SYS_exit. Read, never written. */
extern volatile int __pthread_nthreads;

static volatile int futex_calls;

long __futex(volatile int *uaddr, int op, int val, const struct timespec *timeout)
{
	__atomic_add_fetch(&futex_calls, 1, __ATOMIC_RELAXED);
	return raw_futex((int *)uaddr, op, val, timeout);
}

/* Waits (yielding) until at most n threads run; false after DEADLINE. */
static bool wait_threads(int n)
{
	uint64_t t0 = rdtsc();

	while (__pthread_nthreads > n) {
		if (rdtsc() - t0 > DEADLINE)
			return false;
		sched_yield();
	}
	return true;
}

static void *nothing(void *arg)
{
	return arg;
}

static pthread_attr_t detached;

/* ---- pthread create+exit, detached ---- */

static uint32_t bench_detached(struct row *r, int n)
{
	int base = __pthread_nthreads, e;
	uint64_t t0, t1;
	pthread_t t;

	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		if ((e = pthread_create(&t, &detached, nothing, NULL)) != 0) {
			fail(r, "pthread_create = %d", e);
			return 0;
		}
		if (!wait_threads(base)) {
			fail(r, "a detached thread did not exit");
			return 0;
		}
	}
	t1 = rdtsc();
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- pthread_create + pthread_join ---- */

static uint32_t bench_join(struct row *r, int n)
{
	uint64_t t0, t1;
	pthread_t t;
	void *res;
	int e;

	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		if ((e = pthread_create(&t, NULL, nothing, (void *)(uintptr_t)(i + 1))) != 0) {
			fail(r, "pthread_create = %d", e);
			return 0;
		}
		if ((e = pthread_join(t, &res)) != 0 || res != (void *)(uintptr_t)(i + 1)) {
			fail(r, "pthread_join = %d, result %p", e, res);
			return 0;
		}
	}
	t1 = rdtsc();
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- clone(CLONE_VM | SIGCHLD) + exit + wait4 ---- */

static uint8_t child_stack[2048] __attribute__((aligned(16)));

static uint32_t bench_sigchld(struct row *r, int n)
{
	uint64_t t0, t1;

	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		if (!reap_child(r, "clone", bench_clone(CLONE_VM | SIGCHLD,
				child_stack + sizeof(child_stack), NULL, NULL, NULL, NULL)))
			return 0;
	t1 = rdtsc();
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- the partner thread of the two ping-pongs below ---- */

/* Starts fn as the partner thread t; false after fail(). */
static bool partner_start(struct row *r, pthread_t *t, void *(*fn)(void *))
{
	int e = pthread_create(t, NULL, fn, NULL);

	if (e != 0)
		fail(r, "pthread_create = %d", e);
	return e == 0;
}

/* Waits for the partner thread t to end; false after fail(). */
static bool partner_join(struct row *r, pthread_t t)
{
	int e = pthread_join(t, NULL);

	if (e != 0)
		fail(r, "pthread_join = %d", e);
	return e == 0;
}

/* ---- sched_yield ping-pong ---- */

static volatile int ystop, ystarted;
static volatile uint32_t ycount;

static void *yielder(void *arg)
{
	ystarted = 1;
	while (!ystop) {
		ycount++;
		sched_yield();
	}
	return arg;
}

static uint32_t bench_yield(struct row *r, int n)
{
	uint32_t c0, c1;
	uint64_t t0, t1;
	pthread_t t;

	ystop = ystarted = 0;
	if (!partner_start(r, &t, yielder))
		return 0;
	while (!ystarted)
		sched_yield();
	c0 = ycount;
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		sched_yield();
	t1 = rdtsc();
	c1 = ycount;
	ystop = 1;
	if (!partner_join(r, t))
		return 0;
	if (c1 - c0 < (uint32_t)n / 2) {
		fail(r, "the partner yielded %u times during %d yields", c1 - c0, n);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (n + (c1 - c0)));
}

/* ---- futex ping-pong: each thread waits on its own word ---- */

static volatile int ping, pong;

static void *ponger(void *arg)
{
	for (;;) {
		while (pong == 0)
			futex_wait(&pong, 0, NULL);
		if (pong == 2)
			return arg;
		pong = 0;
		ping = 1;
		futex_wake(&ping, 1);
	}
}

static uint32_t bench_futex(struct row *r, int n)
{
	uint64_t t0, t1;
	pthread_t t;

	ping = pong = 0;
	if (!partner_start(r, &t, ponger))
		return 0;
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		pong = 1;
		futex_wake(&pong, 1);
		while (ping == 0)
			futex_wait(&ping, 0, NULL);
		ping = 0;
	}
	t1 = rdtsc();
	pong = 2;
	futex_wake(&pong, 1);
	if (!partner_join(r, t))
		return 0;
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- set_thread_area + %gs reload: the main thread's own entry, its
 * own base, so the library's %gs:0 (the TCB) stays as it was ---- */

static uint32_t bench_tls(struct row *r, int n)
{
	struct user_desc u;
	uint32_t sel;
	uint64_t t0, t1;
	long e;
	void *seen;

	__asm__ volatile("movl %%gs, %0" : "=r"(sel));
	memset(&u, 0, sizeof(u));
	u.entry_number = sel >> 3;
	if ((e = raw_get_thread_area(&u)) < 0) {
		fail(r, "get_thread_area(%u) = %ld", sel >> 3, e);
		return 0;
	}
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		sys_set_thread_area(&u);
		__asm__ volatile("movl %0, %%gs" : : "r"(sel));
	}
	t1 = rdtsc();
	__asm__ volatile("movl %%gs:0, %0" : "=r"(seen));
	if (seen != (void *)pthread_self()) {
		fail(r, "%%gs:0 reads %p, not the TCB %p", seen, (void *)pthread_self());
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- uncontended mutex ---- */

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int mutex_futex_calls = -1;      /* during all the runs */

static uint32_t bench_mutex(struct row *r, int n)
{
	uint64_t t0, t1;
	int f0 = futex_calls;

	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		pthread_mutex_lock(&mutex);
		pthread_mutex_unlock(&mutex);
	}
	t1 = rdtsc();
	if (mutex_futex_calls < 0)
		mutex_futex_calls = 0;
	mutex_futex_calls += futex_calls - f0;
	if (mutex.lock != 0) {
		fail(r, "the mutex word is %d after unlock", mutex.lock);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- threads alive: detached pthreads asleep on one futex word ---- */

static volatile int go, asleep;
static int nsleepers, sleepers_left = -1;
static pthread_attr_t small;            /* detached, PTHREAD_STACK_MIN */

static void *sleeper(void *arg)
{
	__atomic_add_fetch(&asleep, 1, __ATOMIC_SEQ_CST);
	while (!go)
		futex_wait(&go, 0, NULL);
	return arg;
}

static bool sleepers_up_to(struct row *r, int n)
{
	pthread_t t;
	uint64_t t0;
	int e;

	while (nsleepers < n) {
		if ((e = pthread_create(&t, &small, sleeper, NULL)) != 0) {
			fail(r, "pthread_create = %d with %d threads alive", e, nsleepers);
			return false;
		}
		nsleepers++;
	}
	for (t0 = rdtsc(); asleep < n; sched_yield())
		if (rdtsc() - t0 > DEADLINE) {
			fail(r, "%d of %d threads went to sleep", asleep, n);
			return false;
		}
	return true;
}

static void sleepers_end(void)
{
	go = 1;
	futex_wake(&go, 0x7fffffff);
	for (int i = 0; i < 20 && !wait_threads(1); i++)
		;
	sleepers_left = __pthread_nthreads - 1;
	pthread_reclaim_np();
	printf("bench_pt: %d sleeping threads woken, %d of them did not exit\n",
	       nsleepers, sleepers_left);
}

/* ---- 100,000 threads in one run, at most MAX_ALIVE at once ---- */

#define MANY 100000
#define MAX_ALIVE 50
static uint64_t many_total;
static int many_max_alive, many_done;
static const char *many_error;

static void bench_many(void)
{
	int base = __pthread_nthreads, e, alive;
	uint64_t t0;
	pthread_t t;

	printf("bench_pt: running %d threads created and destroyed\n", MANY);
	t0 = rdtsc();
	for (int i = 0; i < MANY; i++) {
		while (__pthread_nthreads - base >= MAX_ALIVE)
			sched_yield();
		if ((e = pthread_create(&t, &detached, nothing, NULL)) != 0) {
			static char b[64];
			snprintf(b, sizeof(b), "pthread_create = %d at thread %d", e, i);
			many_error = b;
			return;
		}
		many_done++;
		alive = __pthread_nthreads - base;
		if (alive > many_max_alive)
			many_max_alive = alive;
	}
	if (!wait_threads(base)) {
		many_error = "threads still running at the end";
		return;
	}
	pthread_reclaim_np();
	many_total = rdtsc() - t0;
	printf("bench_pt: %d threads: %llu ticks, at most %d alive\n", MANY, many_total,
	       many_max_alive);
}

/* ---- main ---- */

enum { R_DET, R_JOIN, R_SIGCHLD, R_FORK, R_YIELD, R_FUTEX, R_TLS, R_MUTEX, R_NULL,
       R_A10, R_A100, R_A1000, R_A10000, NROWS };

static struct row rows[NROWS] = {
	[R_DET]     = { "pthread create+exit (detached)", "-", 0, {0}, 0, 0 },
	[R_JOIN]    = { "pthread_create + pthread_join", "<= 13000", 13000, {0}, 0, 0 },
	[R_SIGCHLD] = { "clone(VM|SIGCHLD)+exit+wait4", "-", 0, {0}, 0, 0 },
	[R_FORK]    = { "fork+exit+wait4", "-", 0, {0}, 0, 0 },
	[R_YIELD]   = { "sched_yield ping-pong, 2 threads (per yield)", "-", 0, {0}, 0, 0 },
	[R_FUTEX]   = { "futex ping-pong, 2 threads (per round trip)", "-", 0, {0}, 0, 0 },
	[R_TLS]     = { "set_thread_area + %gs reload", "-", 0, {0}, 0, 0 },
	[R_MUTEX]   = { "pthread_mutex_lock+unlock, uncontended", "<= 40", 40, {0}, 0, 0 },
	[R_NULL]    = { "getpid (one system call, for reference)", "-", 0, {0}, 0, 0 },
	[R_A10]     = { "create+exit (detached), 10 threads alive", "-", 0, {0}, 0, 0 },
	[R_A100]    = { "create+exit (detached), 100 threads alive", "-", 0, {0}, 0, 0 },
	[R_A1000]   = { "create+exit (detached), 1000 threads alive", "-", 0, {0}, 0, 0 },
	[R_A10000]  = { "create+exit (detached), 10000 threads alive", "-", 0, {0}, 0, 0 },
};

static const int alive_levels[4] = { 10, 100, 1000, 10000 };

int main(void)
{
	int nfail;

	printf("bench_pt: pid %ld, %d runs per benchmark (after one warm-up run)\n",
	       raw_getpid(), RUNS);
	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	pthread_attr_init(&small);
	pthread_attr_setdetachstate(&small, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&small, PTHREAD_STACK_MIN);

	measure(&rows[R_DET], bench_detached, 200);
	measure(&rows[R_JOIN], bench_join, 200);
	measure(&rows[R_SIGCHLD], bench_sigchld, 100);
	measure(&rows[R_FORK], bench_fork, 100);
	measure(&rows[R_YIELD], bench_yield, 1000);
	measure(&rows[R_FUTEX], bench_futex, 1000);
	measure(&rows[R_TLS], bench_tls, 1000);
	measure(&rows[R_MUTEX], bench_mutex, 10000);
	measure(&rows[R_NULL], bench_null, 1000);
	for (int i = 0; i < 4; i++) {
		struct row *r = &rows[R_A10 + i];
		printf("bench_pt: bringing the sleeping threads up to %d\n", alive_levels[i]);
		if (!sleepers_up_to(r, alive_levels[i]))
			break;
		measure(r, bench_detached, 100);
	}
	sleepers_end();
	bench_many();

	printf("==== bench_pt table ====\n");
	print_table_head();
	for (int i = 0; i < NROWS; i++) {
		print_row(&rows[i]);
		if (i == R_MUTEX && !rows[i].error && rows[i].median) {
			bool ok = mutex_futex_calls == 0 && rows[R_MUTEX].median < rows[R_NULL].median;
			printf("%-46s %9d  %-8s  %-7s  futex calls counted by __futex over all %d runs\n",
			       "  system calls in those lock+unlock", mutex_futex_calls, "0",
			       ok ? "met" : "NOT MET", RUNS + 1);
		}
	}
	if (many_error) {
		printf("%-46s %9s  %-8s  FAILED: %s\n", "100000 threads, <= 50 alive: per thread",
		       "-", "-", many_error);
		nerr++;
	} else {
		printf("%-46s %9llu  %-8s  %-7s  total %llu ticks, at most %d alive, one run\n",
		       "100000 threads, <= 50 alive: per thread", many_total / MANY, "-", "-",
		       many_total, many_max_alive);
	}
	print_sleepers_end(sleepers_left, nsleepers);
	printf("==== end of bench_pt table ====\n");
	nfail = nerr || sleepers_left > 0;
	return nfail ? 2 : 0;
}
