/* user/linux/lx_pthread.c - glibc's NPTL on Spindle's linux personality:
 * threads created with clone(0x3d0f00) (CLONE_PARENT_SETTID,
 * CLONE_CHILD_CLEARTID, CLONE_SETTLS, CLONE_SYSVSEM ...), joined through
 * the CHILD_CLEARTID futex wake, synchronised with FUTEX_WAIT_BITSET
 * (absolute CLOCK_REALTIME timeouts), FUTEX_WAKE, FUTEX_CMP_REQUEUE,
 * FUTEX_WAKE_OP, and robust mutexes through set_robust_list and the walk
 * at exit. */
#define LX_PROG "lx_pthread"
#include "lx.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void *ret_arg(void *a)
{
	return a;
}

TEST(create_join)
{
	pthread_t t[8];
	void *r;

	for (long i = 0; i < 8; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, ret_arg, (void *)(i * 7)), 0);
	for (long i = 0; i < 8; i++) {
		EXPECT_EQ(pthread_join(t[i], &r), 0);
		EXPECT_EQ((long)r, i * 7);
	}
}

static __thread int tls_counter = 100;
static __thread char tls_name[16];

static void *tls_fn(void *a)
{
	long id = (long)a;

	if (tls_counter != 100)
		return (void *)1;       /* a fresh copy of the initial image */
	tls_counter += (int)id;
	snprintf(tls_name, sizeof(tls_name), "t%ld", id);
	sched_yield();
	if (tls_counter != 100 + id || strcmp(tls_name, "t") < 0)
		return (void *)2;
	char want[16];
	snprintf(want, sizeof(want), "t%ld", id);
	return strcmp(tls_name, want) == 0 && syscall(SYS_gettid) != getpid() ? NULL : (void *)3;
}

TEST(thread_local)
{
	pthread_t t[6];
	void *r;

	tls_counter = 5;
	for (long i = 0; i < 6; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, tls_fn, (void *)i), 0);
	for (long i = 0; i < 6; i++) {
		EXPECT_EQ(pthread_join(t[i], &r), 0);
		EXPECT(r == NULL, "thread %ld: __thread check %ld failed", i, (long)r);
	}
	EXPECT_EQ(tls_counter, 5);
}

static volatile int detached_done;

static void *detached_fn(void *a)
{
	(void)a;
	__atomic_add_fetch(&detached_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

TEST(detach)
{
	pthread_attr_t at;
	pthread_t t;

	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < 20; i++)
		EXPECT_EQ(pthread_create(&t, &at, detached_fn, NULL), 0);
	EXPECT_EQ(pthread_create(&t, NULL, detached_fn, NULL), 0);
	EXPECT_EQ(pthread_detach(t), 0);
	for (int i = 0; i < 2000 && detached_done < 21; i++)
		usleep(1000);
	EXPECT_EQ(detached_done, 21);
}

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static long shared_count;

static void *mutex_fn(void *a)
{
	(void)a;
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&mtx);
		shared_count++;
		pthread_mutex_unlock(&mtx);
	}
	return NULL;
}

TEST(mutex)
{
	pthread_t t[4];

	shared_count = 0;
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, mutex_fn, NULL), 0);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(pthread_join(t[i], NULL), 0);
	EXPECT_EQ(shared_count, 80000);
	EXPECT_EQ(pthread_mutex_trylock(&mtx), 0);
	EXPECT_EQ(pthread_mutex_trylock(&mtx), EBUSY);
	EXPECT_EQ(pthread_mutex_unlock(&mtx), 0);
}

static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int queue_items, queue_done;

static void *consumer(void *a)
{
	long got = 0;

	(void)a;
	pthread_mutex_lock(&mtx);
	for (;;) {
		while (queue_items == 0 && !queue_done)
			pthread_cond_wait(&cond, &mtx);
		if (queue_items == 0)
			break;
		queue_items--;
		got++;
	}
	pthread_mutex_unlock(&mtx);
	return (void *)got;
}

TEST(condvar)
{
	pthread_t t[3];
	long total = 0;
	void *r;

	queue_items = queue_done = 0;
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, consumer, NULL), 0);
	for (int i = 0; i < 3000; i++) {
		pthread_mutex_lock(&mtx);
		queue_items++;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&mtx);
		if (i % 100 == 0)
			sched_yield();
	}
	pthread_mutex_lock(&mtx);
	queue_done = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&mtx);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(pthread_join(t[i], &r), 0);
		total += (long)r;
	}
	EXPECT_EQ(total, 3000);
}

TEST(condvar_timedwait)
{
	struct timespec before, deadline, after;
	int r;

	/* FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME with an absolute time. */
	clock_gettime(CLOCK_REALTIME, &before);
	deadline = before;
	deadline.tv_nsec += 50 * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&mtx);
	r = pthread_cond_timedwait(&cond, &mtx, &deadline);
	pthread_mutex_unlock(&mtx);
	clock_gettime(CLOCK_REALTIME, &after);
	EXPECT_EQ(r, ETIMEDOUT);
	long long ns = (after.tv_sec - before.tv_sec) * 1000000000ll + after.tv_nsec - before.tv_nsec;
	EXPECT(ns >= 50000000ll, "timed out after %lld ns, before the 50 ms deadline", ns);
	/* A deadline in the past: at once. */
	pthread_mutex_lock(&mtx);
	r = pthread_cond_timedwait(&cond, &mtx, &before);
	pthread_mutex_unlock(&mtx);
	EXPECT_EQ(r, ETIMEDOUT);
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile int readers_in, max_readers, writer_in, rw_bad;

static void *rw_fn(void *a)
{
	long writer = (long)a;

	for (int i = 0; i < 300; i++) {
		if (writer) {
			pthread_rwlock_wrlock(&rw);
			if (readers_in || writer_in)
				rw_bad = 1;
			writer_in = 1;
			sched_yield();
			writer_in = 0;
		} else {
			pthread_rwlock_rdlock(&rw);
			int n = __atomic_add_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
			if (writer_in)
				rw_bad = 1;
			if (n > max_readers)
				max_readers = n;
			sched_yield();
			__atomic_sub_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
		}
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

TEST(rwlock)
{
	pthread_t t[6];

	for (long i = 0; i < 6; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, rw_fn, (void *)(i < 2)), 0);
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(pthread_join(t[i], NULL), 0);
	EXPECT(!rw_bad, "a writer overlapped a reader or another writer");
	EXPECT(max_readers >= 1, "no reader ever held the lock");
}

static pthread_barrier_t bar;
static volatile int phase_count[5];

static void *bar_fn(void *a)
{
	(void)a;
	for (int p = 0; p < 5; p++) {
		__atomic_add_fetch(&phase_count[p], 1, __ATOMIC_SEQ_CST);
		pthread_barrier_wait(&bar);
		if (phase_count[p] != 4)
			return (void *)1;       /* someone passed too early */
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

TEST(barrier)
{
	pthread_t t[4];
	void *r;

	EXPECT_EQ(pthread_barrier_init(&bar, NULL, 4), 0);
	for (int i = 0; i < 4; i++)
		EXPECT_EQ(pthread_create(&t[i], NULL, bar_fn, NULL), 0);
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(pthread_join(t[i], &r), 0);
		EXPECT(r == NULL, "a thread left the barrier before all had arrived");
	}
	pthread_barrier_destroy(&bar);
}

static pthread_mutex_t robust;
static volatile int robust_locked;

static void *robust_owner(void *a)
{
	(void)a;
	pthread_mutex_lock(&robust);
	robust_locked = 1;
	return NULL;                    /* dies holding it */
}

TEST(robust_mutex_owner_dies)
{
	pthread_mutexattr_t ma;
	pthread_t t;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	EXPECT_EQ(pthread_mutex_init(&robust, &ma), 0);
	EXPECT_EQ(pthread_create(&t, NULL, robust_owner, NULL), 0);
	EXPECT_EQ(pthread_join(t, NULL), 0);
	EXPECT_EQ(robust_locked, 1);
	/* The kernel's walk of the dead thread's robust list set
	 * FUTEX_OWNER_DIED: the next locker is told. */
	EXPECT_EQ(pthread_mutex_lock(&robust), EOWNERDEAD);
	EXPECT_EQ(pthread_mutex_consistent(&robust), 0);
	EXPECT_EQ(pthread_mutex_unlock(&robust), 0);
	EXPECT_EQ(pthread_mutex_lock(&robust), 0);
	EXPECT_EQ(pthread_mutex_unlock(&robust), 0);
}

/* 1,000 threads alive at once, small stacks. */
static pthread_mutex_t gate_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_c = PTHREAD_COND_INITIALIZER;
static int gate_open, gate_arrived;

static void *gate_fn(void *a)
{
	pthread_mutex_lock(&gate_m);
	gate_arrived++;
	pthread_cond_broadcast(&gate_c);
	while (!gate_open)
		pthread_cond_wait(&gate_c, &gate_m);
	pthread_mutex_unlock(&gate_m);
	return a;
}

#define MANY 1000
static pthread_t many[MANY];

TEST(thousand_threads)
{
	pthread_attr_t at;
	void *r;
	int i, created = 0;

	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (i = 0; i < MANY; i++) {
		int e = pthread_create(&many[i], &at, gate_fn, (void *)(long)i);
		if (e)
			break;
		created++;
	}
	pthread_mutex_lock(&gate_m);
	while (gate_arrived < created)
		pthread_cond_wait(&gate_c, &gate_m);
	gate_open = 1;
	pthread_cond_broadcast(&gate_c);
	pthread_mutex_unlock(&gate_m);
	for (i = 0; i < created; i++) {
		if (pthread_join(many[i], &r) || (long)r != i)
			FAIL("join of thread %d", i);
	}
	EXPECT(created == MANY, "only %d threads created", created);
}

/* Every join waits on the thread's TID word, which only the kernel's
 * CLONE_CHILD_CLEARTID clears (and wakes): 1,000 rounds that would hang
 * on the first without it. The stacks are reused (glibc's cache), which
 * it does only once the word is 0. */
TEST(thousand_create_join_cycles)
{
	void *r;

	for (long i = 0; i < 1000; i++) {
		pthread_t t;
		int e = pthread_create(&t, NULL, ret_arg, (void *)i);
		if (e)
			FAIL("round %ld: pthread_create: %s", i, strerror(e));
		if ((e = pthread_join(t, &r)) || (long)r != i)
			FAIL("round %ld: join %d, result %ld", i, e, (long)r);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	RUN(create_join);
	RUN(thread_local);
	RUN(detach);
	RUN(mutex);
	RUN(condvar);
	RUN(condvar_timedwait);
	RUN(rwlock);
	RUN(barrier);
	RUN(robust_mutex_owner_dies);
	RUN(thousand_threads);
	RUN(thousand_create_join_cycles);
	return lx_exit_code();
}
