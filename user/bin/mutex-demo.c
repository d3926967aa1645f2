/* user/bin/mutex-demo.c - why a mutex, and what a futex mutex costs.
 *
 *     mutex-demo [THREADS [INCREMENTS]]     (default 4 threads x 20000)
 *
 * First the threads increment a shared counter with no lock: each
 * increment is a load, some work, and a store, and two threads that
 * load the same value store the same result - an update is lost. On
 * several CPUs that happens all the time; on one CPU it happens whenever
 * the timer preempts a thread between its load and its store. Then the
 * same with a pthread mutex around the increment: exact.
 *
 * The mutex is Drepper's futex mutex (user/lib/futex.h): locking and
 * unlocking a free mutex is one atomic instruction each, no system call;
 * only a thread that finds it taken sleeps in FUTEX_WAIT, and only an
 * unlock that knows someone sleeps calls FUTEX_WAKE. To show that, this
 * program defines its own __futex, which the thread library then uses
 * for every futex call (pthread_futex.c: the library's is weak), and
 * counts them. */
#include "pthread.h"
#include "futex.h"
#include "raw.h"
#include "stdio.h"
#include "stdlib.h"

static volatile int waits, wakes;

long __futex(volatile int *uaddr, int op, int val, const struct timespec *timeout)
{
	if ((op & ~FUTEX_PRIVATE_FLAG) == FUTEX_WAIT)
		__atomic_add_fetch(&waits, 1, __ATOMIC_SEQ_CST);
	else
		__atomic_add_fetch(&wakes, 1, __ATOMIC_SEQ_CST);
	return raw_futex((int *)uaddr, op, val, timeout);
}

#define MAX_THREADS 32
#define WORK 40         /* iterations between load and store: a wide window */

static int increments;
static volatile int counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t start_line;

static void increment_once(void)
{
	int v = counter;                        /* load */

	for (volatile int w = 0; w < WORK; w++)
		;                               /* "work" */
	counter = v + 1;                        /* store */
}

static void *unsafe(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	for (int i = 0; i < increments; i++)
		increment_once();
	return NULL;
}

static void *safe(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	for (int i = 0; i < increments; i++) {
		pthread_mutex_lock(&lock);
		increment_once();
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static int run(int n, void *(*fn)(void *))
{
	pthread_t t[MAX_THREADS];

	counter = 0;
	pthread_barrier_init(&start_line, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, NULL) != 0) {
			printf("mutex-demo: pthread_create failed\n");
			exit(1);
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start_line);
	return counter;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int want, got;

	increments = argc > 2 ? atoi(argv[2]) : 20000;
	if (n < 1 || n > MAX_THREADS || increments < 1) {
		printf("usage: mutex-demo [THREADS (1..%d) [INCREMENTS]]\n", MAX_THREADS);
		return 1;
	}
	want = n * increments;
	printf("mutex-demo: %d threads x %d increments, expecting %d\n", n, increments, want);

	got = run(n, unsafe);
	printf("without a lock: counter = %d (%d updates lost)\n", got, want - got);

	waits = wakes = 0;
	got = run(n, safe);
	printf("with a mutex:   counter = %d (%s), futex calls: %d FUTEX_WAIT + %d FUTEX_WAKE\n",
	       got, got == want ? "exact" : "WRONG", waits, wakes);
	printf("                (the barrier at the start accounts for a few of them)\n");

	waits = wakes = 0;
	for (int i = 0; i < want; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	printf("uncontended:    %d lock/unlock pairs in one thread, futex calls: %d\n",
	       want, waits + wakes);
	return got == want ? 0 : 1;
}
