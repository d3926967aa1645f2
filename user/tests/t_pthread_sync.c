/* user/tests/t_pthread_sync.c - the thread library's synchronisation:
 * mutexes (8 threads x 10,000 increments exact; no system call when
 * uncontended; trylock; the RECURSIVE and ERRORCHECK types), condition
 * variables (a bounded buffer carrying 10,000 items, checksummed; a
 * timed wait that times out on CLOCK_REALTIME and one that does not),
 * barriers (8 threads x 100 rounds, one serial thread per round),
 * pthread_once from 16 threads, keys with destructors (a thread's values
 * freed at its exit; ENOMEM with no memory for them). Booted as init.
 *
 * This program defines its own __futex (futex.h): the library's futex
 * calls all come through it, so the test can count them. */
#define T_PROG "t_pthread_sync"
#include "t.h"
#include "thr.h"
#include "pthread.h"
#include "futex.h"
#include "sched.h"
#include "time.h"
#include "stdlib.h"
#include "unistd.h"
#include "sys/mman.h"

static volatile int futex_calls;

long __futex(volatile int *uaddr, int op, int val, const struct timespec *timeout)
{
	__atomic_add_fetch(&futex_calls, 1, __ATOMIC_SEQ_CST);
	return raw_futex((int *)uaddr, op, val, timeout);
}

/* ---- mutexes ---- */

#define NMUTEX 8
#define ROUNDS 10000
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int counter;

static void *increment(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&counter_lock);
		int v = counter;        /* a read-modify-write that can lose */
		if ((i & 255) == 0)
			sched_yield();  /* ...while holding the lock: contention */
		counter = v + 1;
		pthread_mutex_unlock(&counter_lock);
	}
	return NULL;
}

TEST(mutex_counter_8_threads_x_10000_exact)
{
	pthread_t t[NMUTEX];

	long long end = thr_now_ns() + 10000000000ll;

	counter = 0;
	futex_calls = 0;
	/* Contention made sure of, not left to timing: on a loaded host the
	 * eight vCPUs may run one at a time, and each thread its 10,000
	 * rounds before the next starts. Main holds the lock until a thread
	 * has gone to the kernel to wait for it (__futex counts the call). */
	pthread_mutex_lock(&counter_lock);
	for (int i = 0; i < NMUTEX; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, increment, NULL), 0);
	while (futex_calls == 0 && thr_now_ns() < end)
		sched_yield();
	pthread_mutex_unlock(&counter_lock);
	for (int i = 0; i < NMUTEX; i++)
		EXPECT_EQ(pthread_join(t[i], NULL), 0);
	EXPECT_EQ(counter, NMUTEX * ROUNDS);
	EXPECT_EQ(counter_lock.lock, 0);
	EXPECT(futex_calls > 0, "no futex call at all: was there no contention?");
	printf("t_pthread_sync: %d futex calls for %d contended lock/unlock pairs\n",
	       futex_calls, NMUTEX * ROUNDS);
}

static void nothing(void)
{
}

TEST(uncontended_mutex_makes_no_system_call)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, r, e;
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&r, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&e, &a);
	futex_calls = 0;
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&m);
		EXPECT_EQ(m.lock, 1);           /* locked, nobody waits */
		pthread_mutex_unlock(&m);
		pthread_mutex_lock(&r);
		pthread_mutex_lock(&r);
		pthread_mutex_unlock(&r);
		pthread_mutex_unlock(&r);
		pthread_mutex_lock(&e);
		pthread_mutex_unlock(&e);
		EXPECT_EQ(pthread_mutex_trylock(&m), 0);
		pthread_mutex_unlock(&m);
	}
	EXPECT_EQ(futex_calls, 0);
	EXPECT_EQ(m.lock, 0);
	/* The cond and once fast paths too. */
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	EXPECT_EQ(pthread_cond_signal(&c), 0);
	EXPECT_EQ(pthread_cond_broadcast(&c), 0);
	EXPECT_EQ(futex_calls, 0);
	pthread_once(&once, nothing);
	int after_first = futex_calls;
	pthread_once(&once, nothing);
	EXPECT_EQ(futex_calls, after_first);
}

static void *try_from_other(void *arg)
{
	return (void *)(uintptr_t)pthread_mutex_trylock(arg);
}

static void *unlock_from_other(void *arg)
{
	return (void *)(uintptr_t)pthread_mutex_unlock(arg);
}

static int in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *r = (void *)-1;

	if (pthread_create(&t, NULL, fn, arg) || pthread_join(t, &r))
		return -1;
	return (int)(uintptr_t)r;
}

TEST(mutex_types_and_trylock)
{
	pthread_mutex_t n, r, e;
	pthread_mutexattr_t a;
	int type;

	EXPECT_EQ(pthread_mutexattr_init(&a), 0);
	EXPECT_EQ(pthread_mutexattr_settype(&a, 42), EINVAL);
	EXPECT_EQ(pthread_mutex_init(&n, NULL), 0);
	EXPECT_EQ(pthread_mutex_lock(&n), 0);
	EXPECT_EQ(pthread_mutex_trylock(&n), EBUSY);
	EXPECT_EQ(in_thread(try_from_other, &n), EBUSY);
	EXPECT_EQ(pthread_mutex_destroy(&n), EBUSY);
	EXPECT_EQ(pthread_mutex_unlock(&n), 0);
	EXPECT_EQ(pthread_mutex_destroy(&n), 0);

	EXPECT_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE), 0);
	EXPECT_EQ(pthread_mutexattr_gettype(&a, &type), 0);
	EXPECT_EQ(type, PTHREAD_MUTEX_RECURSIVE);
	EXPECT_EQ(pthread_mutex_init(&r, &a), 0);
	for (int i = 0; i < 5; i++)
		EXPECT_EQ(pthread_mutex_lock(&r), 0);
	EXPECT_EQ(pthread_mutex_trylock(&r), 0);
	EXPECT_EQ(in_thread(try_from_other, &r), EBUSY);
	EXPECT_EQ(in_thread(unlock_from_other, &r), EPERM);
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(pthread_mutex_unlock(&r), 0);
	EXPECT_EQ(pthread_mutex_unlock(&r), EPERM);
	EXPECT_EQ(in_thread(try_from_other, &r), 0);    /* the thread exits holding it */

	EXPECT_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK), 0);
	EXPECT_EQ(pthread_mutex_init(&e, &a), 0);
	EXPECT_EQ(pthread_mutex_lock(&e), 0);
	EXPECT_EQ(pthread_mutex_lock(&e), EDEADLK);
	EXPECT_EQ(pthread_mutex_trylock(&e), EBUSY);
	EXPECT_EQ(in_thread(unlock_from_other, &e), EPERM);
	EXPECT_EQ(pthread_mutex_unlock(&e), 0);
	EXPECT_EQ(pthread_mutex_unlock(&e), EPERM);
	EXPECT_EQ(pthread_mutexattr_destroy(&a), 0);
}

/* ---- condition variables ---- */

#define ITEMS 10000
#define SLOTS 8
#define NPROD 2
#define NCONS 3
static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static int buf[SLOTS], head, tail, used, produced_all;
static volatile int max_used;

static void *producer(void *arg)
{
	int first = (int)(uintptr_t)arg;

	for (int v = first; v < ITEMS; v += NPROD) {
		pthread_mutex_lock(&buf_lock);
		while (used == SLOTS)
			pthread_cond_wait(&not_full, &buf_lock);
		buf[tail] = v + 1;
		tail = (tail + 1) % SLOTS;
		if (++used > max_used)
			max_used = used;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&buf_lock);
	}
	return NULL;
}

struct tally { long long sum; int count; };

static void *consumer(void *arg)
{
	struct tally *t = arg;

	for (;;) {
		pthread_mutex_lock(&buf_lock);
		while (used == 0 && !produced_all)
			pthread_cond_wait(&not_empty, &buf_lock);
		if (used == 0) {                /* produced_all, and drained */
			pthread_mutex_unlock(&buf_lock);
			return NULL;
		}
		int v = buf[head];
		head = (head + 1) % SLOTS;
		used--;
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&buf_lock);
		t->sum += (long long)v * v;
		t->count++;
	}
}

TEST(cond_bounded_buffer_10000_items)
{
	pthread_t p[NPROD], c[NCONS];
	struct tally t[NCONS];
	long long sum = 0, want = 0;
	int count = 0;

	memset(t, 0, sizeof(t));
	for (int i = 0; i < NCONS; i++)
		EXPECT_EQ(pthread_create(&c[i], NULL, consumer, &t[i]), 0);
	for (int i = 0; i < NPROD; i++)
		EXPECT_EQ(pthread_create(&p[i], NULL, producer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < NPROD; i++)
		EXPECT_EQ(pthread_join(p[i], NULL), 0);
	pthread_mutex_lock(&buf_lock);
	produced_all = 1;
	pthread_cond_broadcast(&not_empty);
	pthread_mutex_unlock(&buf_lock);
	for (int i = 0; i < NCONS; i++) {
		EXPECT_EQ(pthread_join(c[i], NULL), 0);
		sum += t[i].sum;
		count += t[i].count;
	}
	for (long long v = 1; v <= ITEMS; v++)
		want += v * v;
	EXPECT_EQ(count, ITEMS);
	EXPECT_EQ(sum, want);
	EXPECT(max_used <= SLOTS, "the buffer held %d", max_used);
	EXPECT_EQ(pthread_cond_destroy(&not_empty), 0);
	EXPECT_EQ(pthread_cond_destroy(&not_full), 0);
}

static long long realtime_ns(void)
{
	struct timespec ts = { 0, 0 };

	raw_clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static struct timespec in_ms(clockid_t clk, long ms)
{
	struct timespec ts = { 0, 0 };

	raw_clock_gettime(clk, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_nsec -= 1000000000;
		ts.tv_sec++;
	}
	return ts;
}

static pthread_mutex_t tw_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tw_cond = PTHREAD_COND_INITIALIZER;
static volatile int tw_flag;

static void *set_flag_later(void *arg)
{
	(void)arg;
	thr_sleep_ms(20);
	pthread_mutex_lock(&tw_lock);
	tw_flag = 1;
	pthread_cond_signal(&tw_cond);
	pthread_mutex_unlock(&tw_lock);
	return NULL;
}

TEST(cond_timedwait)
{
	pthread_condattr_t ca;
	pthread_cond_t mono;
	pthread_t t;
	struct timespec ts, bad = { 0, 1000000000 };
	int r = 0;

	/* Nobody signals: ETIMEDOUT, no earlier than the deadline, and the
	 * mutex is held again. */
	pthread_mutex_lock(&tw_lock);
	long long t0 = realtime_ns();
	ts = in_ms(CLOCK_REALTIME, 50);
	EXPECT_EQ(pthread_cond_timedwait(&tw_cond, &tw_lock, &ts), ETIMEDOUT);
	long long ns = realtime_ns() - t0;
	EXPECT(ns >= 50000000 - 10000000, "timed out after %lld ns, before 50 ms", ns);
	EXPECT(ns < 5000000000ll, "a 50 ms timed wait took %lld ns", ns);
	EXPECT_EQ(tw_lock.lock != 0, 1);
	ts.tv_sec -= 10;                                /* long past */
	EXPECT_EQ(pthread_cond_timedwait(&tw_cond, &tw_lock, &ts), ETIMEDOUT);
	EXPECT_EQ(pthread_cond_timedwait(&tw_cond, &tw_lock, &bad), EINVAL);

	/* Signalled well before a 10 s deadline. */
	tw_flag = 0;
	EXPECT_EQ(pthread_create(&t, NULL, set_flag_later, NULL), 0);
	ts = in_ms(CLOCK_REALTIME, 10000);
	while (!tw_flag && r == 0)
		r = pthread_cond_timedwait(&tw_cond, &tw_lock, &ts);
	EXPECT_EQ(r, 0);
	EXPECT_EQ(tw_flag, 1);
	pthread_mutex_unlock(&tw_lock);
	EXPECT_EQ(pthread_join(t, NULL), 0);

	/* CLOCK_MONOTONIC by attribute. */
	EXPECT_EQ(pthread_condattr_init(&ca), 0);
	EXPECT_EQ(pthread_condattr_setclock(&ca, 77), EINVAL);
	EXPECT_EQ(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
	EXPECT_EQ(pthread_cond_init(&mono, &ca), 0);
	pthread_mutex_lock(&tw_lock);
	t0 = thr_now_ns();
	ts = in_ms(CLOCK_MONOTONIC, 30);
	EXPECT_EQ(pthread_cond_timedwait(&mono, &tw_lock, &ts), ETIMEDOUT);
	EXPECT(thr_now_ns() - t0 >= 20000000, "monotonic timed wait returned early");
	pthread_mutex_unlock(&tw_lock);
	EXPECT_EQ(pthread_condattr_destroy(&ca), 0);
}

/* ---- barriers ---- */

#define NBAR 8
#define BAR_ROUNDS 100
static pthread_barrier_t bar;
static volatile int seen_round[NBAR];
static volatile int serials, bar_errors;

static void *barrier_worker(void *arg)
{
	int me = (int)(uintptr_t)arg;

	for (int round = 1; round <= BAR_ROUNDS; round++) {
		seen_round[me] = round;
		int r = pthread_barrier_wait(&bar);
		if (r == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serials, 1, __ATOMIC_SEQ_CST);
		else if (r != 0)
			__atomic_add_fetch(&bar_errors, 1, __ATOMIC_SEQ_CST);
		/* Everyone has written this round before anyone got here. */
		for (int i = 0; i < NBAR; i++)
			if (seen_round[i] < round)
				__atomic_add_fetch(&bar_errors, 1, __ATOMIC_SEQ_CST);
		/* And nobody writes the next round before all have checked. */
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serials, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

TEST(barrier_8_threads_x_100_rounds)
{
	pthread_t t[NBAR];

	EXPECT_EQ(pthread_barrier_init(&bar, NULL, 0), EINVAL);
	EXPECT_EQ(pthread_barrier_init(&bar, NULL, NBAR), 0);
	serials = bar_errors = 0;
	for (int i = 0; i < NBAR; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, barrier_worker, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < NBAR; i++)
		EXPECT_EQ(pthread_join(t[i], NULL), 0);
	EXPECT_EQ(bar_errors, 0);
	EXPECT_EQ(serials, 2 * BAR_ROUNDS);     /* one per round, two waits a round */
	EXPECT_EQ(pthread_barrier_destroy(&bar), 0);
}

/* ---- once ---- */

#define NONCE 16
static pthread_once_t once = PTHREAD_ONCE_INIT;
static volatile int once_runs, once_value;
static pthread_barrier_t once_bar;

static void once_init(void)
{
	__atomic_add_fetch(&once_runs, 1, __ATOMIC_SEQ_CST);
	thr_sleep_ms(20);       /* the others arrive meanwhile and must wait */
	once_value = 1234;
}

static void *once_worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&once_bar);
	pthread_once(&once, once_init);
	return (void *)(uintptr_t)once_value;   /* must see init's effect */
}

TEST(once_from_16_threads_runs_once)
{
	pthread_t t[NONCE];
	int bad = 0;

	EXPECT_EQ(pthread_barrier_init(&once_bar, NULL, NONCE), 0);
	for (int i = 0; i < NONCE; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, once_worker, NULL), 0);
	for (int i = 0; i < NONCE; i++) {
		void *r = NULL;
		EXPECT_EQ(pthread_join(t[i], &r), 0);
		bad += r != (void *)1234;
	}
	EXPECT_EQ(once_runs, 1);
	EXPECT_EQ(bad, 0);
	pthread_once(&once, once_init);
	EXPECT_EQ(once_runs, 1);
}

/* ---- keys ---- */

#define NKEYS_THREADS 8
static pthread_key_t key_a, key_b;
static volatile int dtor_a_calls, dtor_a_sum, dtor_b_calls;
static int slot_a[NKEYS_THREADS], slot_b[NKEYS_THREADS];

static void dtor_a(void *v)
{
	__atomic_add_fetch(&dtor_a_calls, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&dtor_a_sum, *(int *)v, __ATOMIC_SEQ_CST);
	/* POSIX: the value is NULL by the time its destructor runs. */
	if (pthread_getspecific(key_a) != NULL)
		__atomic_add_fetch(&dtor_a_sum, 1000000, __ATOMIC_SEQ_CST);
}

/* Sets its value again twice: three calls in all, within
 * PTHREAD_DESTRUCTOR_ITERATIONS rounds. */
static void dtor_b(void *v)
{
	int *p = v;

	__atomic_add_fetch(&dtor_b_calls, 1, __ATOMIC_SEQ_CST);
	if (*p < 3) {
		(*p)++;
		pthread_setspecific(key_b, p);
	}
}

static void *key_worker(void *arg)
{
	int i = (int)(uintptr_t)arg;

	if (pthread_getspecific(key_a) != NULL)
		return (void *)1;               /* starts NULL in every thread */
	slot_a[i] = i + 1;
	if (pthread_setspecific(key_a, &slot_a[i]) != 0)
		return (void *)3;
	if (i == 0) {
		slot_b[0] = 1;
		pthread_setspecific(key_b, &slot_b[0]);
	}
	sched_yield();
	if (pthread_getspecific(key_a) != &slot_a[i])
		return (void *)2;
	return NULL;
}

TEST(keys_and_destructors)
{
	pthread_t t[NKEYS_THREADS];
	pthread_key_t k;
	int dummy = 5;

	dtor_a_calls = dtor_a_sum = dtor_b_calls = 0;
	EXPECT_EQ(pthread_key_create(&key_a, dtor_a), 0);
	EXPECT_EQ(pthread_key_create(&key_b, dtor_b), 0);
	EXPECT(key_a != key_b, "two keys are both %u", key_a);
	EXPECT_EQ(pthread_setspecific(key_a, &dummy), 0);       /* main's own */
	for (int i = 0; i < NKEYS_THREADS; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, key_worker, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < NKEYS_THREADS; i++) {
		void *r = (void *)-1;
		EXPECT_EQ(pthread_join(t[i], &r), 0);
		EXPECT(r == NULL, "key worker %d: %p", i, r);
	}
	EXPECT_EQ(dtor_a_calls, NKEYS_THREADS);
	EXPECT_EQ(dtor_a_sum, NKEYS_THREADS * (NKEYS_THREADS + 1) / 2);  /* NULL before the call */
	EXPECT_EQ(dtor_b_calls, 3);
	EXPECT(pthread_getspecific(key_a) == &dummy, "main's value changed");

	/* Delete: values are forgotten, no destructor runs; the slot, made
	 * again, starts NULL. */
	EXPECT_EQ(pthread_key_delete(key_a), 0);
	EXPECT_EQ(pthread_key_delete(key_a), EINVAL);
	EXPECT(pthread_getspecific(key_a) == NULL, "a deleted key has a value");
	EXPECT_EQ(pthread_setspecific(key_a, &dummy), EINVAL);
	EXPECT_EQ(pthread_key_create(&k, NULL), 0);
	EXPECT(pthread_getspecific(k) == NULL, "a new key in an old slot has a value");
	EXPECT_EQ(pthread_key_delete(k), 0);
	EXPECT_EQ(pthread_key_delete(key_b), 0);
	EXPECT_EQ(pthread_setspecific(PTHREAD_KEYS_MAX, &dummy), EINVAL);
	EXPECT(pthread_getspecific(PTHREAD_KEYS_MAX + 5) == NULL, "key out of range");

	/* All PTHREAD_KEYS_MAX keys, then EAGAIN. */
	pthread_key_t all[PTHREAD_KEYS_MAX];
	int n = 0;
	while (n < PTHREAD_KEYS_MAX && pthread_key_create(&all[n], NULL) == 0)
		n++;
	EXPECT_EQ(n, PTHREAD_KEYS_MAX);
	EXPECT_EQ(pthread_key_create(&k, NULL), EAGAIN);
	for (int i = 0; i < n; i++)
		pthread_key_delete(all[i]);
}

/* A thread's block of values (pthread_key.c) comes with its first
 * pthread_setspecific and goes at its exit: 300 threads that each set one
 * leave the heap where it was (kept, they would be 300 KiB). */
static pthread_key_t key_c;

static void *set_one(void *arg)
{
	return (void *)(intptr_t)pthread_setspecific(key_c, arg);
}

static int run_set_one(void *value)
{
	pthread_t t;
	void *r = (void *)-1;

	if (pthread_create(&t, NULL, set_one, value) != 0 || pthread_join(t, &r) != 0)
		return -1;
	return (int)(intptr_t)r;
}

TEST(key_blocks_freed_at_exit_and_enomem)
{
	int dummy = 7, bad = 0;
	char *brk_before;
	void **blocks = NULL, *fence;
	uintptr_t brk_page;

	EXPECT_EQ(pthread_key_create(&key_c, NULL), 0);
	EXPECT_EQ(run_set_one(&dummy), 0);      /* the heap has room for one */
	brk_before = sbrk(0);
	for (int i = 0; i < 300; i++)
		bad += run_set_one(&dummy) != 0;
	EXPECT_EQ(bad, 0);
	EXPECT(sbrk(0) == brk_before, "300 threads' blocks grew the heap by %ld bytes",
	       (long)((char *)sbrk(0) - brk_before));

	/* No memory: a mapping just above the break (a hint, which the
	 * kernel takes when the page is free: never MAP_FIXED over another
	 * mapping) stops the heap growing, and every free block is taken. */
	brk_page = ((uintptr_t)sbrk(0) + 4095) & ~(uintptr_t)4095;
	fence = mmap((void *)brk_page, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(fence == (void *)brk_page, "mmap at the break: %p", fence);
	for (void **b; (b = malloc(64)); blocks = b)
		*b = blocks;
	EXPECT_EQ(run_set_one(&dummy), ENOMEM);
	for (void **next; blocks; blocks = next) {
		next = *blocks;
		free(blocks);
	}
	munmap(fence, 4096);
	EXPECT_EQ(run_set_one(&dummy), 0);      /* and with memory, again */
	EXPECT_EQ(pthread_key_delete(key_c), 0);
}

int main(void)
{
	RUN(mutex_counter_8_threads_x_10000_exact);
	RUN(uncontended_mutex_makes_no_system_call);
	RUN(mutex_types_and_trylock);
	RUN(cond_bounded_buffer_10000_items);
	RUN(cond_timedwait);
	RUN(barrier_8_threads_x_100_rounds);
	RUN(once_from_16_threads_runs_once);
	RUN(keys_and_destructors);
	RUN(key_blocks_freed_at_exit_and_enomem);
	return t_exit_code();
}
